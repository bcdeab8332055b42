// Census tracts: Chicago's are the real tracts (real GEOIDs, cells around the real internal points clipped to the real
// neighborhood polygons); suburban Cook tracts are Voronoi cells of seeds clipped to each real CCAO neighborhood
// polygon; Lake tracts are Voronoi cells clipped to the synthetic county outline. Generated codes follow Census habits.
import { bboxOf, pointInPolygon, type BBox, type MultiPolygonGeometry, type Position } from '../../reference/geo.js';
import { GENERATOR } from '../../registry/groups/generator.js';
import { AppError } from '../../errors/app-error.js';
import { centroidOf, clipToCell, samplePointIn, voronoiCell, areaDeg2 } from './geometry.js';
import { chicagoPieces } from './chicago-tracts.js';
import { lakeOutline, lakeZips } from './lake.js';
import { nbhdVolumes } from './levels.js';
import { areaRelativeLevels, type GenReference } from './reference.js';
import { apportion, type Rng } from './rng.js';

export type GenTract = {
  idx: number;
  geoid: string;
  county: 'cook' | 'lake';
  namelsad: string;
  muni: string;
  geometry: MultiPolygonGeometry;
  bbox: BBox;
  lon: number;
  lat: number;
  townNbhd: string;
  townshipCode: string;
  townshipName: string;
  triadCode: string;
  triadName: string;
  /** Cook: the 2-digit PIN area whose real price level anchors this tract; Lake: ''. */
  pinArea: string;
  isChicago: boolean;
  /** Relative parcel density weight (expected real sales activity of the tract). */
  weight: number;
};

/** Slivers below this area (about 100 m2) left by clipping are dropped: they would hold no parcel. */
const SLIVER_DEG2 = 1e-9;
/** First Chicago township code in the CCAO numbering (70 Hyde Park ... 77 West Chicago; raw town_shp.geojson). */
const CHICAGO_TOWNSHIP_MIN = 70;
const LLOYD_ITERATIONS = 3; //    relaxation passes: enough to avoid needle-thin cells, not a tunable of the surface
const LLOYD_SAMPLES_PER_SEED = 25;

function tractName(code: number): string {
  const whole = Math.floor(code / 100), frac = code % 100;
  return frac === 0 ? `Census Tract ${whole}` : `Census Tract ${whole}.${String(frac).padStart(2, '0')}`;
}

/** Moves seeds to the centroid of the sample points nearest to them (Lloyd's relaxation, sampled). */
function relaxSeeds(seeds: Position[], g: MultiPolygonGeometry, box: BBox, rng: Rng, cosLat: number): void {
  for (let it = 0; it < LLOYD_ITERATIONS; it++) {
    const sx = new Float64Array(seeds.length), sy = new Float64Array(seeds.length), n = new Float64Array(seeds.length);
    for (let s = 0; s < seeds.length * LLOYD_SAMPLES_PER_SEED; s++) {
      const [x, y] = samplePointIn(g, box, rng);
      let best = 0, bestD = Infinity;
      seeds.forEach(([px, py], k) => {
        const d = ((x - px) * cosLat) ** 2 + (y - py) ** 2;
        if (d < bestD) { bestD = d; best = k; }
      });
      sx[best] += x; sy[best] += y; n[best]++;
    }
    seeds.forEach((p, k) => { if (n[k] > 0) seeds[k] = [sx[k] / n[k], sy[k] / n[k]]; });
  }
}

/** Splits one polygon into k Voronoi parts; retries with fresh seeds when a part vanishes as a sliver. */
function partition(g: MultiPolygonGeometry, k: number, rng: Rng): MultiPolygonGeometry[] {
  if (k === 1) return [g];
  const box = bboxOf(g);
  const cosLat = Math.cos((((box[1] + box[3]) / 2) * Math.PI) / 180);
  for (let attempt = 0; attempt < 5; attempt++) {
    const seeds = Array.from({ length: k }, () => samplePointIn(g, box, rng));
    relaxSeeds(seeds, g, box, rng, cosLat);
    const pad: BBox = [box[0] - 0.01, box[1] - 0.01, box[2] + 0.01, box[3] + 0.01];
    const parts = seeds.map((_, i) => clipToCell(g, voronoiCell(seeds, i, pad, cosLat), SLIVER_DEG2));
    if (parts.every((p) => p !== null)) return parts as MultiPolygonGeometry[];
  }
  throw new AppError('internal_error', 'tract partition failed: a Voronoi part vanished five times');
}

type Nbhd = { props: GenReference['neighborhoods']['features'][number]['properties']; g: MultiPolygonGeometry; area: number; c: Position; pinArea: string };

/** Each neighborhood's anchoring PIN area: the nearest area point of the same township, else the nearest overall. */
function nbhdsWithAreas(ref: GenReference): Nbhd[] {
  const levels = areaRelativeLevels(ref.priceLevels);
  const areas = ref.pinAreas.filter((a) => levels.has(a.pinArea));
  if (areas.length === 0) throw new AppError('internal_error', 'reference data has no PIN area with price levels');
  return ref.neighborhoods.features.map((f) => {
    const c = centroidOf(f.geometry);
    const same = areas.filter((a) => a.townshipCode === f.properties.township_code);
    const pool = same.length > 0 ? same : areas;
    const best = pool.reduce((b, a) => ((a.lon - c[0]) ** 2 + (a.lat - c[1]) ** 2 < (b.lon - c[0]) ** 2 + (b.lat - c[1]) ** 2 ? a : b));
    return { props: f.properties, g: f.geometry, area: areaDeg2(f.geometry), c, pinArea: best.pinArea };
  });
}

/** Parcel density weight of each neighborhood: its mean real yearly class-2 sales (nbhd_volume_years); 0 when none. */
function nbhdWeights(ref: GenReference, nbhds: readonly Nbhd[]): number[] {
  const vol = nbhdVolumes(ref.nbhdSales);
  return nbhds.map((n) => vol.get(n.props.town_nbhd) ?? 0);
}

function cookTract(n: Nbhd, g: MultiPolygonGeometry, geoid: string, name: string, isChicago: boolean, weight: number): GenTract {
  const [lon, lat] = centroidOf(g);
  return {
    idx: 0, geoid, county: 'cook', namelsad: name, muni: isChicago ? 'Chicago' : n.props.township_name, geometry: g, bbox: bboxOf(g), lon, lat,
    townNbhd: n.props.town_nbhd, townshipCode: n.props.township_code, townshipName: n.props.township_name,
    triadCode: n.props.triad_code, triadName: n.props.triad_name, pinArea: n.pinArea, isChicago, weight,
  };
}

/**
 * Cook tracts. Chicago: the real tracts (GEOID, name) cut into one piece per city neighborhood they cross (several
 * pieces share a GEOID). Suburban Cook: generated Voronoi tracts inside each neighborhood, more where real sales are
 * many. A tract's weight is its neighborhood's real sales volume times its share of the neighborhood's land.
 */
export function buildCookTracts(ref: GenReference, rng: Rng): GenTract[] {
  const nbhds = nbhdsWithAreas(ref).sort((a, b) => a.props.town_nbhd.localeCompare(b.props.town_nbhd));
  const weights = nbhdWeights(ref, nbhds);
  const isCity = (n: Nbhd) => Number(n.props.township_code) >= CHICAGO_TOWNSHIP_MIN;
  const city = nbhds.map((n, i) => ({ n, i })).filter((x) => isCity(x.n));
  const shapes = city.map(({ n }) => ({ townNbhd: n.props.town_nbhd, g: n.g, box: bboxOf(n.g), area: n.area }));
  const { pieces } = chicagoPieces(ref.chicagoTracts, shapes, SLIVER_DEG2);
  const tracts: GenTract[] = pieces.map((p) => {
    const { n, i } = city[p.nbhdIdx];
    return cookTract(n, p.g, p.tract.geoid, p.tract.name.replace(/^Tract /, 'Census Tract '), true, (weights[i] * p.area) / n.area);
  });
  const realCodes = new Set(ref.chicagoTracts.map((t) => t.geoid));
  const suburbs = nbhds.map((n, i) => ({ n, i })).filter((x) => !isCity(x.n));
  const total = GENERATOR.v.tracts_suburb_cook;
  if (suburbs.length > total) throw new AppError('internal_error', `${suburbs.length} suburban neighborhoods exceed ${total} suburban Cook tracts`);
  const counts = apportion(total, suburbs.map((x) => weights[x.i]), 1);
  let code = 800100;
  suburbs.forEach(({ n, i }, k) => {
    for (const g of partition(n.g, counts[k], rng)) {
      while (realCodes.has(`17031${String(code).padStart(6, '0')}`)) code += 100;
      tracts.push(cookTract(n, g, `17031${String(code).padStart(6, '0')}`, tractName(code), false, weights[i] / counts[k]));
      code += 100;
    }
  });
  return tracts;
}

/** Lake seeds: most scattered around real ZIP centroids (towns get small tracts), the rest uniform (rural). */
function lakeSeeds(ref: GenReference, outline: MultiPolygonGeometry, box: BBox, rng: Rng): Position[] {
  const zips = lakeZips(ref.zips);
  const n = GENERATOR.v.tracts_lake;
  const nUniform = Math.round(n * GENERATOR.v.lake_seed_uniform_share);
  const seeds: Position[] = [];
  const minSepDeg = 0.004; // about a quarter mile: closer seeds would make sliver tracts
  while (seeds.length < n) {
    let p: Position;
    if (seeds.length < nUniform) p = samplePointIn(outline, box, rng);
    else {
      const z = zips[rng.int(0, zips.length - 1)];
      p = [z.lon + rng.normal() * GENERATOR.v.lake_seed_sd_deg, z.lat + rng.normal() * GENERATOR.v.lake_seed_sd_deg];
      if (!pointInPolygon(p[0], p[1], outline)) continue;
    }
    if (seeds.every((s) => Math.abs(s[0] - p[0]) + Math.abs(s[1] - p[1]) > minSepDeg)) seeds.push(p);
  }
  return seeds.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}

/** Lake tracts: Voronoi cells of the seeds clipped to the outline, named after the nearest ZIP's city. */
export function buildLakeTracts(ref: GenReference, rng: Rng): GenTract[] {
  const outline = lakeOutline();
  const box = bboxOf(outline);
  const cosLat = Math.cos((((box[1] + box[3]) / 2) * Math.PI) / 180);
  const zips = lakeZips(ref.zips);
  if (zips.length === 0) throw new AppError('internal_error', 'reference ZIP centroids hold no Lake County ZIP with a city name');
  const seeds = lakeSeeds(ref, outline, box, rng);
  return seeds.map((s, i) => {
    const g = clipToCell(outline, voronoiCell(seeds, i, box, cosLat), SLIVER_DEG2);
    if (g === null) throw new AppError('internal_error', `Lake tract ${i} vanished when clipped to the outline`);
    const [lon, lat] = centroidOf(g);
    const near = zips.reduce((b, z) => ((z.lon - lon) ** 2 + (z.lat - lat) ** 2 < (b.lon - lon) ** 2 + (b.lat - lat) ** 2 ? z : b), zips[0]);
    const code = 860100 + 100 * i;
    return {
      idx: 0, geoid: `17097${code}`, county: 'lake' as const, namelsad: tractName(code), muni: near.city,
      geometry: g, bbox: bboxOf(g), lon, lat, townNbhd: '', townshipCode: '', townshipName: '', triadCode: '', triadName: '',
      pinArea: '', isChicago: false, weight: 1,
    };
  });
}
