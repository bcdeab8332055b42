// The valuation bench's subjects: every parcel point of a stride through the parcel table, with a unit count (as
// /api/underwrite sends), shared by the bench and its byte-identity digest (valuation-digest.ts).
import type { openStore } from '../src/store/store.js';
import type { ValueInput } from '../src/valuation/value.js';

export function strideSubjects(store: ReturnType<typeof openStore>, n: number): ValueInput[] {
  const p = store.readParcels().table;
  const lat = p.getChild('lat')!.toArray() as Float64Array;
  const lon = p.getChild('lon')!.toArray() as Float64Array;
  const units = p.getChild('units')!.toArray() as Uint8Array;
  const stride = Math.max(1, Math.floor(lat.length / n));
  const out: ValueInput[] = [];
  for (let i = 0; i < lat.length && out.length < n; i += stride) out.push({ lat: lat[i], lon: lon[i], units: units[i] || 1, price: 300_000 });
  return out;
}
