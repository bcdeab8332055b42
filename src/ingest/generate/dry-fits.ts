// The fits on the dry pass of the sales (dry-sales.ts), before the written pass re-draws them on the fitted world.
import { fitAreaShapes, type ShapeFit } from './anchor-shape.js';
import { calibrateDistressedShare, type DistressFit } from './anchor-distress.js';
import { anchorRealisedMedians } from './anchor-realised.js';
import type { Surface } from './anchoring.js';
import type { DrySales } from './dry-sales.js';
import { REALISM_TARGETS } from './realism.js';
import type { GenReference } from './reference.js';
import { Rng } from './rng.js';
import type { SalesCtx } from './sales.js';

export type Fits = { anchorShifts: Map<string, number>; shapeFit: ShapeFit; distressFit: DistressFit };

/**
 * The fits on the dry pass, in order: the shape map (3.1.0); the distressed stock held to the real lower tail, which the
 * map cannot reach (3.2.0, anchor-distress.ts); the map again on the sales without those distressed ones; then the
 * realised neighborhood-year levels, last, so the medians hold. Alternating once more (shape, then levels again) was
 * measured on the dry passes of seeds 1-3: the areas within 10% of the real IQR and tail share moved by -2 to +2 per
 * seed for ~1.5 s more, and the level moves were small (median 0.006-0.011 log): the areas that miss are those whose
 * real neighborhood medians alone spread as wide as the real area (realism-noise.ts), which no round changes. Not kept.
 */
export function fitDry(dryCtx: SalesCtx & { timeOf: Surface['timeOf'] }, dry: DrySales, ref: GenReference, surface: Surface, years: number[], seed: number): Fits {
  const realYear = REALISM_TARGETS.real_dispersion_year;
  const first = fitAreaShapes(dryCtx, dry, ref.areaDispersion, realYear, years);
  const distressFit = calibrateDistressedShare(dryCtx, dry, ref.areaDispersion, realYear, years, new Rng(seed, 'distress-calibration'));
  const second = fitAreaShapes(dryCtx, dry, ref.areaDispersion, realYear, years);
  const shapeFit: ShapeFit = new Map([...second].map(([a, f]) => [a, { before: first.get(a)?.before ?? f.before, after: f.after }]));
  const anchorShifts = anchorRealisedMedians(dryCtx, dry, surface.anchoredNbhd, ref.nbhdSales, years.filter((y) => y <= surface.lastRealYear));
  return { anchorShifts, shapeFit, distressFit };
}
