// Anchoring the synthetic world to the real one (generator 3.0.0): the price surface of every tract (its neighborhood's
// real level series, else the kernel surface on the county index), then, once the parcels exist, the per-neighborhood
// offsets that put the all-condition median on the real one and the per-area spread of the real sales.
import type { SalesCtx } from './sales.js';
import { calibrateAreaScales } from './anchor-spread.js';
import { calibrateNbhdOffsets, calibrationDraws } from './anchor-levels.js';
import { buildNbhdLevels, nbhdTimeIndex } from './levels.js';
import { REALISM_TARGETS } from './realism.js';
import type { GenReference } from './reference.js';
import { Rng } from './rng.js';
import { TimeIndex, tractLocationLogs } from './surface.js';
import type { GenTract } from './tracts.js';
import { dayOfIso } from '../../store/days.js';

export type Surface = {
  locLog: Float64Array; timeOf: TimeIndex[]; anchoredNbhd: Array<string | null>; lastRealYear: number;
  /** Per tract: ln level of its neighborhood over the county's in the last real year (0 without a real series). */
  relLevel: Float64Array;
};

/** The day neighborhood levels are calibrated on: July 1 of the last real year inside the sale window, else mid-window. */
export function calibrationDay(plan: { startDay: number; asOfDay: number }, lastRealYear: number): number {
  const july = dayOfIso(`${lastRealYear}-07-01`);
  return july >= plan.startDay && july <= plan.asOfDay ? july : Math.round((plan.startDay + plan.asOfDay) / 2);
}

/** Location terms and time indexes: Cook tracts of neighborhoods with real sales follow their real level series. */
export function buildSurface(ref: GenReference, tracts: readonly GenTract[], seed: number, asOfYear: number): Surface {
  const levels = buildNbhdLevels(ref.nbhdSales, asOfYear + 1);
  const county = TimeIndex.fromReference(ref, asOfYear);
  const series = new Map([...levels.byNbhd].map(([k, v]) => [k, nbhdTimeIndex(v)]));
  const anchoredNbhd = tracts.map((t) => (t.county === 'cook' && series.has(t.townNbhd) ? t.townNbhd : null));
  const locLog = tractLocationLogs(ref, tracts, new Rng(seed, 'surface'), (t) => anchoredNbhd[t.idx] !== null);
  const timeOf = tracts.map((t, i) => (anchoredNbhd[i] !== null ? (series.get(t.townNbhd) as TimeIndex) : county));
  const last = levels.lastRealYear, countyLast = levels.countyLog.get(last) as number;
  const relLevel = Float64Array.from(tracts, (t, i) => (anchoredNbhd[i] !== null ? ((levels.byNbhd.get(t.townNbhd) as Map<number, number>).get(last) as number) - countyLast : 0));
  return { locLog, timeOf, anchoredNbhd, lastRealYear: last, relLevel };
}

/**
 * Levels first (the area spread is measured around them), then the spread, then levels again under the new spread.
 * Shifts `calib.locLog` and scales `calib.p.quality`.
 */
export function anchorParcels(ref: GenReference, surface: Surface, calib: Pick<SalesCtx, 'p' | 'tracts' | 'locLog' | 'timeOf'>, refDay: number, rng: Rng): void {
  const draws = calibrationDraws(calib.p.n, rng);
  const anchored = (t: number) => surface.anchoredNbhd[t];
  calibrateNbhdOffsets(calib, anchored, refDay, draws);
  calibrateAreaScales(calib, ref.areaDispersion, REALISM_TARGETS.real_dispersion_year, refDay, draws);
  calibrateNbhdOffsets(calib, anchored, refDay, draws);
}
