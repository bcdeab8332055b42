// Synthetic PINs in the real formats. Cook: area (2) sub-area (2) block (3) parcel (3) unit (4, non-zero for condo
// units); the area is the tract's real PIN area, the sub-area a 6 x 6 grid cell of that area. Lake: township (2)
// section (2) block (3) parcel (3), township a 4 x 4 grid of the county and section a 6 x 6 grid inside it.
import { GENERATOR } from '../../registry/groups/generator.js';
import { AppError } from '../../errors/app-error.js';
import type { BBox } from '../../reference/geo.js';
import type { GenTract } from './tracts.js';

const SECTIONS_PER_SIDE = 6; //  PLSS: a survey township is 6 x 6 sections; PIN sub-areas and Lake sections number 1-36
const LAKE_TOWNSHIPS_PER_SIDE = 4; // Lake County spans about 4 x 4 survey townships (24 x 24 mi)
const MAX_BLOCK = 999; //         3 digits
const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function gridCell(box: BBox, lon: number, lat: number, side: number): [number, number] {
  const col = Math.floor((side * (lon - box[0])) / (box[2] - box[0] || 1));
  const row = Math.floor((side * (box[3] - lat)) / (box[3] - box[1] || 1));
  return [Math.min(Math.max(row, 0), side - 1), Math.min(Math.max(col, 0), side - 1)];
}

export class PinAllocator {
  private readonly areaBoxes = new Map<string, BBox>();
  private readonly lakeBox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  private readonly counters = new Map<string, { block: number; lot: number }>();

  constructor(tracts: readonly GenTract[]) {
    for (const t of tracts) {
      const b = t.county === 'lake' ? this.lakeBox : this.areaBoxes.get(t.pinArea) ?? [Infinity, Infinity, -Infinity, -Infinity];
      const src = t.county === 'lake' ? t.bbox : ([t.lon, t.lat, t.lon, t.lat] as BBox);
      b[0] = Math.min(b[0], src[0]); b[1] = Math.min(b[1], src[1]); b[2] = Math.max(b[2], src[2]); b[3] = Math.max(b[3], src[3]);
      if (t.county === 'cook') this.areaBoxes.set(t.pinArea, b);
    }
  }

  /** The first 10 digits of a new lot's PIN (area/township, sub-area/section, block, parcel). */
  nextLot(t: GenTract, lon: number, lat: number): string {
    let prefix: string;
    if (t.county === 'cook') {
      const [r, c] = gridCell(this.areaBoxes.get(t.pinArea) as BBox, lon, lat, SECTIONS_PER_SIDE);
      prefix = t.pinArea + pad(1 + r * SECTIONS_PER_SIDE + c, 2);
    } else {
      const [tr, tc] = gridCell(this.lakeBox, lon, lat, LAKE_TOWNSHIPS_PER_SIDE);
      const w = (this.lakeBox[2] - this.lakeBox[0]) / LAKE_TOWNSHIPS_PER_SIDE, h = (this.lakeBox[3] - this.lakeBox[1]) / LAKE_TOWNSHIPS_PER_SIDE;
      const twp: BBox = [this.lakeBox[0] + tc * w, this.lakeBox[3] - (tr + 1) * h, this.lakeBox[0] + (tc + 1) * w, this.lakeBox[3] - tr * h];
      const [sr, sc] = gridCell(twp, lon, lat, SECTIONS_PER_SIDE);
      prefix = pad(1 + tr * LAKE_TOWNSHIPS_PER_SIDE + tc, 2) + pad(1 + sr * SECTIONS_PER_SIDE + sc, 2);
    }
    const ctr = this.counters.get(prefix) ?? { block: 1, lot: 0 };
    ctr.lot++;
    if (ctr.lot > GENERATOR.v.lots_per_block) { ctr.block++; ctr.lot = 1; }
    if (ctr.block > MAX_BLOCK) throw new AppError('internal_error', `PIN blocks exhausted in ${prefix}: scale too large for the synthetic grid`);
    this.counters.set(prefix, ctr);
    return prefix + pad(ctr.block, 3) + pad(ctr.lot, 3);
  }

  /** Full Cook PIN of a lot: the 4-digit unit is 0000 for a whole building, 1001.. for condo units. */
  cookPin(lot: string, unit: number): string {
    return lot + pad(unit, 4);
  }
}
