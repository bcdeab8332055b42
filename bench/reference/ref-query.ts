// Reference comp query (same definitions and operation order as crates/avm-kernel/src/{query,select}.rs): gather over
// the grid, screens and bands, time index, GLA adjustment, MAD trim, similarity, ladder, ranking, statistics.
import type { KernelParams } from '../../src/kernel/params.js';
import { conditionBit } from '../../src/kernel/params.js';
import type { CompsResult, QueryOptions, Subject } from '../../src/kernel/types.js';
import { REJECTION_REASONS } from '../../src/store/columns.js';
import { R, sortKey, type RefIndex } from './ref-index.js';
import { BOX_SLACK, DEG_TO_RAD, EARTH_RADIUS_MI, factorFromLevels, havOfMi, havToMi, lonHalfWidth, medianMad, median, summarize, type LevelOf } from './ref-math.js';

type Comp = { ix: number; row: number; hav: number; distMi: number; indexFactor: number; indexedPrice: number; glaAdj: number; adjustedPrice: number; similarity: number; saleDay: number };
type Step = { step: number; radiusMi: number; windowDays: number; qualified: Comp[]; rejected: Array<[number, number]> };

const cellOf = (v: number, origin: number, size: number): number => Math.floor((v - origin) / size);

function axisRange(v: number, half: number, origin: number, size: number, n: number): [number, number] | null {
  const lo = Math.max(cellOf(v - half, origin, size), 0);
  const hi = Math.min(cellOf(v + half, origin, size), n - 1);
  return n === 0 || lo > hi ? null : [lo, hi];
}

function lowerBound(a: Float64Array, from: number, to: number, below: number): number {
  let [lo, hi] = [from, to];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < below) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function classify(ix: RefIndex, p: KernelParams, s: Subject, b: Step, i: number, h: number): void {
  let reason: number = ix.screen[i];
  const sqft = s.sqft ?? NaN;
  if (reason === R.none && !Number.isNaN(sqft)) {
    const sq = ix.sqft[i];
    if (Number.isNaN(sq) || Math.abs(sq - sqft) > p.glaBandFrac * sqft) reason = R.gla;
  }
  const beds = s.beds ?? -1;
  if (reason === R.none && beds >= 0 && ix.beds[i] >= 0 && Math.abs(ix.beds[i] - beds) > p.bedsBand) reason = R.beds;
  if (reason === R.none) b.qualified.push({ ix: i, row: ix.row[i], hav: h, distMi: 0, indexFactor: 1, indexedPrice: 0, glaAdj: NaN, adjustedPrice: 0, similarity: 0, saleDay: 0 });
  else b.rejected.push([ix.row[i], reason]);
}

type Probe = { slat: number; slon: number; scos: number; sx: number; sy: number; sz: number; hMax: number; latBox: number; lonBox: number; dayLo: number };

function consider(ix: RefIndex, p: KernelParams, s: Subject, b: Step, q: Probe, i: number): void {
  if (ix.county[i] !== s.county || (s.excludeParcelIdx != null && s.excludeParcelIdx === ix.parcelIdx[i])) return;
  // hav θ = |p − q|² / 4 from unit vectors (same operation order as geo.rs hav_chord).
  const [dx, dy, dz] = [ix.ux[i] - q.sx, ix.uy[i] - q.sy, ix.uz[i] - q.sz];
  const h = (dx * dx + dy * dy + dz * dz) * 0.25;
  if (h <= q.hMax) classify(ix, p, s, b, i, h);
}

/** Rows c0..c1 of the subject's ptype with the condition(s) of stratum bit `bit` in the date window. */
function scanRun(ix: RefIndex, p: KernelParams, s: Subject, b: Step, q: Probe, c0: number, c1: number, bit: number): void {
  const [kLo, kHi] = bit < 7 ? [sortKey(s.ptype, bit, q.dayLo), sortKey(s.ptype, bit, s.asOfDay)] : [sortKey(s.ptype, 7, -Infinity), sortKey(s.ptype, 255, Infinity) + 1];
  const [lo, hi] = [lowerBound(ix.key, c0, c1, kLo), lowerBound(ix.key, c0, c1, kHi)];
  for (let i = lo; i < hi; i++) {
    if (bit === 7 && (ix.saleDay[i] < q.dayLo || ix.saleDay[i] >= s.asOfDay)) continue;
    consider(ix, p, s, b, q, i);
  }
}

/** The oracle path: every row, every condition checked directly. */
function scanAll(ix: RefIndex, p: KernelParams, s: Subject, b: Step, q: Probe): void {
  for (let i = 0; i < ix.row.length; i++) {
    if (ix.ptype[i] !== s.ptype || (conditionBit(ix.condition[i]) & s.stratumMask) === 0) continue;
    if (ix.saleDay[i] < s.asOfDay - b.windowDays || ix.saleDay[i] >= s.asOfDay) continue;
    consider(ix, p, s, b, q, i);
  }
}

function gather(ix: RefIndex, p: KernelParams, s: Subject, b: Step): void {
  const [slat, slon] = [s.lat * DEG_TO_RAD, s.lon * DEG_TO_RAD];
  const scos = Math.cos(slat);
  const q: Probe = {
    slat, slon, scos, sx: scos * Math.cos(slon), sy: scos * Math.sin(slon), sz: Math.sin(slat), hMax: havOfMi(b.radiusMi),
    latBox: (b.radiusMi / EARTH_RADIUS_MI) * (1 + BOX_SLACK), lonBox: lonHalfWidth(b.radiusMi, slat) * (1 + BOX_SLACK),
    dayLo: Math.ceil(s.asOfDay - b.windowDays),
  };
  if (ix.bruteForce) return scanAll(ix, p, s, b, q);
  const ys = axisRange(slat, q.latBox, ix.lat0, ix.cellLat, ix.ny);
  const xs = axisRange(slon, q.lonBox, ix.lon0, ix.cellLon, ix.nx);
  if (!ys || !xs) return;
  for (let cy = ys[0]; cy <= ys[1]; cy++) {
    for (let cx = xs[0]; cx <= xs[1]; cx++) {
      const [c0, c1] = [ix.cellStart[cy * ix.nx + cx], ix.cellStart[cy * ix.nx + cx + 1]];
      for (let bit = 0; bit < 8; bit++) if (s.stratumMask & (1 << bit)) scanRun(ix, p, s, b, q, c0, c1, bit);
    }
  }
}

function price(ix: RefIndex, levelOf: LevelOf, p: KernelParams, s: Subject, b: Step): void {
  const ppsf: number[] = [];
  const now = levelOf(s.county, s.asOfDay);
  const lnNow = Math.log(now);
  for (const c of b.qualified) {
    c.distMi = havToMi(c.hav);
    c.saleDay = ix.saleDay[c.ix];
    c.indexFactor = factorFromLevels(p, now, lnNow, ix.level[c.ix], ix.lnLevel[c.ix], c.saleDay, s.asOfDay);
    c.indexedPrice = ix.priceUsd[c.ix] * c.indexFactor;
    if (!Number.isNaN(ix.sqft[c.ix])) ppsf.push(c.indexedPrice / ix.sqft[c.ix]);
  }
  const sqft = s.sqft ?? NaN;
  const marginal = !Number.isNaN(sqft) && ppsf.length > 0 ? p.glaMarginalFrac * median(ppsf) : NaN;
  for (const c of b.qualified) {
    const sq = ix.sqft[c.ix];
    if (Number.isNaN(marginal) || Number.isNaN(sq)) {
      c.adjustedPrice = c.indexedPrice;
      continue;
    }
    const cap = p.glaAdjCapFrac * c.indexedPrice;
    c.glaAdj = Math.min(Math.max(marginal * (sqft - sq), -cap), cap);
    c.adjustedPrice = c.indexedPrice + c.glaAdj;
  }
}

function trim(ix: RefIndex, p: KernelParams, b: Step): void {
  if (b.qualified.length === 0) return;
  const x = (c: Comp): number => Math.log(c.adjustedPrice / ix.sqft[c.ix]);
  const [med, mad] = medianMad(b.qualified.map(x));
  if (mad === 0) return;
  const limit = p.madTrimK * p.madScale * mad;
  b.qualified = b.qualified.filter((c) => {
    const keep = Math.abs(x(c) - med) <= limit;
    if (!keep) b.rejected.push([c.row, R.mad]);
    return keep;
  });
}

const unit = (v: number): number => Math.min(Math.max(v, 0), 1);

function similarity(ix: RefIndex, p: KernelParams, s: Subject, b: Step, c: Comp): number {
  const w = p.similarityWeights;
  const sqft = s.sqft ?? NaN;
  const beds = s.beds ?? -1;
  const sDist = unit(1 - c.distMi / b.radiusMi);
  const sTime = unit(1 - (s.asOfDay - c.saleDay) / b.windowDays);
  const sGla = !Number.isNaN(sqft) && !Number.isNaN(ix.sqft[c.ix]) ? 1 - Math.min(Math.abs(ix.sqft[c.ix] - sqft) / (p.glaBandFrac * sqft), 1) : 0.5;
  const sBeds = beds >= 0 && ix.beds[c.ix] >= 0 ? 1 - Math.min(Math.abs(ix.beds[c.ix] - beds) / (p.bedsBand + 1), 1) : 0.5;
  return (w[0] * sDist + w[1] * sTime + w[2] * sGla + w[3] * sBeds) / (w[0] + w[1] + w[2] + w[3]);
}

const rankCmp = (a: Comp, b: Comp): number => b.similarity - a.similarity || a.distMi - b.distMi || b.saleDay - a.saleDay || a.row - b.row;

function runStep(ix: RefIndex, levelOf: LevelOf, p: KernelParams, s: Subject, b: Step): Step {
  gather(ix, p, s, b);
  price(ix, levelOf, p, s, b);
  if (s.sqft != null) trim(ix, p, b);
  for (const c of b.qualified) c.similarity = similarity(ix, p, s, b, c);
  return b;
}

/** The reference query; same result shape as Kernel.queryComps. */
export function refQuery(ix: RefIndex, levelOf: LevelOf, p: KernelParams, s: Subject, opts: QueryOptions = {}): CompsResult {
  const steps = opts.override ? [[0, opts.override.radiusMi, opts.override.windowDays]] : Array.from({ length: opts.maxStep ?? 3 }, (_, k) => [k + 1, p.ladderRadiusMi[k], p.ladderWindowDays[k]]);
  let best: Step | null = null;
  for (const [step, radiusMi, windowDays] of steps) {
    const cur = runStep(ix, levelOf, p, s, { step, radiusMi, windowDays, qualified: [], rejected: [] });
    const enough = cur.qualified.length >= p.ladderEnough;
    if (enough || !best || cur.qualified.length > best.qualified.length) best = cur;
    if (enough) break;
  }
  const b = best as Step;
  b.qualified.sort(rankCmp);
  const sel = b.qualified.slice(0, p.maxComps);
  const st = summarize(sel.map((c) => c.adjustedPrice), p.madScale);
  const nn = (v: number): number | null => (Number.isNaN(v) ? null : v);
  return {
    step: b.step,
    nQualified: b.qualified.length,
    accepted: sel.map((c) => ({ row: c.row, distMi: c.distMi, indexFactor: c.indexFactor, indexedPrice: c.indexedPrice, glaAdj: nn(c.glaAdj), adjustedPrice: c.adjustedPrice, similarity: c.similarity })),
    rejected: b.rejected.sort((a, c) => a[0] - c[0]).map(([row, r]) => ({ row, reason: REJECTION_REASONS[r] })),
    stats: { n: st.n, median: nn(st.median), q25: nn(st.q25), q75: nn(st.q75), fsd: nn(st.fsd) },
  };
}
