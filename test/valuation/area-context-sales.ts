// Hand-built sales columns for area-context and fallback tests: one object per sale, defaults for the rest.
import { CONDITION_CODE, COUNTY_CODE, DEED_CODE, PTYPE_CODE } from '../../src/store/columns.js';
import type { SalesColumns } from '../../src/store/sales-columns.js';

export type Sale = {
  parcel: number; day: number; price: number; sqft?: number; cond?: keyof typeof CONDITION_CODE; tract?: number;
  lat?: number; lon?: number; ptype?: keyof typeof PTYPE_CODE; county?: keyof typeof COUNTY_CODE; deed?: keyof typeof DEED_CODE;
};

export function salesOf(rows: Sale[], tracts: string[] = ['17031000100', '17031000200']): SalesColumns {
  const n = rows.length;
  const m = <T>(f: (r: Sale) => T) => rows.map(f);
  return {
    length: n, pin: (i) => String(17_000_000_000_000 + rows[i].parcel),
    parcelIdx: Uint32Array.from(m((r) => r.parcel)), county: Uint8Array.from(m((r) => COUNTY_CODE[r.county ?? 'cook'])),
    lat: Float64Array.from(m((r) => r.lat ?? 41.85)), lon: Float64Array.from(m((r) => r.lon ?? -87.65)),
    saleDay: Int32Array.from(m((r) => r.day)), dateKnown: new Uint8Array(n).fill(1), priceUsd: Float64Array.from(m((r) => r.price)),
    sqft: Float64Array.from(m((r) => r.sqft ?? NaN)), beds: new Int8Array(n).fill(3), yearBuilt: new Int16Array(n).fill(1950),
    units: new Uint8Array(n).fill(1), ptype: Uint8Array.from(m((r) => PTYPE_CODE[r.ptype ?? 'sfh'])),
    condition: Uint8Array.from(m((r) => CONDITION_CODE[r.cond ?? 'renovated'])), deedType: Uint8Array.from(m((r) => DEED_CODE[r.deed ?? 'warranty'])),
    numParcels: new Uint16Array(n).fill(1), tractIdx: Uint16Array.from(m((r) => r.tract ?? 0)), tracts,
  };
}
