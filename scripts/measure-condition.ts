// Measures the ingest's condition estimate on an ingested synthetic corpus: the classifier against the truth file
// (condition-metrics.ts) and the Tier-1 ARV error on the TRULY renovated arms-length, non-condo sales of the last
// tier1.holdout_days, each valued as of its sale day from earlier sales (the backtest's discipline: kernel strict
// sale_day < asOfDay, time index and unit premium re-estimated per month). Signed median of estimate/price − 1 and
// MdAPE over the sales Tier 1 valued; the valued share beside them.
//   npx tsx scripts/measure-condition.ts --data-dir DIR
import { createKernel } from '../src/kernel/index.js';
import { TIER1 } from '../src/registry/groups/tier1.js';
import { PTYPE_CODE } from '../src/store/columns.js';
import { isoOfDay, firstDayOfMonth, monthOfDay } from '../src/store/days.js';
import { armsLengthMask, salesColumnsFromArrow } from '../src/store/sales-columns.js';
import { openStore } from '../src/store/store.js';
import { buildParcelSalesIndex } from '../src/valuation/comps/flip-pairs.js';
import { buildTimeIndex } from '../src/valuation/comps/time-index.js';
import { computeTier1 } from '../src/valuation/comps/tier1.js';
import { estimateUnitsPremium } from '../src/valuation/comps/units-stratum.js';
import { kernelColumnsOf } from '../src/valuation/comps/kernel-columns.js';
import { conditionClassifierMetrics } from '../src/valuation/calibration/condition-metrics.js';
import { saleKey } from '../src/valuation/calibration/oracle.js';
import { decideValuationDisplay } from '../src/valuation/decide/ladder.js';
import { median } from '../src/reference/stats.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dataDir = process.argv[process.argv.indexOf('--data-dir') + 1];
const store = openStore(dataDir);
const sales = salesColumnsFromArrow(store.readSalesSnapshot().table);
const classifier = await conditionClassifierMetrics(dataDir, sales);

// Truly renovated sales: the truth file's condition column, by sale key.
const trulyRenovated = new Set<string>();
const lines = readFileSync(join(dataDir, 'truth', 'sales_truth.csv'), 'utf8').split('\n');
const h = lines[0].split(',');
const [iPin, iDate, iPrice, iCond] = ['pin', 'sale_date', 'sale_price', 'condition'].map((k) => h.indexOf(k));
for (const l of lines.slice(1)) { const f = l.split(','); if (f[iCond] === 'renovated') trulyRenovated.add(saleKey(f[iPin], f[iDate], Number(f[iPrice]))); }

let maxDay = -Infinity;
for (let i = 0; i < sales.length; i++) maxDay = Math.max(maxDay, sales.saleDay[i]);
const startDay = maxDay + 1 - TIER1.v.holdout_days;
const arms = armsLengthMask(sales);
const byMonth = new Map<number, number[]>();
for (let i = 0; i < sales.length; i++) {
  if (arms[i] !== 1 || sales.saleDay[i] < startDay || sales.ptype[i] === PTYPE_CODE.condo) continue;
  if (!trulyRenovated.has(saleKey(sales.pin(i), isoOfDay(sales.saleDay[i]), sales.priceUsd[i]))) continue;
  const m = monthOfDay(sales.saleDay[i]);
  byMonth.set(m, [...(byMonth.get(m) ?? []), i]);
}
const columns = kernelColumnsOf(sales);
const parcelSales = buildParcelSalesIndex(sales);
const errs: number[] = [];
let n = 0;
for (const [month, rows] of [...byMonth].sort((a, b) => a[0] - b[0])) {
  const ti = buildTimeIndex(sales, firstDayOfMonth(month), arms);
  const deps = { kernel: createKernel(columns, ti.series), sales, parcelSales, unitsPremium: estimateUnitsPremium(sales, firstDayOfMonth(month), arms) };
  for (const row of rows) {
    n++;
    const t1 = computeTier1(deps, {
      lat: sales.lat[row], lon: sales.lon[row], sqft: sales.sqft[row] > 0 ? sales.sqft[row] : null, beds: sales.beds[row] >= 0 ? sales.beds[row] : null,
      ptype: sales.ptype[row], county: sales.county[row], asOfDay: sales.saleDay[row], excludeParcelIdx: sales.parcelIdx[row], units: sales.units[row] > 0 ? sales.units[row] : null,
    }, { withCeiling: false });
    const d = decideValuationDisplay({ subject: { county: sales.county[row] === 2 ? 'lake' : 'cook', outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false }, tier1: { ...t1.evidence, calibration: null }, tier2: null, areaContext: null });
    const v = d.artifactArv?.value ?? null;
    if (v !== null) errs.push(v / sales.priceUsd[row] - 1);
  }
}
const arv = { trulyRenovatedHoldout: n, valued: errs.length, valuedShare: n ? errs.length / n : null, signedMedianError: errs.length ? median(errs) : null, mdape: errs.length ? median(errs.map(Math.abs)) : null };
process.stdout.write(`${JSON.stringify({ dataDir, classifier, arv }, null, 2)}\n`);
await store.close();
