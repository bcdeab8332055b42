// Gathers risk evidence for one subject: from its valuation (tax, appraisal ceiling, rent confidence, year built),
// the corpus (distressed share of nearby sales, the parcel's last deed and recorded units) and the listing history.
// Never reads crime or demographic data: there is none in the corpus, and RiskInputs has no field for it.
import type { Valuation } from '../contracts/valuation.js';
import { DEED_CODE } from '../store/columns.js';
import { dayOfIso } from '../store/days.js';
import type { ValuationContext } from '../valuation/value-context.js';
import type { BasementType, RiskInputs } from './report.js';
import { distressNear } from './distress-grid.js';

const DEED_NAME = new Map<number, string>(Object.entries(DEED_CODE).map(([k, v]) => [v, k]));

/** Deed type name of the latest recorded sale of parcel row `parcelRow` (sales parcel_idx = parcel table row). */
export function lastDeedOf(ctx: Pick<ValuationContext, 'sales' | 'parcelSales'>, parcelRow: number | null): string | null {
  if (parcelRow === null || parcelRow + 1 >= ctx.parcelSales.offsets.length) return null;
  let best = -1;
  for (let k = ctx.parcelSales.offsets[parcelRow]; k < ctx.parcelSales.offsets[parcelRow + 1]; k++) {
    const row = ctx.parcelSales.rows[k];
    if (best < 0 || ctx.sales.saleDay[row] > ctx.sales.saleDay[best]) best = row;
  }
  return best < 0 ? null : (DEED_NAME.get(ctx.sales.deedType[best]) ?? null);
}

export type RiskExtras = {
  listingUnits?: number | null;
  yearBuilt?: number | null;
  basement?: BasementType | null;
  listingEvents?: readonly string[];
};

/** What the report reads of a valuation; without one (units unknown) only the subject and its tax are known. */
export type RiskValuationEvidence = {
  subject: Valuation['subject'];
  asOf: string;
  tax: Valuation['tax'] | null;
  appraisalCeiling: Valuation['arv']['appraisal_ceiling'] | null;
  rentConfidence: Valuation['rent']['rent_confidence'] | null;
};

/** The report's evidence of a full valuation. */
export function evidenceOfValuation(v: Valuation): RiskValuationEvidence {
  return { subject: v.subject, asOf: v.as_of, tax: v.tax, appraisalCeiling: v.arv.appraisal_ceiling ?? null, rentConfidence: v.rent.rent_confidence ?? null };
}

/** Everything the report needs for a valued subject; the corpus parts come from `ctx` (the valuation's context). */
export function riskInputsFor(v: Valuation, ctx: Pick<ValuationContext, 'sales' | 'parcelSales' | 'subjects'>, extras: RiskExtras = {}): RiskInputs {
  return riskInputsOf(evidenceOfValuation(v), ctx, extras);
}

export function riskInputsOf(e: RiskValuationEvidence, ctx: Pick<ValuationContext, 'sales' | 'parcelSales' | 'subjects'>, extras: RiskExtras = {}): RiskInputs {
  const s = e.subject;
  const pin = s.key.startsWith('pin:') ? s.key.slice(4) : null;
  const row = pin !== null && ctx.subjects.parcels ? ctx.subjects.parcels.rowOfPin(pin) : null;
  const near = distressNear(ctx.sales, s.lat, s.lon, dayOfIso(e.asOf));
  const legal = row !== null && ctx.subjects.parcels && ctx.subjects.parcels.units[row] > 0 ? ctx.subjects.parcels.units[row] : null;
  const listing = s.listing_id ? ctx.subjects.listingById.get(s.listing_id) : undefined;
  const listingUnits = extras.listingUnits ?? (s.units_source === 'listing' || s.units_source === 'caller' ? s.units : null);
  return {
    priceUsd: s.price,
    taxCurrentAnnualUsd: e.tax?.current_annual ?? null,
    taxPredictiveAnnualUsd: e.tax?.predictive_annual ?? null,
    taxShockFlag: e.tax?.shock_flag ?? null,
    taxTargetBasis: e.tax?.target_basis ?? null,
    basement: extras.basement ?? null,
    nearbySales: near.n,
    nearbyDistressedSales: near.distressed,
    lastDeedType: lastDeedOf(ctx, row),
    listingEvents: extras.listingEvents ?? listing?.history.map((ev) => ev.event) ?? [],
    listingUnits,
    legalUnits: legal,
    appraisalCeilingFlag: e.appraisalCeiling?.flag ?? null,
    maxRenoSale24moUsd: e.appraisalCeiling?.max_reno_sale_24mo ?? null,
    yearBuilt: extras.yearBuilt ?? s.year_built ?? null,
    rentConfidence: e.rentConfidence ?? null,
  };
}
