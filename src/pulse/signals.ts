// Tract signals: location context computed from the corpus, never a property score. Strategy scores are county
// percentiles (within Cook, within Lake) of tract-level economics; tax, reassessment and Section 8 signals come from
// the tax and rent modules. Each signal is null when its evidence is below the pulse group's minimums.
import type { SafmrTable } from '../ingest/loaders/safmr.js';
import type { TractRecord } from '../ingest/loaders/tracts.js';
import { loadTownships, normalizeMunicipality } from '../reference/load.js';
import { pointInPolygon } from '../reference/geo.js';
import { PULSE } from '../registry/groups/pulse.js';
import { TAX } from '../registry/groups/tax.js';
import { rankToPercentiles } from '../scoring/percentile.js';
import { CONDITION_CODE } from '../store/columns.js';
import type { Strategy } from '../underwriting/types.js';
import { estimateRent } from '../valuation/economics/rent.js';
import { estimateTax, nextReassessYear, type Triad } from '../valuation/economics/tax.js';
import { medianOrNull, modeOf, type CorpusStats, type TractEvidence } from './tract-stats.js';

const G = PULSE.v;

/** Tract-level economics behind each strategy's location score (definitions in economicsOf). */
export type TractEconomics = Record<Strategy, number | null>;

export type TractSignals = {
  geoid: string;
  county: 'cook' | 'lake';
  muni: string | null;
  zip: string | null;
  n_sales: number;
  median_price_usd: number | null;
  economics: TractEconomics;
  /** County percentiles (0-100) of the economics; location context only. */
  scores: Record<Strategy, number | null>;
  effective_tax_rate: number | null;
  triad: Triad | null;
  last_reassess_year: number | null;
  next_reassess_year: number | null;
  reassessment_shock: number | null;
  reassessment_status: string | null;
  safmr_2br: number | null;
  contract_rent_2br: number | null;
  section8_gap: number | null;
};

const CONDITION_NAME: Record<number, 'distressed' | 'dated' | 'renovated' | 'new'> = {
  [CONDITION_CODE.distressed]: 'distressed', [CONDITION_CODE.dated]: 'dated', [CONDITION_CODE.renovated]: 'renovated', [CONDITION_CODE.new]: 'new',
};
const TRIAD_OF_CODE: Record<string, Triad> = { '1': 'city', '2': 'north', '3': 'south_west' };
const TRIAD_LABEL: Record<Triad, string> = { city: 'City of Chicago triad', north: 'North suburbs triad', south_west: 'South/West suburbs triad' };

/** Cook triad: Chicago is the city triad; a suburban tract takes the triad of the township holding its bbox centre. */
export function triadOf(t: Pick<TractRecord, 'county' | 'muni' | 'bbox'>): Triad | null {
  if (t.county !== 'cook') return null;
  if (t.muni && normalizeMunicipality(t.muni) === 'chicago') return 'city';
  const lon = (t.bbox[0] + t.bbox[2]) / 2;
  const lat = (t.bbox[1] + t.bbox[3]) / 2;
  const hit = loadTownships().features.find((f) => pointInPolygon(lon, lat, f.geometry));
  return hit ? (TRIAD_OF_CODE[hit.properties.triad_code] ?? null) : null;
}

/**
 * flip: renovation spread (median renovated − median distressed/dated) / median renovated;
 * brrrr: gross yield at the buy price (12 × 2BR contract rent / median distressed-or-dated price per unit);
 * hold: net of tax (12 × contract rent / median price per unit − effective tax rate);
 * house_hack: 12 × contract rent / median 2–4-unit price per unit (the other units' rent against the price).
 */
export function economicsOf(e: TractEvidence, contractRentUsd: number | null, taxRate: number | null): TractEconomics {
  const reno = medianOrNull(e.reno, G.min_stratum_sales);
  const buy = medianOrNull(e.buy, G.min_stratum_sales);
  const yieldOn = (perUnit: number | null): number | null => (contractRentUsd === null || perUnit === null || !(perUnit > 0) ? null : (12 * contractRentUsd) / perUnit);
  const gross = yieldOn(medianOrNull(e.perUnit, G.min_tract_sales));
  return {
    flip: reno === null || buy === null || !(reno > 0) ? null : (reno - buy) / reno,
    brrrr: yieldOn(medianOrNull(e.buyPerUnit, G.min_stratum_sales)),
    hold: gross === null || taxRate === null ? null : gross - taxRate,
    house_hack: yieldOn(medianOrNull(e.mfPerUnit, G.min_stratum_sales)),
  };
}

function reassessment(t: TractRecord, triad: Triad | null, e: TractEvidence, year: number): Pick<TractSignals, 'last_reassess_year' | 'next_reassess_year' | 'reassessment_shock' | 'reassessment_status'> {
  const next = nextReassessYear(t.county, triad, year);
  if (next === null) return { last_reassess_year: null, next_reassess_year: null, reassessment_shock: null, reassessment_status: 'triad unknown' };
  const cycle = t.county === 'lake' ? TAX.v.lake_cycle_years : TAX.v.reassess_cycle_years;
  const last = next === year ? year : next - cycle;
  const base = medianOrNull(e.byYear.get(last) ?? [], G.min_tract_sales);
  const recent = medianOrNull(e.recent, G.min_tract_sales);
  // The shock is the market move the next reassessment will catch up on: recent median vs the last reassessment year's.
  const shock = last >= year || base === null || recent === null ? null : recent / base - 1;
  const label = t.county === 'lake' ? 'Lake quadrennial' : TRIAD_LABEL[triad as Triad];
  const status = next === year ? `reassessment year (${label}, ${year})` : `reassessed ${last}, next ${next} (${label})`;
  return { last_reassess_year: last, next_reassess_year: next, reassessment_shock: shock, reassessment_status: status };
}

function effectiveTaxRate(t: TractRecord, triad: Triad | null, priceUsd: number | null, asOf: string): number | null {
  if (priceUsd === null) return null;
  const { tax } = estimateTax({
    county: t.county, municipality: t.muni, triad, classCode: null, priceUsd, asIsValueUsd: null, arvUsd: null, arvPointActionable: false,
    areaEstimateUsd: null, ownerOccupied: false, asOf,
  });
  return tax.current_annual === null ? null : tax.current_annual / priceUsd;
}

function rentSignals(zip: string | null, condition: number | null, safmr: SafmrTable | null): { safmr: number | null; contract: number | null } {
  if (zip === null || !safmr?.rows[zip]) return { safmr: null, contract: null };
  const rent = estimateRent({ zip, lat: null, lon: null, units: 1, beds: 2, sqft: null, condition: condition === null ? null : (CONDITION_NAME[condition] ?? null) }, safmr);
  return { safmr: safmr.rows[zip].rent_by_beds_usd[2], contract: rent.as_is_contract?.value ?? null };
}

function signalsOf(t: TractRecord, e: TractEvidence, safmr: SafmrTable | null, asOf: string): TractSignals {
  const year = Number(asOf.slice(0, 4));
  const triad = triadOf(t);
  const zip = modeOf(e.zipCounts);
  const medianPrice = medianOrNull(e.all, G.min_tract_sales);
  const taxRate = effectiveTaxRate(t, triad, medianPrice, asOf);
  const rent = rentSignals(zip, modeOf(e.conditionCounts), safmr);
  return {
    geoid: t.geoid, county: t.county, muni: t.muni, zip, n_sales: e.all.length, median_price_usd: medianPrice,
    economics: economicsOf(e, rent.contract, taxRate),
    scores: { flip: null, brrrr: null, hold: null, house_hack: null },
    effective_tax_rate: taxRate, triad, ...reassessment(t, triad, e, year),
    safmr_2br: rent.safmr, contract_rent_2br: rent.contract, section8_gap: rent.safmr === null || rent.contract === null ? null : rent.safmr - rent.contract,
  };
}

const EMPTY: TractEvidence = { all: [], reno: [], buy: [], perUnit: [], buyPerUnit: [], mfPerUnit: [], recent: [], byYear: new Map(), zipCounts: new Map(), conditionCounts: new Map() };

/** Signals for every tract, with strategy scores as percentiles within the tract's county (mid-rank, ties shared). */
export function computeTractSignals(tracts: readonly TractRecord[], stats: CorpusStats, safmr: SafmrTable | null, asOf: string): TractSignals[] {
  const out = tracts.map((t) => signalsOf(t, stats.byGeoid.get(t.geoid) ?? EMPTY, safmr, asOf));
  for (const county of ['cook', 'lake'] as const) {
    const rows = out.filter((s) => s.county === county);
    const pct = rankToPercentiles(rows.map((s) => ({ id: s.geoid, raw: s.economics })));
    rows.forEach((s, i) => (s.scores = pct[i].percentiles));
  }
  return out;
}
