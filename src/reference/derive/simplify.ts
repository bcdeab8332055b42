// Build-time polygon simplification: Douglas-Peucker per ring, rounding to a fixed grid, and an exact validity check
// on the integer grid (closed rings, >= 4 positions, no self-touching, rings of one polygon never cross).
import type { Position, PolygonCoords } from '../geo.js';

type IntPt = [number, number];

function perpDist2(p: Position, a: Position, b: Position): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  const ex = p[0] - (a[0] + t * dx), ey = p[1] - (a[1] + t * dy);
  return ex * ex + ey * ey;
}

/** Marks the kept vertices of the open path pts[lo..hi] (iterative, so deep rings cannot overflow the stack). */
function markDp(pts: Position[], lo: number, hi: number, tol2: number, keep: Uint8Array): void {
  const stack: Array<[number, number]> = [[lo, hi]];
  keep[lo] = 1; keep[hi] = 1;
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    let best = -1, bestD = tol2;
    for (let i = a + 1; i < b; i++) {
      const d = perpDist2(pts[i], pts[a], pts[b]);
      if (d > bestD) { bestD = d; best = i; }
    }
    if (best >= 0) { keep[best] = 1; stack.push([a, best], [best, b]); }
  }
}

/**
 * Douglas-Peucker on a closed ring: split at vertex 0 and the vertex farthest from it, simplify both halves.
 * Returns an open ring (no repeated closing vertex).
 */
export function simplifyRing(ring: Position[], tolDeg: number): Position[] {
  const open = ring.slice(0, ring.length - 1);
  if (open.length <= 3 || tolDeg <= 0) return open;
  let far = 1, farD = -1;
  for (let i = 1; i < open.length; i++) {
    const d = (open[i][0] - open[0][0]) ** 2 + (open[i][1] - open[0][1]) ** 2;
    if (d > farD) { farD = d; far = i; }
  }
  const pts = [...open, open[0]];
  const keep = new Uint8Array(pts.length);
  markDp(pts, 0, far, tolDeg * tolDeg, keep);
  markDp(pts, far, pts.length - 1, tolDeg * tolDeg, keep);
  return open.filter((_, i) => keep[i] === 1);
}

/** Rounds an open ring onto the 10^-decimals grid (as integers) and drops consecutive duplicates. */
export function toIntRing(open: Position[], decimals: number): IntPt[] {
  const s = 10 ** decimals;
  const out: IntPt[] = [];
  for (const [x, y] of open) {
    const p: IntPt = [Math.round(x * s), Math.round(y * s)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  while (out.length > 1 && out[0][0] === out[out.length - 1][0] && out[0][1] === out[out.length - 1][1]) out.pop();
  return out;
}

function orient(a: IntPt, b: IntPt, c: IntPt): number {
  return Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
}
function onSeg(a: IntPt, b: IntPt, p: IntPt): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}
/** Exact on integers: do closed segments ab and cd share any point? */
function segsTouch(a: IntPt, b: IntPt, c: IntPt, d: IntPt): boolean {
  const o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSeg(a, b, c)) || (o2 === 0 && onSeg(a, b, d)) || (o3 === 0 && onSeg(c, d, a)) || (o4 === 0 && onSeg(c, d, b));
}

function ringArea2(r: IntPt[]): number {
  let s = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) s += (r[j][0] - r[i][0]) * (r[j][1] + r[i][1]);
  return s;
}

/** A ring is simple when no vertex is a zero-width spike, no two non-adjacent edges touch, and its area is non-zero. */
export function isSimpleRing(r: IntPt[]): boolean {
  const n = r.length;
  if (n < 3 || ringArea2(r) === 0) return false;
  for (let i = 0; i < n; i++) {
    const p = r[(i + n - 1) % n], v = r[i], nx = r[(i + 1) % n];
    const dot = (p[0] - v[0]) * (nx[0] - v[0]) + (p[1] - v[1]) * (nx[1] - v[1]);
    if (orient(p, v, nx) === 0 && dot > 0) return false;
  }
  for (let i = 0; i < n; i++) {
    const a = r[i], b = r[(i + 1) % n];
    const last = i === 0 ? n - 2 : n - 1; // edge n-1 is adjacent to edge 0
    for (let j = i + 2; j <= last; j++) {
      if (segsTouch(a, b, r[j], r[(j + 1) % n])) return false;
    }
  }
  return true;
}

/** Two rings of one polygon may meet at a vertex but must not cross: flag proper crossings only. */
function ringsCross(p: IntPt[], q: IntPt[]): boolean {
  for (let i = 0; i < p.length; i++) {
    const a = p[i], b = p[(i + 1) % p.length];
    for (let j = 0; j < q.length; j++) {
      const c = q[j], d = q[(j + 1) % q.length];
      const o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
      if (o1 * o2 < 0 && o3 * o4 < 0) return true;
    }
  }
  return false;
}

/** Valid polygon on the integer grid: every ring simple with >= 3 distinct vertices, no two rings crossing. */
export function isValidIntPolygon(rings: IntPt[][]): boolean {
  if (rings.length === 0 || !rings.every(isSimpleRing)) return false;
  for (let i = 0; i < rings.length; i++) for (let j = i + 1; j < rings.length; j++) if (ringsCross(rings[i], rings[j])) return false;
  return true;
}

function closeAndScale(r: IntPt[], decimals: number): Position[] {
  const s = 10 ** decimals;
  const pts = r.map(([x, y]) => [x / s, y / s] as Position);
  return [...pts, pts[0]];
}

/** Tolerances tried in order: the target, then finer (fidelity first), unsimplified, then coarser as a last resort. */
export function toleranceLadder(tolDeg: number, halvings: number): number[] {
  const finer = Array.from({ length: halvings + 1 }, (_, k) => tolDeg / 2 ** k);
  return [...finer, 0, tolDeg * 2, tolDeg * 4];
}

/**
 * Simplifies one polygon (outer ring + holes) at the first tolerance of the ladder whose rounded result is valid.
 * Rounding to a 1e-5 grid can pinch a narrow neck into a self-touch that no finer tolerance avoids, which is why
 * coarser steps close the ladder. Returns null when no step gives a valid polygon.
 */
export function simplifyPolygon(poly: PolygonCoords, tolDeg: number, decimals: number, halvings: number): { coords: PolygonCoords; tolUsedDeg: number } | null {
  for (const tol of toleranceLadder(tolDeg, halvings)) {
    const rings = poly.map((ring) => toIntRing(simplifyRing(ring, tol), decimals));
    if (isValidIntPolygon(rings)) return { coords: rings.map((r) => closeAndScale(r, decimals)), tolUsedDeg: tol };
  }
  return null;
}

/** True when the outer ring collapses to under 3 distinct grid points or zero area: a sliver below the grid. */
export function collapsesOnGrid(poly: PolygonCoords, decimals: number): boolean {
  const r = toIntRing(poly[0].slice(0, poly[0].length - 1), decimals);
  return r.length < 3 || ringArea2(r) === 0;
}
