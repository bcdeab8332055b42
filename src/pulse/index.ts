// Market pulse (market_pulse), tract report (get_tract_report) and the public tract list's location signals, over
// tract signals computed once per sales snapshot and cached. Tract opportunity is a location screen only.
import type { SafmrTable } from '../ingest/loaders/safmr.js';
import { AppError } from '../errors/app-error.js';
import { PULSE } from '../registry/groups/pulse.js';
import { MODEL_VERSIONS } from '../registry/versions.js';
import type { PublicTractList } from '../store/store-status.js';
import type { Store } from '../store/store.js';
import { STRATEGIES, type Strategy } from '../underwriting/types.js';
import { salesColumnsFromArrow } from '../store/sales-columns.js';
import { computeTractSignals, type TractSignals } from './signals.js';
import { collectCorpusStats } from './tract-stats.js';

export { computeTractSignals, triadOf, economicsOf, type TractSignals } from './signals.js';

export type SignalSet = { snapshotId: string; asOf: string; salesThrough: string; safmrFiscalYear: number | null; signals: TractSignals[]; byGeoid: Map<string, TractSignals> };

const cache = new WeakMap<Store, SignalSet>();

/** Tract signals of the store's current snapshot; computed on first use and whenever the snapshot changes. */
export function tractSignalsFor(store: Store, snapshotId: string | null = store.currentSnapshotId()): SignalSet {
  const id = snapshotId;
  const hit = cache.get(store);
  if (hit && hit.snapshotId === id) return hit;
  const snap = store.readSalesSnapshot(id ?? undefined);
  // a corpus stored without a parcel table still has sales signals; any other failure is a real fault and propagates
  const parcels = (() => {
    try {
      return store.readParcels(snap.id);
    } catch (e) {
      if (e instanceof AppError && e.code === 'corpus_unavailable') return null;
      throw e;
    }
  })();
  const stats = collectCorpusStats(salesColumnsFromArrow(snap.table), parcels?.table ?? null, parcels?.tracts ?? []);
  const safmr = store.getReference<SafmrTable>('safmr') ?? null;
  // Signals are dated by the data (the day after the last stored sale), so they do not move with the wall clock.
  const asOf = stats.salesThrough;
  const signals = computeTractSignals(store.getTracts(), stats, safmr, asOf);
  const set: SignalSet = { snapshotId: snap.id, asOf, salesThrough: stats.salesThrough, safmrFiscalYear: safmr?.fiscal_year ?? null, signals, byGeoid: new Map(signals.map((s) => [s.geoid, s])) };
  cache.set(store, set);
  return set;
}

/** The one rounding of published tract signals (the tract list, the report, the pulse and the map layer). */
export const round = (x: number | null, digits: number): number | null => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits);

type PublicTract = PublicTractList['tracts'][number];

function withSignals(t: PublicTract, s: TractSignals): PublicTract {
  return {
    ...t, flip_score: round(s.scores.flip, 1), brrrr_score: round(s.scores.brrrr, 1), effective_tax_rate: round(s.effective_tax_rate, 5),
    reassessment_shock: round(s.reassessment_shock, 4), reassessment_status: s.reassessment_status, section8_gap: round(s.section8_gap, 0), safmr_2br: s.safmr_2br,
  };
}

function publicTractOf(store: Store, s: TractSignals): PublicTract {
  const t = store.getTract(s.geoid);
  return withSignals({ geoid: s.geoid, county: s.county, muni: t?.muni ?? s.muni, flip_score: null, brrrr_score: null, effective_tax_rate: null, reassessment_shock: null, reassessment_status: null, section8_gap: null, safmr_2br: null }, s);
}

/** /api/tracts/chicago: the store's tract list with its location signals filled (null where evidence is thin). */
export function tractListWithSignals(store: Store): PublicTractList {
  const base = store.tractList();
  const set = tractSignalsFor(store);
  return { ...base, tracts: base.tracts.map((t) => (set.byGeoid.has(t.geoid) ? withSignals(t, set.byGeoid.get(t.geoid) as TractSignals) : t)) };
}

const GEOID = /^\d{11}$/;

/** Every labeled signal of one tract. invalid_geoid unless 11 digits; tract_not_found when no mapped tract has it. */
export function getTractReport(store: Store, geoid: unknown) {
  if (typeof geoid !== 'string' || !GEOID.test(geoid)) throw new AppError('invalid_geoid', 'geoid must be an 11-digit census tract GEOID');
  const set = tractSignalsFor(store);
  const s = set.byGeoid.get(geoid);
  if (!s) throw new AppError('tract_not_found', `no mapped Cook or Lake tract has GEOID ${geoid}`);
  return {
    geoid: s.geoid,
    as_of: set.asOf,
    model_versions: MODEL_VERSIONS,
    // A tract signal carries no calibrated uncertainty of its own; n_sales says how much evidence is behind it.
    confidence: null,
    tract: publicTractOf(store, s),
    note: 'Location context only: tract scores are county percentiles of tract-level economics, never a property score.',
    signals: [
      { name: 'muni', label: 'Municipality', value: s.muni },
      { name: 'county', label: 'County', value: s.county },
      { name: 'zip', label: 'Modal parcel ZIP', value: s.zip },
      { name: 'n_sales', label: `Arms-length sales, last ${PULSE.v.signal_window_days} days`, value: s.n_sales, unit: 'sales' },
      { name: 'median_price_usd', label: 'Median arms-length sale price', value: s.median_price_usd, unit: 'USD' },
      ...STRATEGIES.map((st) => ({ name: `${st}_score`, label: `${st} location score (county percentile)`, value: round(s.scores[st], 1), unit: 'percentile' })),
      { name: 'flip_spread', label: 'Renovation spread: (median renovated − median distressed/dated) / median renovated', value: round(s.economics.flip, 4), unit: 'fraction' },
      { name: 'brrrr_buy_yield', label: 'Gross yield at the buy price: 12 × 2BR contract rent / median distressed-or-dated price per unit', value: round(s.economics.brrrr, 4), unit: 'fraction per year' },
      { name: 'hold_net_yield', label: 'Gross yield per unit less the effective tax rate', value: round(s.economics.hold, 4), unit: 'fraction per year' },
      { name: 'house_hack_yield', label: '12 × 2BR contract rent / median 2–4-unit price per unit', value: round(s.economics.house_hack, 4), unit: 'fraction per year' },
      { name: 'effective_tax_rate', label: 'Effective tax rate at the median price (investor, no exemption)', value: round(s.effective_tax_rate, 5), unit: 'fraction of value per year' },
      { name: 'triad', label: 'Cook reassessment triad', value: s.triad },
      { name: 'last_reassess_year', label: 'Last reassessment year', value: s.last_reassess_year },
      { name: 'next_reassess_year', label: 'Next reassessment year', value: s.next_reassess_year },
      { name: 'reassessment_shock', label: 'Median price change since the last reassessment year (the next reassessment catches up on it)', value: round(s.reassessment_shock, 4), unit: 'fraction' },
      { name: 'reassessment_status', label: 'Reassessment status', value: s.reassessment_status },
      { name: 'safmr_2br', label: 'HUD SAFMR, 2 bedrooms (gross rent, 40th percentile)', value: s.safmr_2br, unit: 'USD per month' },
      { name: 'contract_rent_2br', label: 'Estimated 2BR contract rent (SAFMR less utility allowance, modal condition)', value: round(s.contract_rent_2br, 0), unit: 'USD per month' },
      { name: 'section8_gap', label: 'Section 8 gap: SAFMR 2BR − estimated contract rent', value: round(s.section8_gap, 0), unit: 'USD per month' },
    ],
    vintages: { sales_snapshot: set.snapshotId, sales_through: set.salesThrough, safmr_fiscal_year: set.safmrFiscalYear },
  };
}

type Ranked = { geoid: string; muni: string | null; county: string; score: number; value: number | null };

function topTracts(signals: TractSignals[], st: Strategy): Ranked[] {
  return signals
    .filter((s) => s.scores[st] !== null)
    .sort((a, b) => (b.scores[st] as number) - (a.scores[st] as number) || (b.economics[st] ?? 0) - (a.economics[st] ?? 0) || (a.geoid < b.geoid ? -1 : 1))
    .slice(0, PULSE.v.top_n)
    .map((s) => ({ geoid: s.geoid, muni: s.muni, county: s.county, score: round(s.scores[st], 1) as number, value: round(s.economics[st], 4) }));
}

/** ZIPs ranked by the Section 8 gap relative to contract rent, averaged over the ZIP's tracts. */
function section8Zips(signals: TractSignals[]) {
  const byZip = new Map<string, { gap: number; contract: number; safmr: number; n: number }>();
  for (const s of signals) {
    if (s.zip === null || s.section8_gap === null || s.contract_rent_2br === null || s.safmr_2br === null) continue;
    const z = byZip.get(s.zip) ?? { gap: 0, contract: 0, safmr: s.safmr_2br, n: 0 };
    z.gap += s.section8_gap;
    z.contract += s.contract_rent_2br;
    z.n++;
    byZip.set(s.zip, z);
  }
  return [...byZip.entries()]
    .map(([zip, z]) => ({ zip, safmr_2br: z.safmr, contract_rent_2br: round(z.contract / z.n, 0), section8_gap: round(z.gap / z.n, 0), gap_frac: round(z.gap / z.contract, 4), tracts: z.n }))
    .sort((a, b) => (b.gap_frac as number) - (a.gap_frac as number) || (a.zip < b.zip ? -1 : 1))
    .slice(0, PULSE.v.top_n);
}

/** market_pulse: top tracts per strategy, best Section 8 ZIPs, reassessment-shock leaders, data vintages. */
export function marketPulse(store: Store, metro: unknown = 'chicago') {
  if (metro !== 'chicago') throw new AppError('validation_failed', "metro must be 'chicago'");
  const set = tractSignalsFor(store);
  const shock = set.signals
    .filter((s) => s.reassessment_shock !== null)
    .sort((a, b) => (b.reassessment_shock as number) - (a.reassessment_shock as number) || (a.geoid < b.geoid ? -1 : 1))
    .slice(0, PULSE.v.top_n)
    .map((s) => ({ geoid: s.geoid, muni: s.muni, reassessment_shock: round(s.reassessment_shock, 4), status: s.reassessment_status, next_reassess_year: s.next_reassess_year }));
  return {
    metro: 'chicago',
    as_of: set.asOf,
    model_versions: MODEL_VERSIONS,
    confidence: null,
    note: 'Tract opportunity is a location screen only (county percentiles of tract economics), never a property score.',
    top_tracts: Object.fromEntries(STRATEGIES.map((st) => [st, topTracts(set.signals, st)])) as Record<Strategy, Ranked[]>,
    section8_zips: section8Zips(set.signals),
    reassessment_shock_leaders: shock,
    vintages: {
      sales_snapshot: set.snapshotId, sales_through: set.salesThrough, corpus: store.corpusVintage(), safmr_fiscal_year: set.safmrFiscalYear,
      tracts: store.tractList().vintage, listings_last_run: store.lastRun()?.finished ?? null,
    },
  };
}
