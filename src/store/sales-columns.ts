// Typed views of a sales snapshot (Arrow table with the columns of store/columns.ts) for the valuation, the Tier-2 fit,
// the area context and the open-data fallback; plus the arms-length screen the kernel applies, mirrored row by row.
import type { Table } from 'apache-arrow';
import { AppError } from '../errors/app-error.js';
import { deedClassTable } from '../kernel/params.js';
import { tractsOf } from './arrow-tables.js';
import { SALES_COLUMNS as S } from './columns.js';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';

export type SalesColumns = {
  length: number;
  pin: (i: number) => string;
  parcelIdx: Uint32Array; county: Uint8Array; lat: Float64Array; lon: Float64Array; saleDay: Int32Array; dateKnown: Uint8Array;
  priceUsd: Float64Array; sqft: Float64Array; beds: Int8Array; yearBuilt: Int16Array; units: Uint8Array; ptype: Uint8Array;
  condition: Uint8Array; deedType: Uint8Array; numParcels: Uint16Array; tractIdx: Uint16Array;
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

/** Typed columns of an Arrow sales snapshot (copies only when the Arrow type differs from the contract type). */
export function salesColumnsFromArrow(table: Table): SalesColumns {
  const pinCol = table.getChild(S.pin);
  if (!pinCol) throw new AppError('ingest_invalid_file', `sales snapshot has no column ${S.pin}`);
  const pins = new Map<number, string>();
  return {
    length: table.numRows,
    pin: (i) => {
      // memoized: comp and rejection records of nearby subjects read the same rows again and again
      let pin = pins.get(i);
      if (pin === undefined) pins.set(i, (pin = String(pinCol.get(i))));
      return pin;
    },
    parcelIdx: col(table, S.parcelIdx, Uint32Array), county: col(table, S.county, Uint8Array), lat: col(table, S.lat, Float64Array),
    lon: col(table, S.lon, Float64Array), saleDay: col(table, S.saleDay, Int32Array), dateKnown: col(table, S.dateKnown, Uint8Array),
    priceUsd: col(table, S.priceUsd, Float64Array), sqft: col(table, S.sqft, Float64Array), beds: col(table, S.beds, Int8Array),
    yearBuilt: col(table, S.yearBuilt, Int16Array), units: col(table, S.units, Uint8Array), ptype: col(table, S.ptype, Uint8Array),
    condition: col(table, S.condition, Uint8Array), deedType: col(table, S.deedType, Uint8Array), numParcels: col(table, S.numParcels, Uint16Array),
    tractIdx: col(table, S.tractIdx, Uint16Array), tracts: tractsOf(table),
  };
}

/**
 * 1 for an arms-length sale, 0 otherwise — the kernel's screens (crates/avm-kernel/src/index.rs): non-arms deed class,
 * price under the floor, multi-parcel deed, duplicate (same parcel, same price, an earlier sale ≤ 365 d before),
 * rapid resale (an earlier sale of the parcel ≤ 90 d before). "Earlier" = smaller (sale_day, row): no look-ahead.
 */
export function armsLengthMask(c: SalesColumns): Uint8Array {
  const deed = deedClassTable();
  const p = COMP_POLICY.v;
  const keep = new Uint8Array(c.length);
  const order = Array.from({ length: c.length }, (_, i) => i);
  order.sort((a, b) => c.parcelIdx[a] - c.parcelIdx[b] || c.saleDay[a] - c.saleDay[b] || a - b);
  const window = Math.max(p.duplicate_window_days, p.rapid_resale_days);
  for (let k = 0; k < order.length; k++) {
    const r = order[k];
    let ok = deed[c.deedType[r]] === 0 && c.priceUsd[r] >= p.price_floor_usd && c.numParcels[r] <= 1;
    for (let j = k - 1; ok && j >= 0; j--) {
      const e = order[j];
      const gap = c.saleDay[r] - c.saleDay[e];
      if (c.parcelIdx[e] !== c.parcelIdx[r] || gap > window) break;
      if (c.priceUsd[e] === c.priceUsd[r] && gap <= p.duplicate_window_days) ok = false;
      else if (gap <= p.rapid_resale_days) ok = false;
    }
    keep[r] = ok ? 1 : 0;
  }
  return keep;
}
