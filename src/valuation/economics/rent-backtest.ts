// Rent backtest: the as-is contract rent against the generator's true rents (<dataDir>/truth/sales_truth.csv, the
// only reader of that file here; serving never imports this module). Sales of the last SAFMR year only.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error.js';
import { GROUND_TRUTH_DIR, GROUND_TRUTH_FILE } from '../../ingest/layouts.js';
import type { SafmrTable } from '../../ingest/loaders/safmr.js';
import { parseCsv } from '../../reference/csv.js';
import { loadZipCentroids } from '../../reference/load.js';
import { RENT } from '../../registry/groups/rent.js';
import { CONDITION_CODE, PARCEL_COLUMNS as P } from '../../store/columns.js';
import { openStore } from '../../store/store.js';
import { salesColumnsFromArrow } from '../../store/sales-columns.js';
import { dayOfIso, isoOfDay } from '../../store/days.js';
import { intervalCoverage, mdape, ppe } from '../calibration/metrics.js';
import { median } from '../../reference/stats.js';
import { estimateRent, type RentCondition } from './rent.js';
import { segmentKey, type SegmentPtype } from '../decide/segment.js';

export type RentBacktestGroup = { group: string; n: number; mdape: number | null; ppe10: number | null; median_ratio: number | null; coverage: number | null };
/** `groups`: overall (`all`) and per property type; `segments`: per valuation segment `<ptype>_<city|suburb>`. */
export type RentBacktest = { window_from: string; window_to: string; n_skipped: number; groups: RentBacktestGroup[]; segments: RentBacktestGroup[] };

const COND_NAME: Record<number, RentCondition> = { [CONDITION_CODE.distressed]: 'distressed', [CONDITION_CODE.dated]: 'dated', [CONDITION_CODE.renovated]: 'renovated', [CONDITION_CODE.new]: 'new' };
type Acc = { est: number[]; truth: number[]; lo: number[]; hi: number[] };

function group(name: string, a: Acc): RentBacktestGroup {
  const n = a.est.length;
  if (n === 0) return { group: name, n, mdape: null, ppe10: null, median_ratio: null, coverage: null };
  return { group: name, n, mdape: mdape(a.est, a.truth), ppe10: ppe(a.est, a.truth), median_ratio: median(a.est.map((e, i) => e / a.truth[i])), coverage: intervalCoverage(a.lo, a.hi, a.truth) };
}

/** Values each sale of the window with the serving rent model (parcel facts + the sale's condition from the snapshot). */
export async function backtestRent(opts: { dataDir: string }): Promise<RentBacktest> {
  const truthPath = join(opts.dataDir, GROUND_TRUTH_DIR, GROUND_TRUTH_FILE);
  if (!existsSync(truthPath)) throw new AppError('validation_failed', `no ground truth at ${truthPath} (generate the synthetic corpus first)`);
  const store = openStore(opts.dataDir);
  try {
    const safmr = store.getReference<SafmrTable>('safmr') ?? null;
    const parcelRead = store.readParcels();
    const parcels = parcelRead.table;
    const muniOf = new Map(store.getTracts().map((t) => [t.geoid, t.muni]));
    const pins = parcels.getChild(P.pin)!, zips = parcels.getChild(P.zip)!;
    const num = (name: string) => parcels.getChild(name)!.toArray() as ArrayLike<number>;
    const [beds, sqft, units, lat, lon, tractIdx] = [num(P.beds), num(P.sqft), num(P.units), num(P.lat), num(P.lon), num(P.tractIdx)];
    const rowOfPin = new Map<string, number>();
    for (let i = 0; i < parcels.numRows; i++) rowOfPin.set(String(pins.get(i)), i);
    const sales = salesColumnsFromArrow(store.readSalesSnapshot().table);
    const condOf = new Map<string, number>();
    for (let i = 0; i < sales.length; i++) condOf.set(`${sales.pin(i)}|${sales.saleDay[i]}`, sales.condition[i]);
    const zipCentroids = loadZipCentroids();
    const rows = parseCsv(readFileSync(truthPath, 'utf8'));
    const days = rows.map((r) => dayOfIso(r.sale_date));
    const toDay = days.reduce((m, d) => Math.max(m, d), -Infinity) + 1, fromDay = toDay - RENT.v.backtest_window_days;
    const accs = new Map<string, Acc>();
    const segAccs = new Map<string, Acc>();
    let skipped = 0;
    rows.forEach((r, k) => {
      if (days[k] < fromDay || !(Number(r.true_rent) > 0)) return;
      const i = rowOfPin.get(r.pin);
      const cond = COND_NAME[condOf.get(`${r.pin}|${days[k]}`) ?? -1];
      if (i === undefined || cond === undefined) { skipped++; return; }
      const est = estimateRent({ zip: String(zips.get(i)) || null, lat: lat[i], lon: lon[i], units: units[i] || null, beds: beds[i] >= 0 ? beds[i] : null, sqft: sqft[i] > 0 ? sqft[i] : null, condition: cond }, safmr, { zipCentroids }).as_is_contract;
      if (!est || est.value === null) { skipped++; return; }
      const seg = ['sfh', 'mf2_4', 'condo'].includes(r.property_type) ? segmentKey(r.property_type as SegmentPtype, muniOf.get(parcelRead.tracts[tractIdx[i]] ?? '') ?? null) : 'unknown';
      for (const [m, g] of [[accs, 'all'], [accs, r.property_type || 'unknown'], [segAccs, seg]] as const) {
        const a = m.get(g) ?? { est: [], truth: [], lo: [], hi: [] };
        m.set(g, a);
        a.est.push(est.value); a.truth.push(Number(r.true_rent)); a.lo.push(est.low as number); a.hi.push(est.high as number);
      }
    });
    return { window_from: isoOfDay(fromDay), window_to: isoOfDay(toDay), n_skipped: skipped, groups: [...accs.entries()].sort().map(([g, a]) => group(g, a)), segments: [...segAccs.entries()].sort().map(([g, a]) => group(g, a)) };
  } finally {
    await store.close();
  }
}
