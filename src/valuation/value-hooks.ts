// Default evidence providers of the valuation: Tier 2 (the stored hedonic model), area context (area index over the
// snapshot) and rent (SAFMR-anchored), each from its own module; a missing model or table leaves that hook out.
import type { SafmrTable } from '../ingest/loaders/safmr.js';
import type { TimeIndexSeries } from '../kernel/types.js';
import { loadZipCentroids } from '../reference/load.js';
import { COUNTY_CODE } from '../store/columns.js';
import type { Store } from '../store/store.js';
import { buildAreaIndex, estimateAreaContext } from './area/area-context.js';
import { timeFactorFromSeries } from './area/area-time.js';
import { hedonicSegmentOf, ptypeOfSegment, type SegmentPtype } from './decide/segment.js';
import { hedonicEvidence } from './hedonic/evidence.js';
import { loadHedonicModel } from './hedonic/store.js';
import type { SalesColumns } from '../store/sales-columns.js';
import { estimateRent, rentFigures, type RentCondition, type RentSubject } from './economics/rent.js';
import { statedCondition, type ResolvedSubject } from './subject/subject.js';
import type { ValuationHooks } from './hooks.js';

const RENT_CONDITIONS = new Set(['distressed', 'dated', 'renovated', 'new']);

/** Hedonic Tier-2 evidence (and the model value for approaches_disagree), or no hook when no model is stored. */
export function hedonicHooks(store: Store, version?: string | null): Pick<ValuationHooks, 'tier2' | 'modelValue'> {
  if (version === null) return {};
  const model = loadHedonicModel(store.env, version);
  if (!model) return {};
  // tier2 and modelValue ask about the same subject back to back: evaluate once.
  let last: { r: ResolvedSubject; day: number; out: ReturnType<typeof hedonicEvidence> } | null = null;
  const evidenceOf = (r: ResolvedSubject, asOfDay: number) => {
    if (last && last.r === r && last.day === asOfDay) return last.out;
    const s = r.subject;
    if (!r.segment || (s.county !== 'cook' && s.county !== 'lake')) return null;
    const out = hedonicEvidence(model, {
      segment: hedonicSegmentOf(ptypeOfSegment(r.segment) as SegmentPtype, s.county, r.tract?.muni), tractGeoid: s.tract_geoid, lat: s.lat, lon: s.lon, sqft: s.sqft ?? null, beds: s.beds ?? null,
      yearBuilt: s.year_built ?? null, units: s.units, condition: 'renovated', asOfDay,
    });
    last = { r, day: asOfDay, out };
    return out;
  };
  return {
    tier2: (r, day) => evidenceOf(r, day)?.evidence ?? null,
    modelValue: (r, day) => evidenceOf(r, day)?.prediction.value ?? null,
  };
}

function rentSubjectOf(r: ResolvedSubject): RentSubject {
  const s = r.subject;
  const stated = statedCondition(s);
  const condition = stated && RENT_CONDITIONS.has(stated) ? (stated as RentCondition) : null;
  return { zip: r.zip, lat: s.lat, lon: s.lon, units: s.units, beds: s.beds ?? null, sqft: s.sqft ?? null, condition };
}

/** `hedonicVersion`: the Tier-2 model to serve (default: the current one; null: none); `arms`: armsLengthMask(sales) when known. */
export function defaultHooks(store: Store, sales: SalesColumns, series: readonly TimeIndexSeries[], hedonicVersion?: string | null, arms?: Uint8Array): ValuationHooks {
  const area = buildAreaIndex(sales, timeFactorFromSeries(series), arms);
  const tractIdx = new Map(sales.tracts.map((g, i) => [g, i]));
  const safmr = store.getReference<SafmrTable>('safmr') ?? null;
  const zipCentroids = loadZipCentroids();
  return {
    ...hedonicHooks(store, hedonicVersion),
    areaContext: (r, asOfDay) =>
      r.ptypeCode === null
        ? null
        : estimateAreaContext(area, {
            lat: r.subject.lat, lon: r.subject.lon, tractIdx: r.tract ? (tractIdx.get(r.tract.geoid) ?? null) : null, ptype: r.ptypeCode,
            county: r.subject.county === 'lake' ? COUNTY_CODE.lake : COUNTY_CODE.cook, sqft: r.subject.sqft ?? null, asOfDay,
          }),
    rent: (r) => estimateRent(rentSubjectOf(r), safmr, { zipCentroids }),
    rentFigures: (r) => rentFigures(rentSubjectOf(r), safmr, { zipCentroids }),
  };
}
