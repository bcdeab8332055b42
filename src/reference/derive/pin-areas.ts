// Build-time only: approximate crosswalk from the 2-digit Cook PIN area to CCAO assessment townships, built on the
// public land survey grid. Each PIN area is taken to be one congressional township (T35N-T42N, R9E-R15E, numbered in
// rows from the north-west); grid lines are estimated from assessment townships that coincide with a survey township.
import { join } from 'node:path';
import { REFERENCE_DERIVATION } from '../../registry/groups/reference-derivation.js';
import { bboxOf, inBBox, pointInPolygon, type AreaGeometry, type BBox } from '../geo.js';
import { fmtNum, formatCsv } from '../csv.js';
import { median } from '../stats.js';
import { codeString, rawPolygons, readRawFeatures } from './geometry.js';

type Edge = 'N' | 'S' | 'E' | 'W';
/** area -> survey township (T north), range (R east), and the assessment township that IS that survey township. */
type GridCell = { t: number; r: number; anchor?: string; irregular?: Edge[] };

// From the survey grid and the PIN-area numbering (01 Barrington ... 33 south-east Bloom). Anchors are assessment
// townships whose boundary is the survey township; `irregular` marks sides that follow a river, lake or a neighbour
// township instead of a survey line (seen in the polygons' bounding boxes).
export const PIN_AREA_GRID: Record<string, GridCell> = {
  '01': { t: 42, r: 9, anchor: '10' }, '02': { t: 42, r: 10, anchor: '29' }, '03': { t: 42, r: 11, anchor: '38' },
  '04': { t: 42, r: 12, anchor: '25' }, '05': { t: 42, r: 13, anchor: '23', irregular: ['W', 'E'] },
  '06': { t: 41, r: 9, anchor: '18' }, '07': { t: 41, r: 10, anchor: '35' }, '08': { t: 41, r: 11, anchor: '16' },
  '09': { t: 41, r: 12, anchor: '22' }, '10': { t: 41, r: 13, anchor: '24', irregular: ['E'] }, '11': { t: 41, r: 14 },
  '12': { t: 40, r: 12, anchor: '20' }, '13': { t: 40, r: 13 }, '14': { t: 40, r: 14 },
  '15': { t: 39, r: 12, anchor: '31' }, '16': { t: 39, r: 13 }, '17': { t: 39, r: 14 },
  '18': { t: 38, r: 12, anchor: '21', irregular: ['S'] }, '19': { t: 38, r: 13 }, '20': { t: 38, r: 14 }, '21': { t: 38, r: 15 },
  '22': { t: 37, r: 11, anchor: '19', irregular: ['N'] }, '23': { t: 37, r: 12, anchor: '30' }, '24': { t: 37, r: 13, anchor: '39' },
  '25': { t: 37, r: 14 }, '26': { t: 37, r: 15 },
  '27': { t: 36, r: 12, anchor: '28' }, '28': { t: 36, r: 13, anchor: '13' }, '29': { t: 36, r: 14 }, '30': { t: 36, r: 15 },
  '31': { t: 35, r: 13, anchor: '32' }, '32': { t: 35, r: 14 }, '33': { t: 35, r: 15 },
};

/** T42N is offset east of the rows below it (a survey correction line), so it has its own column lines. */
const colGroup = (t: number) => (t === 42 ? 'north' : 'main');

type Town = { code: string; name: string; geom: AreaGeometry; bbox: BBox };

/** Estimates the survey lines: lat of each row's south/north side, lon of each column's west/east side per group. */
function gridLines(towns: Map<string, Town>) {
  const rowS = new Map<number, number[]>(), rowN = new Map<number, number[]>();
  const colW = new Map<string, number[]>(), colE = new Map<string, number[]>();
  const push = <K>(m: Map<K, number[]>, k: K, v: number) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);
  for (const cell of Object.values(PIN_AREA_GRID)) {
    const b = cell.anchor ? towns.get(cell.anchor)?.bbox : undefined;
    if (!b) continue;
    const irr = new Set(cell.irregular ?? []);
    // a side shared by two rows/columns counts for both: row t's south line is row t-1's north line
    if (!irr.has('S')) { push(rowS, cell.t, b[1]); push(rowN, cell.t - 1, b[1]); }
    if (!irr.has('N')) { push(rowN, cell.t, b[3]); push(rowS, cell.t + 1, b[3]); }
    // range lines drift east going south (survey corrections), so each row keeps its own evidence too
    for (const g of [colGroup(cell.t), `T${cell.t}`]) {
      if (!irr.has('W')) { push(colW, `${g}|${cell.r}`, b[0]); push(colE, `${g}|${cell.r - 1}`, b[0]); }
      if (!irr.has('E')) { push(colE, `${g}|${cell.r}`, b[2]); push(colW, `${g}|${cell.r + 1}`, b[2]); }
    }
  }
  return { rowS, rowN, colW, colE };
}

/** Cell rectangle of every PIN area; sides with no anchor evidence are extrapolated by the median cell size. */
function cellBoxes(towns: Map<string, Town>): Map<string, BBox> {
  const { rowS, rowN, colW, colE } = gridLines(towns);
  const heights = [...rowN.keys()].filter((t) => rowS.has(t)).map((t) => median(rowN.get(t)!) - median(rowS.get(t)!));
  const cellH = median(heights);
  const out = new Map<string, BBox>();
  for (const [area, c] of Object.entries(PIN_AREA_GRID)) {
    const g = colGroup(c.t);
    const widths = [...colE.keys()].filter((k) => k.startsWith(`${g}|`) && colW.has(k)).map((k) => median(colE.get(k)!) - median(colW.get(k)!));
    const cellW = median(widths);
    const line = (m: Map<string, number[]>) => m.get(`T${c.t}|${c.r}`) ?? m.get(`${g}|${c.r}`);
    const westEv = line(colW), eastEv = line(colE);
    const west = westEv ? median(westEv) : westFromLeft(colE, g, c.r, cellW);
    const east = eastEv ? median(eastEv) : west + cellW;
    const south = rowS.has(c.t) ? median(rowS.get(c.t)!) : median(rowN.get(c.t)!) - cellH;
    const north = rowN.has(c.t) ? median(rowN.get(c.t)!) : south + cellH;
    out.set(area, [west, south, east, north]);
  }
  return out;
}

/** West side of a column with no anchor of its own: the nearest known east line to its left, stepped by cell width. */
function westFromLeft(colE: Map<string, number[]>, g: string, r: number, cellW: number): number {
  for (let k = r - 1; k >= 0; k--) if (colE.has(`${g}|${k}`)) return median(colE.get(`${g}|${k}`)!) + (r - 1 - k) * cellW;
  throw new Error(`no column evidence left of R${r}E`);
}

function nearestArea(lon: number, lat: number, boxes: Map<string, BBox>): string {
  let best = '', bestD = Infinity;
  for (const [area, b] of boxes) {
    const dx = Math.max(b[0] - lon, 0, lon - b[2]), dy = Math.max(b[1] - lat, 0, lat - b[3]);
    const d = dx * dx + dy * dy;
    if (d < bestD) { bestD = d; best = area; }
  }
  return best;
}

export type PinAreaStats = { latticePoints: number; areas: number; rows: number; anchorsNotDominant: string[] };

/** Samples Cook on a lattice, assigns each point to a PIN-area cell and a township, and writes the crosswalk CSV. */
export function derivePinAreaTownships(rawDir: string): { text: string; stats: PinAreaStats } {
  const towns = new Map<string, Town>();
  for (const f of readRawFeatures(join(rawDir, 'ccao-ccao', 'town_shp.geojson'))) {
    const geom: AreaGeometry = { type: 'MultiPolygon', coordinates: rawPolygons(f) };
    const code = codeString(f.properties.township_code as string | number, 'township_code');
    towns.set(code, { code, name: String(f.properties.township_name), geom, bbox: bboxOf(geom) });
  }
  const boxes = cellBoxes(towns);
  const step = REFERENCE_DERIVATION.v.pin_area_lattice_step_deg;
  const all = [...towns.values()];
  const acc = new Map<string, { n: number; sumLat: number; sumLon: number }>();
  const areaN = new Map<string, number>();
  let latticePoints = 0;
  // integer loop counters keep the lattice identical on every run and platform
  for (let i = Math.floor(41.4 / step); i * step <= 42.2; i++) {
    for (let j = Math.floor(-88.3 / step); j * step <= -87.5; j++) {
      const lat = i * step, lon = j * step;
      const town = all.find((t) => inBBox(lon, lat, t.bbox) && pointInPolygon(lon, lat, t.geom));
      if (!town) continue;
      latticePoints++;
      const area = [...boxes].find(([, b]) => inBBox(lon, lat, b))?.[0] ?? nearestArea(lon, lat, boxes);
      const key = `${area}|${town.code}`;
      const a = acc.get(key) ?? { n: 0, sumLat: 0, sumLon: 0 };
      a.n++; a.sumLat += lat; a.sumLon += lon;
      acc.set(key, a);
      areaN.set(area, (areaN.get(area) ?? 0) + 1);
    }
  }
  return buildCrosswalk(acc, areaN, towns, latticePoints);
}

function buildCrosswalk(acc: Map<string, { n: number; sumLat: number; sumLon: number }>, areaN: Map<string, number>, towns: Map<string, Town>, latticePoints: number) {
  const minShare = REFERENCE_DERIVATION.v.pin_area_min_share;
  const dec = REFERENCE_DERIVATION.v.coord_decimals;
  const rows: Array<{ area: string; code: string; n: number; lat: number; lon: number }> = [];
  for (const [key, a] of acc) {
    const [area, code] = key.split('|');
    if (a.n / areaN.get(area)! >= minShare) rows.push({ area, code, n: a.n, lat: a.sumLat / a.n, lon: a.sumLon / a.n });
  }
  rows.sort((x, y) => x.area.localeCompare(y.area) || y.n - x.n || x.code.localeCompare(y.code));
  const anchorsNotDominant = Object.entries(PIN_AREA_GRID)
    .filter(([area, c]) => c.anchor && rows.find((r) => r.area === area)?.code !== c.anchor)
    .map(([area]) => area);
  const text = formatCsv(['pin_area', 'township_code', 'township_name', 'lat', 'lon', 'method'], rows.map((r) => [
    r.area, r.code, towns.get(r.code)!.name, fmtNum(r.lat, dec), fmtNum(r.lon, dec),
    PIN_AREA_GRID[r.area]?.anchor ? 'plss_grid_anchored' : 'plss_grid_interpolated',
  ]));
  return { text, stats: { latticePoints, areas: new Set(rows.map((r) => r.area)).size, rows: rows.length, anchorsNotDominant } };
}
