// A three-class Gaussian mixture of regressions over the cross-fitted hedonic residuals: distressed, dated and renovated
// houses sell at different distances from the mixed-condition expectation, and the distance grows with the house's
// size per dollar (`cost`: work is priced per square foot, so the same repair is a larger share of a cheap house's
// price). Each class's mean residual is a + b × cost. Class weights differ by flag group (the CCAO renovation /
// repair-condition flags move the prior, by as much as the data says they do), so a flag is evidence weighed by the
// fit, not a rule. Fitted by EM; hand-written because it is short and specific to us (grouped priors, class slopes).
import { CONDITION_INFERENCE } from '../../registry/groups/condition.js';
import { normalLogPdf, normalPdf, quantileType7 } from '../../reference/stats.js';
import { weightedMedian } from '../../valuation/comps/comp-value.js';

/** Classes in order of their means: 0 distressed, 1 dated, 2 renovated. */
export const N_CLASSES = 3;

export type Mixture = {
  /** Class mean at cost c: mean[k] + slope[k] × c. */
  mean: number[];
  slope: number[];
  sd: number[];
  /** Class weights per flag group: weight[g][k]. */
  weight: number[][];
  n: number;
  /** Log-likelihood of the fitted residuals at the last E-step (compares the starts). */
  logLik: number;
};

/** Class k's log-likelihood of one residual r at cost c. */
export const classLogLik = (m: Mixture, r: number, c: number, k: number): number => normalLogPdf(r, m.mean[k] + m.slope[k] * c, m.sd[k]);

/**
 * Posterior class probabilities with extra class log-likelihoods (other evidence on the same house, parcel-evidence.ts)
 * `extra[offset + k]`, computed in log space; written into `out[offset + k]`.
 */
export function posteriorWith(m: Mixture, r: number, c: number, g: number, extra: Float64Array, offset: number, out: Float64Array): void {
  let max = -Infinity;
  for (let k = 0; k < N_CLASSES; k++) {
    const lw = Math.log(Math.max(m.weight[g][k], 1e-300)) + classLogLik(m, r, c, k) + extra[offset + k];
    out[offset + k] = lw;
    if (lw > max) max = lw;
  }
  let sum = 0;
  for (let k = 0; k < N_CLASSES; k++) sum += (out[offset + k] = Math.exp(out[offset + k] - max));
  for (let k = 0; k < N_CLASSES; k++) out[offset + k] /= sum;
}

/**
 * Residuals, costs and pair probabilities of sales that are nearly sure renovations (the sell legs of renovation
 * resale pairs, resale-legs.ts): they are picked by their uplift over their own cheap purchase, not by where they sit
 * among renovated houses, so their median weighted by the pair's probability (a marginal uplift is more often two
 * noisy sales of an unchanged house) is a fair level of the renovated class (legLevel). Generator 3.2.0 seeds 1-3:
 * 0.131 / 0.127 / 0.132 log weighted, 0.119 / 0.117 / 0.119 unweighted; the truly renovated sales 0.125 / 0.123 / 0.128.
 */
export type MixtureAnchor = { resid: Float64Array; cost: Float64Array; weight: Float64Array };

/** The renovated level the legs say at slope b: their probability-weighted median of r − b·c. */
export function legLevel(legs: MixtureAnchor, b: number): number {
  return weightedMedian(Array.from(legs.resid, (y, j) => y - b * legs.cost[j]), Array.from(legs.weight)) ?? Number.NaN;
}

/**
 * EM over residuals `r` (one per sale) at cost `cost` (centred by the caller) in flag group `grp` (0..nGroups-1),
 * from each start of condition_inference.mixture_init_starts, keeping the fit of the highest log-likelihood. With an
 * `anchor` of at least condition_inference.cut_min_resale_legs sales, the renovated class's level is the anchor's
 * (below). Null when there are too few residuals to fit three classes (fewer than 30 per class on average).
 */
export function fitMixture(r: Float64Array, cost: Float64Array, grp: Uint8Array, nGroups: number, anchor: MixtureAnchor | null = null): Mixture | null {
  const cfg = CONDITION_INFERENCE.v;
  if (r.length < 30 * N_CLASSES) return null;
  const legs = anchor !== null && anchor.resid.length >= cfg.cut_min_resale_legs ? anchor : null;
  let best: Mixture | null = null;
  const starts = cfg.mixture_init_starts;
  for (let s = 0; s + N_CLASSES <= starts.length; s += N_CLASSES) {
    const m = fitFrom(r, cost, grp, nGroups, starts.slice(s, s + N_CLASSES), legs);
    if (best === null || m.logLik > best.logLik) best = m;
  }
  return best;
}

/**
 * Why the anchor: the residuals alone do not place the split between dated and renovated. The sale noise is
 * fat-tailed, the distressed class's wide spread takes the tails, and three Gaussians split the remaining hump at
 * nearly the same likelihood, or best in the wrong place. On generator 3.2.0 seeds 1-3, EM from several starts ended
 * with the renovated level anywhere in 0.14-0.21 log and its weight in 0.18-0.38 (truth 0.12 and 0.46), the fits of
 * one seed within 5 log-likelihood units over 50k residuals; on seed 2 the likeliest was a high, thin class (0.196,
 * weight 0.2) whose posteriors were so low that the anchored cut fell to its grid floor and recall of renovated to
 * 0.47. More starts alone do not mend that. With the renovated level held at the resale legs' the split is
 * identified; EM still fits the slopes, the spreads and the weights.
 */
function fitFrom(r: Float64Array, cost: Float64Array, grp: Uint8Array, nGroups: number, start: readonly number[], legs: MixtureAnchor | null): Mixture {
  const cfg = CONDITION_INFERENCE.v;
  const n = r.length;
  const spread = (quantileType7(r, 0.75) - quantileType7(r, 0.25)) / 1.349;
  const m: Mixture = {
    mean: start.map((p) => quantileType7(r, p)),
    slope: start.map(() => 0),
    sd: start.map(() => Math.max(cfg.mixture_min_sd_log, spread / 2)),
    weight: Array.from({ length: nGroups }, () => [0.1, 0.45, 0.45]),
    n,
    logLik: -Infinity,
  };
  const post = new Float64Array(N_CLASSES);
  let last = -Infinity;
  for (let it = 0; it < cfg.mixture_iterations; it++) {
    // Weighted sufficient statistics of each class's regression r = a + b·c: Σw, Σwc, Σwc², Σwr, Σwcr, Σwr².
    const st = Array.from({ length: N_CLASSES }, () => new Float64Array(6));
    const gw = Array.from({ length: nGroups }, () => new Float64Array(N_CLASSES));
    let ll = 0;
    for (let i = 0; i < n; i++) {
      const c = cost[i], y = r[i];
      let z = 0;
      for (let k = 0; k < N_CLASSES; k++) z += (post[k] = m.weight[grp[i]][k] * normalPdf(y, m.mean[k] + m.slope[k] * c, m.sd[k]));
      ll += Math.log(Math.max(z, 1e-300));
      for (let k = 0; k < N_CLASSES; k++) {
        const w = z > 0 ? post[k] / z : 1 / N_CLASSES;
        const t = st[k];
        t[0] += w; t[1] += w * c; t[2] += w * c * c; t[3] += w * y; t[4] += w * c * y; t[5] += w * y * y;
        gw[grp[i]][k] += w;
      }
    }
    m.logLik = ll;
    const sse = st.map((t, k) => mStep(m, k, t, cfg.mixture_min_sd_log, k === ANCHORED && legs !== null ? legs : null));
    tieSpread(m, st, sse, TIED, cfg.mixture_min_sd_log);
    for (let g = 0; g < nGroups; g++) {
      const tot = gw[g].reduce((a, b) => a + b, 0);
      if (tot > 0) m.weight[g] = Array.from(gw[g], (w) => w / tot);
    }
    if (ll - last < 1e-7 * n) break;
    last = ll;
  }
  return ordered(m);
}

/** The class the anchor holds: the renovated one (the dearest start). */
const ANCHORED = 2;

/**
 * The dated and renovated classes (initial classes 1 and 2) share one spread: the same houses, one with a repair
 * discount, sell with the same scatter around their line. Left free, EM can settle on a wide "renovated" class sitting
 * on top of the dated one (seed 3 of generator 3.0.0: class means 0.078 and 0.096 log, spreads 0.15 and 0.28), and the
 * two conditions stop being told apart (ARV stratum precision and recall fall, Tier 1 suppresses twice as often).
 */
const TIED = [1, 2] as const;

/** Pooled spread of the `tied` classes from their weights and squared residuals (a tied-variance M-step). */
function tieSpread(m: Mixture, st: readonly Float64Array[], sse: readonly number[], tied: readonly number[], minSd: number): void {
  const w = tied.reduce((a, k) => a + st[k][0], 0);
  if (!(w > 0)) return;
  const sd = Math.max(minSd, Math.sqrt(Math.max(0, tied.reduce((a, k) => a + sse[k], 0) / w)));
  for (const k of tied) m.sd[k] = sd;
}

/**
 * Weighted least squares of one class's line and its residual spread; returns the weighted squared residuals. With
 * `legs`, the line keeps its fitted slope but its level is the legs' (legLevel).
 */
function mStep(m: Mixture, k: number, t: Float64Array, minSd: number, legs: MixtureAnchor | null): number {
  const [w, wc, wcc, wy, wcy, wyy] = t;
  if (w <= 0) return 0;
  const det = w * wcc - wc * wc;
  const b = det > 1e-12 * w * w ? (w * wcy - wc * wy) / det : 0;
  const a = legs === null ? (wy - b * wc) / w : legLevel(legs, b);
  // Σw(y − a − bc)² expanded in the sums.
  const sse = wyy - 2 * a * wy - 2 * b * wcy + a * a * w + 2 * a * b * wc + b * b * wcc;
  m.mean[k] = a;
  m.slope[k] = b;
  m.sd[k] = Math.max(minSd, Math.sqrt(Math.max(0, sse / w)));
  return Math.max(0, sse);
}

/** Classes re-ordered by mean at the centre (cost 0), so class 0 is the cheapest (distressed), 2 the dearest (renovated). */
function ordered(m: Mixture): Mixture {
  const order = [0, 1, 2].sort((a, b) => m.mean[a] - m.mean[b]);
  const pick = <T>(xs: T[]): T[] => order.map((k) => xs[k]);
  return { mean: pick(m.mean), slope: pick(m.slope), sd: pick(m.sd), weight: m.weight.map((w) => pick(w)), n: m.n, logLik: m.logLik };
}
