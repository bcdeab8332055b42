// Typed views of a sales snapshot (Arrow table with the columns of store/columns.ts) for the valuation, the Tier-2 fit,
// the area context and the open-data fallback; plus the arms-length screen the kernel applies, mirrored row by row
// (the one TypeScript screen: everything that needs arms-length sales reads it here).
import type { Table } from 'apache-arrow';
import { AppError } from '../errors/app-error.js';
import { DEED_CLASS } from '../kernel/abi-layout.js';
import { deedClassTable } from '../kernel/params.js';
import { tractsOf } from './arrow-tables.js';
import { REJECTION_REASONS, SALES_COLUMNS as S } from './columns.js';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';

export type SalesColumns = {
  length: number;
  pin: (i: number) => string;
  parcelIdx: Uint32Array; county: Uint8Array; lat: Float64Array; lon: Float64Array; saleDay: Int32Array; dateKnown: Uint8Array;
  priceUsd: Float64Array; sqft: Float64Array; beds: Int8Array; yearBuilt: Int16Array; units: Uint8Array; ptype: Uint8Array;
  condition: Uint8Array; deedType: Uint8Array; numParcels: Uint16Array; tractIdx: Uint16Array;
  /**
   * Probability of the assigned condition (NaN unknown) and CONDITION_SOURCE_CODE (src/ingest/condition/); absent when
   * the rows carry no provenance (a snapshot ingested before condition was inferred, hand-built test columns).
   */
  conditionProb?: Float32Array; conditionSource?: Uint8Array;
  /** tract_idx → GEOID (the snapshot's tract list). */
  tracts: readonly string[];
};

type Ctor<T> = { new (n: number): T; from(a: ArrayLike<number>): T };

function col<T extends ArrayLike<number>>(table: Table, name: string, Type: Ctor<T>): T {
  const c = table.getChild(name);
  if (!c) throw new AppError('ingest_invalid_file', `sales snapshot has no column ${name}`);
  const v = c.toArray() as unknown;
  return v instanceof (Type as unknown as Function) && (v as T).length === table.numRows ? (v as T) : Type.from(v as ArrayLike<number>);
}

/**
 * condition_prob / condition_source; none for a snapshot ingested before condition was inferred (its condition column
 * is then the feed's or the characteristics rule's, whose provenance was not recorded).
 */
function conditionProvenance(table: Table): { conditionProb?: Float32Array; conditionSource?: Uint8Array } {
  if (!table.getChild(S.conditionProb) || !table.getChild(S.conditionSource)) return {};
  return { conditionProb: col(table, S.conditionProb, Float32Array), conditionSource: col(table, S.conditionSource, Uint8Array) };
}

/** Typed columns of an Arrow sales snapshot (copies only when the Arrow type differs from the contract type). */
export function salesColumnsFromArrow(table: Table): SalesColumns {
  const pinCol = table.getChild(S.pin);
  if (!pinCol) throw new AppError('ingest_invalid_file', `sales snapshot has no column ${S.pin}`);
  // Memoized (comp and rejection records of nearby subjects read the same rows again and again): row i's text is
  // pinText[pinSlot[i]] once read (slot 0: not yet), an indexed read rather than a hash lookup per record.
  const pinSlot = new Int32Array(table.numRows);
  const pinText: string[] = [''];
  return {
    length: table.numRows,
    pin: (i) => {
      const slot = pinSlot[i];
      if (slot > 0) return pinText[slot];
      pinSlot[i] = pinText.push(String(pinCol.get(i))) - 1;
      return pinText[pinSlot[i]];
    },
    parcelIdx: col(table, S.parcelIdx, Uint32Array), county: col(table, S.county, Uint8Array), lat: col(table, S.lat, Float64Array),
    lon: col(table, S.lon, Float64Array), saleDay: col(table, S.saleDay, Int32Array), dateKnown: col(table, S.dateKnown, Uint8Array),
    priceUsd: col(table, S.priceUsd, Float64Array), sqft: col(table, S.sqft, Float64Array), beds: col(table, S.beds, Int8Array),
    yearBuilt: col(table, S.yearBuilt, Int16Array), units: col(table, S.units, Uint8Array), ptype: col(table, S.ptype, Uint8Array),
    condition: col(table, S.condition, Uint8Array), deedType: col(table, S.deedType, Uint8Array), numParcels: col(table, S.numParcels, Uint16Array),
    tractIdx: col(table, S.tractIdx, Uint16Array), tracts: tractsOf(table),
    ...conditionProvenance(table),
  };
}

/** Screen code of an arms-length sale (the kernel's R_NONE); any other code is a REJECTION_REASONS index. */
export const ARMS_LENGTH = 255;
const R = {
  rapid: REJECTION_REASONS.indexOf('rapid_resale_within_90d'), price: REJECTION_REASONS.indexOf('price_under_10k'),
  multi: REJECTION_REASONS.indexOf('multi_parcel_sale'), nonArms: REJECTION_REASONS.indexOf('non_arms_deed_type'),
  quitclaim: REJECTION_REASONS.indexOf('quitclaim_deed'), duplicate: REJECTION_REASONS.indexOf('duplicate_sale_within_365d'),
};

/**
 * The screens of one sale that read no other sale, in the kernel's precedence: price under the floor (NaN included),
 * multi-parcel deed, quitclaim deed, other non-arms deed class; ARMS_LENGTH when none applies. `deed` = deedClassTable().
 */
export function saleScreenReason(c: SalesColumns, i: number, deed: Uint8Array): number {
  if (!(c.priceUsd[i] >= COMP_POLICY.v.price_floor_usd)) return R.price;
  if (c.numParcels[i] > 1) return R.multi;
  if (deed[c.deedType[i]] === DEED_CLASS.quitclaim) return R.quitclaim;
  return deed[c.deedType[i]] === DEED_CLASS.nonArms ? R.nonArms : ARMS_LENGTH;
}

/**
 * Per row, the reason the kernel's arms-length screen (crates/avm-kernel/src/index.rs screen_rows) rejects the sale,
 * or ARMS_LENGTH: saleScreenReason first; then, against every earlier sale of the parcel (any deed, any price),
 * duplicate when one has the same price ≤ duplicate_window_days (365) before, else rapid resale when one is
 * ≤ rapid_resale_days (90) before. "Earlier" = smaller (sale_day, row): no look-ahead.
 */
export function armsLengthReasons(c: SalesColumns): Uint8Array {
  const deed = deedClassTable();
  const p = COMP_POLICY.v;
  const reasons = new Uint8Array(c.length);
  const order = Array.from({ length: c.length }, (_, i) => i);
  order.sort((a, b) => c.parcelIdx[a] - c.parcelIdx[b] || c.saleDay[a] - c.saleDay[b] || a - b);
  const window = Math.max(p.duplicate_window_days, p.rapid_resale_days);
  for (let k = 0; k < order.length; k++) {
    const r = order[k];
    const own = saleScreenReason(c, r, deed);
    if (own !== ARMS_LENGTH) {
      reasons[r] = own; // takes precedence over the repeat-sale screens
      continue;
    }
    let repeat = ARMS_LENGTH;
    for (let j = k - 1; j >= 0; j--) {
      const e = order[j];
      const gap = c.saleDay[r] - c.saleDay[e];
      if (c.parcelIdx[e] !== c.parcelIdx[r] || gap > window) break;
      if (c.priceUsd[e] === c.priceUsd[r] && gap <= p.duplicate_window_days) {
        repeat = R.duplicate;
        break;
      }
      if (gap <= p.rapid_resale_days) repeat = R.rapid;
    }
    reasons[r] = repeat;
  }
  return reasons;
}

/** 1 for an arms-length sale (armsLengthReasons is ARMS_LENGTH), 0 otherwise. */
export function armsLengthMask(c: SalesColumns): Uint8Array {
  const reasons = armsLengthReasons(c);
  const keep = new Uint8Array(c.length);
  for (let i = 0; i < c.length; i++) keep[i] = reasons[i] === ARMS_LENGTH ? 1 : 0;
  return keep;
}
