// Synthetic sales corpora for the kernel's parity tests and benchmark (NOT the service's synthetic generator, which
// lives in src/ingest): seeded, with repeat sales, non-arms-length rows, unknown sqft/beds, duplicate coordinates and
// a choice of geography. Numbers here shape test data only; none is a valuation constant.
import type { KernelColumns, Subject, TimeIndexSeries } from '../src/kernel/types.js';

/** mulberry32: small seeded PRNG, so a corpus is reproducible from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Corpus regions: Cook/Lake-like, a small dense town, high latitude, next to the antimeridian, across the equator. */
export const REGIONS = {
  cookLake: { lat: [41.47, 42.5], lon: [-88.27, -87.52] },
  town: { lat: [41.9, 41.93], lon: [-87.7, -87.66] },
  highLat: { lat: [69.9, 70.0], lon: [25.0, 25.3] },
  antimeridian: { lat: [-17.0, -16.95], lon: [179.9, 179.999] },
  equator: { lat: [-0.02, 0.02], lon: [-0.03, 0.03] },
} as const;
export type RegionName = keyof typeof REGIONS;

export type CorpusSpec = {
  n: number;
  seed: number;
  region: RegionName;
  /** Last sale day of the corpus (days since 1970-01-01); sales spread over `years` before it. */
  endDay?: number;
  years?: number;
  /** Share of rows that reuse an earlier row's exact coordinates. */
  dupCoordShare?: number;
  /** Share of rows with a messy value (missing coordinate, non-arms deed, low price, multi-parcel). */
  messShare?: number;
};

export type Corpus = { columns: KernelColumns; timeIndex: TimeIndexSeries[]; spec: Required<CorpusSpec> };

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** Generates a corpus; a corpus source for the bench may be swapped for the service generator's snapshot. */
export function generateCorpus(spec: CorpusSpec): Corpus {
  const s: Required<CorpusSpec> = { endDay: 20_000, years: 4, dupCoordShare: 0.05, messShare: 0.08, ...spec };
  const r = rng(s.seed);
  const { n } = s;
  const [la, lo] = [REGIONS[s.region].lat, REGIONS[s.region].lon];
  const c: KernelColumns = {
    parcelIdx: new Uint32Array(n), county: new Uint8Array(n), lat: new Float64Array(n), lon: new Float64Array(n),
    saleDay: new Int32Array(n), priceUsd: new Float64Array(n), sqft: new Float64Array(n), beds: new Int8Array(n),
    ptype: new Uint8Array(n), condition: new Uint8Array(n), deedType: new Uint8Array(n), numParcels: new Uint16Array(n),
  };
  const parcels = Math.max(1, Math.floor(n * 0.7));
  for (let i = 0; i < n; i++) {
    const repeat = i > 0 && r() < 0.15;
    const src = repeat ? Math.floor(r() * i) : i;
    c.parcelIdx[i] = repeat ? c.parcelIdx[src] : Math.floor(r() * parcels);
    const dup = i > 0 && r() < s.dupCoordShare;
    const from = dup ? Math.floor(r() * i) : src;
    c.lat[i] = repeat || dup ? c.lat[from] : la[0] + r() * (la[1] - la[0]);
    c.lon[i] = repeat || dup ? c.lon[from] : lo[0] + r() * (lo[1] - lo[0]);
    // Cook/Lake: the county follows latitude (Lake lies north of about 42.15°); elsewhere it is drawn.
    c.county[i] = repeat ? c.county[src] : s.region === 'cookLake' ? (c.lat[i] > 42.15 ? 2 : 1) : pick(r, [1, 1, 1, 2, 2, 0]);
    c.ptype[i] = repeat ? c.ptype[src] : pick(r, [0, 0, 0, 1, 2]);
    c.saleDay[i] = s.endDay - Math.floor(r() * s.years * 365);
    const sqft = 700 + r() * 2800;
    c.sqft[i] = r() < 0.06 ? NaN : Math.round(sqft);
    c.beds[i] = r() < 0.06 ? -1 : Math.min(6, Math.max(1, Math.round(sqft / 600 + r() * 1.5 - 0.5)));
    const ppsf = 80 + r() * 260;
    c.priceUsd[i] = repeat && r() < 0.4 ? c.priceUsd[src] : Math.round(sqft * ppsf * (0.8 + r() * 0.4) / 100) * 100;
    c.condition[i] = pick(r, [0, 1, 1, 2, 2, 3, 255]);
    c.deedType[i] = pick(r, [1, 1, 1, 2, 2]);
    c.numParcels[i] = 1;
    if (r() < s.messShare) mess(r, c, i);
  }
  return { columns: c, timeIndex: timeIndexFor(r, s.endDay, s.years), spec: s };
}

function mess(r: () => number, c: KernelColumns, i: number): void {
  const kind = Math.floor(r() * 5);
  if (kind === 0) c.priceUsd[i] = Math.round(r() * 12_000);
  else if (kind === 1) c.deedType[i] = pick(r, [3, 4, 5, 6, 99]);
  else if (kind === 2) c.numParcels[i] = 2 + Math.floor(r() * 3);
  else if (kind === 3) c.lat[i] = NaN;
  else c.priceUsd[i] *= 4 + r() * 6; // an outlier price for the MAD trim
}

/** Monthly random-walk price levels for counties 1 and 2 over the corpus span (county 0 has none: factor 1). */
function timeIndexFor(r: () => number, endDay: number, years: number): TimeIndexSeries[] {
  const endMonth = Math.floor(endDay / 30.44) + 1970 * 12;
  const months = Math.ceil(years * 12) + 24;
  return [1, 2].map((county) => {
    const m: number[] = [];
    const l: number[] = [];
    let level = 100;
    for (let k = 0; k < months; k++) {
      m.push(endMonth - months + k + 1);
      level *= 1 + (r() - 0.45) * 0.04;
      l.push(level);
    }
    return { county, months: Int32Array.from(m), levels: Float64Array.from(l) };
  });
}

/** Random subjects near the corpus rows (some exactly on a row's coordinates), with all option kinds. */
export function subjectAt(c: KernelColumns, u: readonly number[], endDay: number): { subject: Subject; opts: { maxStep: 1 | 2 | 3; override: { radiusMi: number; windowDays: number } | null } } {
  const row = Math.floor(u[0] * c.lat.length);
  const exact = u[1] < 0.2;
  const jitter = (v: number, w: number): number => (exact ? v : v + (w - 0.5) * 0.02);
  const lat = Number.isFinite(c.lat[row]) ? jitter(c.lat[row], u[2]) : 41.9;
  const strata = [0b1100, 0b0011, 0b11110011];
  return {
    subject: {
      lat, lon: jitter(c.lon[row], u[3]),
      sqft: u[4] < 0.15 ? null : Math.round(800 + u[5] * 2600),
      beds: u[6] < 0.15 ? null : 1 + Math.floor(u[7] * 5),
      ptype: u[8] < 0.8 ? c.ptype[row] : Math.floor(u[8] * 3) % 3,
      county: u[9] < 0.9 ? c.county[row] : 1,
      asOfDay: endDay - Math.floor(u[10] * 900),
      stratumMask: strata[Math.floor(u[11] * 3)],
      excludeParcelIdx: u[12] < 0.3 ? c.parcelIdx[row] : null,
    },
    opts: { maxStep: (1 + Math.floor(u[13] * 3)) as 1 | 2 | 3, override: u[14] < 0.1 ? { radiusMi: 1.0, windowDays: 1461 } : null },
  };
}
