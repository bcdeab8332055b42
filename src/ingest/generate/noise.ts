// Sale noise of generator 3.0.0: a Student-t draw (fat tails: a few sales land far from the value, as real ones do)
// whose scale grows as the house's value falls below its neighborhood's level (cheap houses sell with more spread:
// cash buyers, deferred upkeep the characteristics miss). And the per-parcel unobserved quality term.
import { GENERATOR } from '../../registry/groups/generator.js';
import type { Rng } from './rng.js';

const G = GENERATOR.v;
const DOF = G.noise_t_dof;
/** A t variate with `DOF` degrees of freedom has variance DOF / (DOF - 2); this scales it to unit variance. */
const T_TO_UNIT = Math.sqrt((DOF - 2) / DOF);

/** Student-t with `noise_t_dof` (an integer) degrees of freedom, scaled to unit variance. */
export function unitStudentT(rng: Rng): number {
  let chi2 = 0;
  for (let k = 0; k < DOF; k++) chi2 += rng.normal() ** 2;
  return (rng.normal() / Math.sqrt(chi2 / DOF)) * T_TO_UNIT;
}

/** Noise scale (sd of ln price around ln value) of a sale whose value sits `tierLog` (ln) above its neighborhood level. */
export function noiseSigma(tierLog: number): number {
  const [lo, hi] = G.noise_tier_clamp_log;
  const t = Math.min(Math.max(tierLog, lo), hi);
  return G.noise_sigma_log * Math.exp(-G.noise_tier_slope * t);
}

/** ln(price / value) of one sale. */
export function saleNoiseLog(rng: Rng, tierLog: number): number {
  return noiseSigma(tierLog) * unitStudentT(rng);
}

/** Per-parcel unobserved quality (ln points, mean 0) before its area's dispersion scale: what the characteristics do not say. */
export function drawQuality(rng: Rng): number {
  return G.quality_sd_log * rng.normal();
}
