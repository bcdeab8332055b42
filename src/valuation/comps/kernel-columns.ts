// The kernel's sales columns from the typed sales view — the one place they are built (serving, the open-data
// fallback, the backtest) — and the bedroom figure the kernel's bedroom band compares.
//
// Bedrooms per unit for 2-4-unit buildings (issue 14 item 5): the band (comp_policy.beds_band, ±1) on total bedrooms
// made unit counts mutually exclusive (a 4-unit 8-bed building is 4 bedrooms from a 2-unit 4-bed one) and, within a
// unit count, split 2-bed-unit from 3-bed-unit buildings (2-unit 4 vs 6 beds). What a unit rents and sells for follows
// its bedroom count, and the unit count itself is priced by the market-derived premium (units-stratum.ts), so the
// band compares bedrooms per unit. The kernel's bedroom column is an integer (Int8, ABI unchanged): the per-unit figure
// is rounded half up (5 beds / 2 units → 3), on comps and subjects alike. A 2-4-unit row or subject whose unit count
// is unknown has no per-unit figure: beds unknown (-1), so no band and a neutral similarity term.
import type { KernelColumns } from '../../kernel/types.js';
import { PTYPE_CODE } from '../../store/columns.js';
import type { SalesColumns } from '../../store/sales-columns.js';

/** The bedroom figure the kernel compares: per unit for a 2-4-unit building, total otherwise; -1 when unknown. */
export function comparableBeds(beds: number, ptype: number, units: number): number {
  if (beds < 0) return -1;
  if (ptype !== PTYPE_CODE.mf2_4) return beds;
  return units >= 2 && units <= 4 ? Math.floor(beds / units + 0.5) : -1;
}

/** The bedroom column of the kernel: the sales' own array when no row is 2-4-unit, else a per-unit copy. */
export function kernelBedsColumn(c: Pick<SalesColumns, 'length' | 'beds' | 'ptype' | 'units'>): Int8Array {
  if (!c.ptype.includes(PTYPE_CODE.mf2_4)) return c.beds;
  const out = new Int8Array(c.length);
  for (let i = 0; i < c.length; i++) out[i] = comparableBeds(c.beds[i], c.ptype[i], c.units[i]);
  return out;
}

/** The kernel's columns from the typed sales view (the same arrays, no copy, except bedrooms: see above). */
export function kernelColumnsOf(c: SalesColumns): KernelColumns {
  return {
    parcelIdx: c.parcelIdx, county: c.county, lat: c.lat, lon: c.lon, saleDay: c.saleDay, priceUsd: c.priceUsd, sqft: c.sqft,
    beds: kernelBedsColumn(c), ptype: c.ptype, condition: c.condition, deedType: c.deedType, numParcels: c.numParcels,
  };
}
