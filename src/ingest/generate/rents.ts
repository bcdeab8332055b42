// Synthetic rents: HUD-style SAFMRs per ZIP and bedroom count (gross rent, 40th percentile), tied to the location
// effect of the tracts around each ZIP; and the true monthly market contract rent of a property for the truth file.
import { GENERATOR } from '../../registry/groups/generator.js';
import type { ZipCentroid } from '../../reference/types.js';
import { dist2Mi } from './geometry.js';
import type { ParcelTable } from './parcels.js';
import type { GenTract } from './tracts.js';

const G = GENERATOR.v;
const MAX_BEDS = 4; // SAFMR columns stop at 4 bedrooms
const KERNEL_BW_MI = G.loc_kernel_bandwidth_mi;

export type SafmrRow = { zip: string; county: 'cook' | 'lake'; usd: number[] };

export class RentModel {
  /** ZIP of each tract (nearest ZIP centroid of the same county): the parcels' ZIP. */
  readonly tractZip: string[];
  readonly safmr = new Map<string, SafmrRow>();

  constructor(tracts: readonly GenTract[], locLog: Float64Array, parcels: ParcelTable, zips: readonly ZipCentroid[], private readonly asOfDay: number) {
    const perTract = new Float64Array(tracts.length);
    for (let i = 0; i < parcels.n; i++) perTract[parcels.tract[i]]++;
    let s = 0, w = 0;
    tracts.forEach((t, i) => { s += perTract[i] * locLog[i]; w += perTract[i]; });
    const meanLoc = s / w;
    const unique = [...new Map(zips.map((z) => [z.zip, z])).values()].sort((a, b) => a.zip.localeCompare(b.zip));
    this.tractZip = tracts.map((t) => {
      const same = unique.filter((z) => z.county === t.county);
      return same.reduce((b, z) => (dist2Mi(t.lat, t.lon, z.lat, z.lon) < dist2Mi(t.lat, t.lon, b.lat, b.lon) ? z : b)).zip;
    });
    for (const z of unique) {
      const loc = this.zipLocation(z, tracts, locLog);
      const rel = Math.exp(G.safmr_loc_elasticity * (loc - meanLoc));
      const usd = G.metro_fmr_usd.map((m) => Math.round(Math.min(Math.max(m * rel, m * G.safmr_bounds_frac[0]), m * G.safmr_bounds_frac[1]) / 10) * 10);
      this.safmr.set(z.zip, { zip: z.zip, county: z.county, usd });
    }
  }

  /** Kernel average of the location effect of the tracts around a ZIP centroid (nearest tract when all are far). */
  private zipLocation(z: ZipCentroid, tracts: readonly GenTract[], locLog: Float64Array): number {
    let sw = 0, s = 0, best = 0, bestD = Infinity;
    tracts.forEach((t, i) => {
      if (t.county !== z.county) return;
      const d2 = dist2Mi(z.lat, z.lon, t.lat, t.lon);
      if (d2 < bestD) { bestD = d2; best = i; }
      const w = Math.exp(-d2 / (2 * KERNEL_BW_MI * KERNEL_BW_MI));
      sw += w; s += w * locLog[i];
    });
    return sw > 1e-12 ? s / sw : locLog[best];
  }

  /** True monthly contract rent of one apartment: SAFMR x market/40th-pct ratio x condition - utilities, deflated to `day`. */
  unitRentUsd(zip: string, beds: number, cond: number, day: number): number {
    const b = Math.min(Math.max(Math.round(beds), 0), MAX_BEDS);
    const safmr = (this.safmr.get(zip) as SafmrRow).usd[b];
    const gross = safmr * G.market_over_safmr * Math.exp(G.rent_cond_effect_log[cond]);
    const deflate = Math.exp((-G.rent_growth_log_per_year * (this.asOfDay - day)) / 365.2425);
    return (gross - G.utility_allowance_usd[b]) * deflate;
  }

  /** True monthly contract rent of the whole property (every unit) on `day` in condition `cond`, whole dollars. */
  propertyRentUsd(p: ParcelTable, i: number, cond: number, day: number): number {
    const zip = this.tractZip[p.tract[i]];
    const units = Math.max(p.units[i], 1);
    return Math.round(units * this.unitRentUsd(zip, p.beds[i] / units, cond, day));
  }
}
