// Small planar geometry helpers over GeoJSON lon/lat coordinates: point-in-polygon (with holes), bounding boxes,
// and great-circle distance. Pure functions, no I/O; other modules reuse these signatures.

export type Position = [number, number];
export type PolygonCoords = Position[][];
export type PolygonGeometry = { type: 'Polygon'; coordinates: PolygonCoords };
export type MultiPolygonGeometry = { type: 'MultiPolygon'; coordinates: PolygonCoords[] };
export type AreaGeometry = PolygonGeometry | MultiPolygonGeometry;

/** [minLon, minLat, maxLon, maxLat] */
export type BBox = [number, number, number, number];

/** Mean Earth radius in statute miles (IUGG mean radius 6371.0088 km / 1.609344). */
export const EARTH_RADIUS_MI = 3958.8;
/** Miles per degree of latitude on that sphere: the same Earth haversineMi measures, so a bbox pre-test agrees with it. */
export const MI_PER_DEG_LAT = (Math.PI * EARTH_RADIUS_MI) / 180;

function polygonsOf(geometry: AreaGeometry): PolygonCoords[] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** Even-odd ray casting on one ring; a point exactly on an edge may fall either way. */
function inRing(lon: number, lat: number, ring: Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    // indexed reads, not `const [x, y] = …`: destructuring runs the array iterator (an allocation per vertex)
    const xi = ring[i][0], yi = ring[i][1];
    const xj = ring[j][0], yj = ring[j][1];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * True when (lon, lat) lies inside the Polygon or MultiPolygon: inside a polygon's outer ring (the first) and
 * outside all its holes (the following rings). Planar test in degrees, fine at county scale.
 */
export function pointInPolygon(lon: number, lat: number, geometry: AreaGeometry): boolean {
  for (const poly of polygonsOf(geometry)) {
    if (poly.length === 0 || !inRing(lon, lat, poly[0])) continue;
    let inHole = false;
    for (let h = 1; h < poly.length && !inHole; h++) inHole = inRing(lon, lat, poly[h]);
    if (!inHole) return true;
  }
  return false;
}

/** Bounding box of every vertex of the geometry; throws on an empty geometry. */
export function bboxOf(geometry: AreaGeometry): BBox {
  let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
  for (const poly of polygonsOf(geometry)) {
    for (const ring of poly) {
      for (const [lon, lat] of ring) {
        if (lon < minLon) minLon = lon;
        if (lon > maxLon) maxLon = lon;
        if (lat < minLat) minLat = lat;
        if (lat > maxLat) maxLat = lat;
      }
    }
  }
  if (minLon === Infinity) throw new Error('bboxOf: geometry has no vertices');
  return [minLon, minLat, maxLon, maxLat];
}

/** True when the point lies inside or on the bounding box. */
export function inBBox(lon: number, lat: number, b: BBox): boolean {
  return lon >= b[0] && lon <= b[2] && lat >= b[1] && lat <= b[3];
}

/** Great-circle distance in miles by the haversine formula, Earth radius 3958.8 mi. Inputs in degrees. */
export function haversineMi(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return haversineWithCos(lat1, lon1, Math.cos(lat1 * RAD), lat2, lon2);
}

/**
 * haversineMi from one point to many (a subject's rejected candidates): cos(lat1) computed once, the same arithmetic
 * in the same order, so the same distances to the last bit.
 */
export function haversineFrom(lat1: number, lon1: number): (lat2: number, lon2: number) => number {
  const cos1 = Math.cos(lat1 * RAD);
  return (lat2, lon2) => haversineWithCos(lat1, lon1, cos1, lat2, lon2);
}

const RAD = Math.PI / 180;

function haversineWithCos(lat1: number, lon1: number, cos1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + cos1 * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MI * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Half-extents in degrees (dLat, dLon) of a box around latitude `lat0` beyond which haversineMi from (lat0, ·) is
 * always > radiusMi, so a scan can skip a point without trigonometry when |Δlat| > dLat or |Δlon| > dLon, and still
 * decide every other point with haversineMi itself. Why it holds: haversineMi ≥ R·|Δφ| (its first term alone), and
 * ≥ 2R·c·sin(|Δλ|/2) ≥ R·c·|Δλ|·(1 − Δλ²/24) with c the least cosine of a latitude within dLat of lat0 (both points
 * lie in that band once the latitude test passed); the 1e-9 margin dwarfs the formula's rounding. dLon is Infinity
 * where that bound is not used (|Δλ| beyond 0.02 rad, or a band reaching the poles).
 */
export function haversineSkipBox(lat0: number, radiusMi: number): { dLat: number; dLon: number } {
  const r = (radiusMi * (1 + 1e-9)) / EARTH_RADIUS_MI;
  const dLat = (r * 180) / Math.PI;
  const edge = Math.abs(lat0) + dLat;
  if (!(edge < 89)) return { dLat, dLon: Infinity };
  const dLonRad = r / (Math.cos((edge * Math.PI) / 180) * (1 - 2e-5));
  return { dLat, dLon: dLonRad > 0.02 ? Infinity : (dLonRad * 180) / Math.PI };
}
