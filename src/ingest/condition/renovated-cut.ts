// Where to cut the renovated posterior so that Tier-1 ARV is not biased by the labelling. A sale called renovated
// because it sold high carries its own positive noise into every ARV it is a comp for (a high cut selects noise as
// condition: ARV biased up); a low cut takes in dated sales that sold well (ARV biased down). The anchor is the
// renovation resale legs: they are picked by their uplift over their own purchase (a far larger gap than the sale
// noise), not by where they sit among renovated houses, so their residuals are a fair sample of the renovated level.
// The cut is the grid point where the hedonic-labelled sales sit, in median, where the resale legs sit (residuals
// taken against the mixture's renovated line, so a difference in size per dollar between the two groups cancels).
import { CONDITION_INFERENCE } from '../../registry/groups/condition.js';
import { median } from '../../reference/stats.js';
import { legLevel, type Mixture, type MixtureAnchor } from './mixture.js';

const RENOVATED = 2;

/** `pRenovated[i]`: renovated posterior of row i (all evidence); `rows`: the hedonic-labelled candidates. */
export type CutInputs = { rows: readonly number[]; resid: Float64Array; cost: Float64Array; pRenovated: Float64Array; sellLegs: readonly number[]; legs: MixtureAnchor };
export type RenovatedCut = { cut: number; anchoredOn: number };

/** The anchored cut, or the registry's fixed cut when there are too few resale legs to anchor on. */
export function renovatedCut(m: Mixture, inp: CutInputs): RenovatedCut {
  const cfg = CONDITION_INFERENCE.v;
  if (inp.sellLegs.length < cfg.cut_min_resale_legs) return { cut: cfg.renovated_min_prob, anchoredOn: 0 };
  const line = (i: number): number => inp.resid[i] - (m.mean[RENOVATED] + m.slope[RENOVATED] * inp.cost[i]);
  // The legs' level as the mixture reads it (weighted by the pair's probability), against the renovated line.
  const anchor = legLevel(inp.legs, m.slope[RENOVATED]) - m.mean[RENOVATED];
  const legs = new Set(inp.sellLegs);
  const rows = inp.rows.filter((i) => !legs.has(i));
  const p = Float64Array.from(rows, (i) => inp.pRenovated[i]);
  const z = Float64Array.from(rows, line);
  const [lo, hi, step] = cfg.renovated_cut_grid;
  let best: number = cfg.renovated_min_prob, bestGap = Infinity;
  for (let k = 0; lo + k * step <= hi + 1e-9; k++) {
    const cut = lo + k * step;
    const sel: number[] = [];
    for (let j = 0; j < p.length; j++) if (p[j] >= cut) sel.push(z[j]);
    if (sel.length === 0) break;
    const gap = Math.abs(median(sel) - anchor);
    if (gap < bestGap) { bestGap = gap; best = cut; }
  }
  return { cut: best, anchoredOn: inp.sellLegs.length };
}
