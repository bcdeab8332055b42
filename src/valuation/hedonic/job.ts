// `avm fit-hedonic`: fits hedonic_v1 on the current sales snapshot of a data folder and stores it (LMDB calibration
// sub-db). The cutoff is the day after the latest sale, so every ingested sale is used (nothing from the future).
import type { TractRecord } from '../../ingest/loaders/tracts.js';
import { openStore } from '../../store/store.js';
import { fitHedonic } from './fit.js';
import { salesColumnsFromArrow } from '../../store/sales-columns.js';
import { saveHedonicModel, summarizeHedonicModel, type HedonicModelSummary } from './store.js';
import type { TractMeta } from './types.js';

/** Tract metadata for the fit: county, muni (city/suburb segment) and the bounding-box centre as centroid. */
export function tractMetaFromRecords(records: readonly TractRecord[]): TractMeta[] {
  return records.map((t) => ({ geoid: t.geoid, county: t.county, muni: t.muni, lat: (t.bbox[1] + t.bbox[3]) / 2, lon: (t.bbox[0] + t.bbox[2]) / 2 }));
}

/** Fits and stores the model; returns its summary (per segment n, sigma, R², display eligibility) and skipped segments. */
export async function runFitHedonic(opts: { dataDir: string; cutoffDay?: number }): Promise<{ summary: HedonicModelSummary; skipped: Record<string, string> }> {
  const store = openStore(opts.dataDir);
  try {
    const snap = store.readSalesSnapshot();
    const cols = salesColumnsFromArrow(snap.table);
    let maxDay = -Infinity;
    for (let i = 0; i < cols.length; i++) if (cols.saleDay[i] > maxDay) maxDay = cols.saleDay[i];
    const model = fitHedonic(cols, tractMetaFromRecords(store.getTracts()), { cutoffDay: opts.cutoffDay ?? maxDay + 1 });
    await saveHedonicModel(store.env, model);
    return { summary: summarizeHedonicModel(model), skipped: model.skipped };
  } finally {
    await store.close();
  }
}
