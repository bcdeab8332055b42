// Helpers for the generator tests: read a generated CSV or GeoJSON, and check polygon validity independently of the
// generator's own geometry code.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../../../src/reference/csv.js';
import type { Position } from '../../../src/reference/geo.js';

export const readCsv = (path: string): Record<string, string>[] => parseCsv(readFileSync(path, 'utf8'));
export const headerOf = (path: string): string[] => readFileSync(path, 'utf8').split('\n', 1)[0].split(',');

export type TractFeature = {
  properties: { GEOID: string; COUNTYFP: string; NAMELSAD: string; muni: string; vintage: string };
  geometry: { type: 'MultiPolygon'; coordinates: Position[][][] };
};
export const readTracts = (rawDir: string): TractFeature[] => JSON.parse(readFileSync(join(rawDir, 'tracts.geojson'), 'utf8')).features;

/** sha256 of every file under a folder (one level of subfolders), keyed by relative path. */
export function digestTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const sub of readdirSync(dir)) {
    for (const f of readdirSync(join(dir, sub))) out[`${sub}/${f}`] = createHash('sha256').update(readFileSync(join(dir, sub, f))).digest('hex');
  }
  return out;
}

function orient(a: Position, b: Position, c: Position): number {
  return Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
}

/** Segments ab and cd cross at a point interior to both (touching at shared endpoints is allowed). */
function properCross(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  return o1 * o2 < 0 && o3 * o4 < 0;
}

/** A ring is closed, has at least 4 positions, non-zero area and no two non-adjacent edges crossing. */
export function ringProblem(ring: Position[]): string | null {
  if (ring.length < 4) return 'fewer than 4 positions';
  const [f, l] = [ring[0], ring[ring.length - 1]];
  if (f[0] !== l[0] || f[1] !== l[1]) return 'not closed';
  if (ring.some((p) => !Number.isFinite(p[0]) || !Number.isFinite(p[1]))) return 'non-finite coordinate';
  let area = 0;
  for (let i = 0; i + 1 < ring.length; i++) area += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  if (area === 0) return 'zero area';
  const n = ring.length - 1;
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (properCross(ring[i], ring[i + 1], ring[j], ring[j + 1])) return `edges ${i} and ${j} cross`;
    }
  }
  return null;
}

/** Distance in degrees from a point to the nearest edge of any ring of a multipolygon. */
export function distToBoundaryDeg(p: Position, polys: Position[][][]): number {
  let best = Infinity;
  for (const poly of polys) {
    for (const ring of poly) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const [a, b] = [ring[i], ring[i + 1]];
        const dx = b[0] - a[0], dy = b[1] - a[1];
        const len2 = dx * dx + dy * dy;
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
        best = Math.min(best, Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy)));
      }
    }
  }
  return best;
}
