// The synthetic parcel table (typed arrays, so the county scale stays small in memory): every parcel's tract, point,
// building facts, base condition, flip flag and PIN parts. Points are checked to fall in their own tract only.
import { GENERATOR } from '../../registry/groups/generator.js';
import { PT_CONDO, REGION_CHICAGO, REGION_LAKE, REGION_SUBURB, drawBuilding, drawPtype, type Building } from './buildings.js';
import { areaDeg2 } from './geometry.js';
import type { TractLocator } from '../../store/tract-locator.js';
import { bboxOf, type BBox } from '../../reference/geo.js';
import { apportion, type Rng } from './rng.js';
import { COND_DISTRESSED, COND_NEW } from './surface.js';
import type { GenTract } from './tracts.js';
import { PinAllocator } from './pins.js';
import { drawQuality } from './noise.js';
import type { MicroLocationField } from './micro-location.js';

const G = GENERATOR.v;
const MAX_POINT_TRIES = 2000;

export class ParcelTable {
  n = 0;
  readonly tract: Uint16Array; readonly lat: Float64Array; readonly lon: Float64Array;
  readonly ptype: Uint8Array; readonly units: Uint8Array; readonly sqft: Uint16Array; readonly beds: Uint8Array;
  readonly yearBuilt: Uint16Array; readonly stories: Uint8Array; readonly cls: Uint16Array;
  /** Base condition index (0 distressed .. 3 new); flips start distressed. */
  readonly cond: Uint8Array;
  readonly flip: Uint8Array;
  /** Repair scope multiplier (median 1) on the $/sqft cost of the parcel's condition; 1 until drawRepairScopes runs. */
  readonly repairScope: Float64Array;
  /** Unobserved quality (ln points) in the true value; 0 until drawQualities runs. */
  readonly quality: Float64Array;
  /** PIN text of each parcel (Cook 14 digits, Lake 10 digits). */
  readonly pin: string[];

  constructor(readonly capacity: number) {
    this.tract = new Uint16Array(capacity); this.lat = new Float64Array(capacity); this.lon = new Float64Array(capacity);
    this.ptype = new Uint8Array(capacity); this.units = new Uint8Array(capacity); this.sqft = new Uint16Array(capacity);
    this.beds = new Uint8Array(capacity); this.yearBuilt = new Uint16Array(capacity); this.stories = new Uint8Array(capacity);
    this.cls = new Uint16Array(capacity); this.cond = new Uint8Array(capacity); this.flip = new Uint8Array(capacity);
    this.repairScope = new Float64Array(capacity).fill(1);
    this.quality = new Float64Array(capacity);
    this.pin = new Array<string>(capacity);
  }

  push(tractIdx: number, lon: number, lat: number, b: Building, flip: boolean, pin: string): void {
    const i = this.n++;
    this.tract[i] = tractIdx; this.lon[i] = lon; this.lat[i] = lat;
    this.ptype[i] = b.ptype; this.units[i] = b.units; this.sqft[i] = b.sqft; this.beds[i] = b.beds;
    this.yearBuilt[i] = b.yearBuilt; this.stories[i] = b.stories; this.cls[i] = b.cls;
    this.cond[i] = flip ? COND_DISTRESSED : b.cond; this.flip[i] = flip ? 1 : 0; this.pin[i] = pin;
  }
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

type Part = { box: BBox; areaDeg2: number };
const partsCache = new WeakMap<GenTract, Part[]>();

/** Polygon parts of a tract with their boxes, so thin multi-part tracts are sampled part by part. */
function partsOf(t: GenTract): Part[] {
  let parts = partsCache.get(t);
  if (!parts) {
    parts = t.geometry.coordinates.map((poly) => {
      const g = { type: 'Polygon' as const, coordinates: poly };
      return { box: bboxOf(g), areaDeg2: areaDeg2(g) };
    });
    partsCache.set(t, parts);
  }
  return parts;
}

/**
 * A point (rounded to 6 decimals, as written) whose tract is `t`: inside t and inside no tract listed before it.
 * Real neighborhood polygons overlap in thin slivers; there the first tract in file order owns the point (the rule a
 * first-match point-in-polygon lookup applies). Null when t has no such area (a sliver neighborhood covered by another).
 */
function pointInOwnTract(t: GenTract, grid: TractLocator, rng: Rng): [number, number] | null {
  const parts = partsOf(t);
  const weights = parts.map((q) => q.areaDeg2);
  for (let k = 0; k < MAX_POINT_TRIES; k++) {
    const b = parts[rng.pickWeighted(weights)].box;
    const lon = round6(rng.uniform(b[0], b[2])), lat = round6(rng.uniform(b[1], b[3]));
    if (grid.locate(lon, lat) === t.idx) return [lon, lat];
  }
  return null;
}

function regionOf(t: GenTract): number {
  return t.county === 'lake' ? REGION_LAKE : t.isChicago ? REGION_CHICAGO : REGION_SUBURB;
}

/** Parcels of one tract: single buildings, and condo buildings whose units share a point and a lot. */
function fillTract(t: GenTract, count: number, table: ParcelTable, grid: TractLocator, pins: PinAllocator, asOfYear: number, rng: Rng, mix: readonly number[]): void {
  const region = regionOf(t);
  let made = 0;
  while (made < count) {
    const ptype = drawPtype(region, rng);
    const point = pointInOwnTract(t, grid, rng);
    if (point === null) return;
    const [lon, lat] = point;
    const lot = pins.nextLot(t, lon, lat);
    if (ptype !== PT_CONDO) {
      const b = drawBuilding(ptype, region, asOfYear, rng, mix);
      const flip = b.cond !== COND_NEW && rng.chance(G.flip_share_of_parcels);
      table.push(t.idx, lon, lat, b, flip, t.county === 'cook' ? pins.cookPin(lot, 0) : lot);
      made++;
      continue;
    }
    const nUnits = Math.min(rng.int(G.condo_building_units[0], G.condo_building_units[1]), count - made);
    const first = drawBuilding(PT_CONDO, region, asOfYear, rng, mix);
    for (let u = 0; u < nUnits; u++) {
      const b = u === 0 ? first : { ...drawBuilding(PT_CONDO, region, asOfYear, rng, mix), yearBuilt: first.yearBuilt };
      // Units of one building share its age: all are new in a new building, none is in an old one.
      if (u > 0 && (first.cond === COND_NEW || b.cond === COND_NEW)) b.cond = first.cond;
      const pin = t.county === 'cook' ? pins.cookPin(lot, 1001 + u) : u === 0 ? lot : pins.nextLot(t, lon, lat);
      table.push(t.idx, lon, lat, b, false, pin);
      made++;
    }
  }
}

/** Builds every parcel; counts per tract follow the tract weights (real sales activity), Cook/Lake by the Lake share. */
export function buildParcels(
  tracts: readonly GenTract[], grid: TractLocator, total: number, asOfYear: number, rng: Rng,
  onTract?: (done: number, all: number) => void, conditionMixOf: (t: GenTract) => readonly number[] = () => G.condition_mix,
): ParcelTable {
  const lakeTotal = Math.round(total * G.lake_parcel_share);
  const cook = tracts.filter((t) => t.county === 'cook'), lake = tracts.filter((t) => t.county === 'lake');
  const counts = new Map<number, number>();
  apportion(total - lakeTotal, cook.map((t) => t.weight), 1).forEach((c, k) => counts.set(cook[k].idx, c));
  apportion(lakeTotal, lake.map((t) => t.weight), 1).forEach((c, k) => counts.set(lake[k].idx, c));
  const table = new ParcelTable(total);
  const pins = new PinAllocator(tracts);
  tracts.forEach((t, k) => {
    fillTract(t, counts.get(t.idx) as number, table, grid, pins, asOfYear, rng, conditionMixOf(t));
    if (onTract && k % 100 === 0) onTract(k, tracts.length);
  });
  return table;
}

/**
 * Draws every parcel's repair scope multiplier, exp(repair_scope_sd_log × N(0,1)), in parcel order from `rng` (its own
 * stream, so the parcel and sales streams are unchanged by it). Drawn for every parcel, whatever its condition.
 */
export function drawRepairScopes(table: ParcelTable, rng: Rng): void {
  for (let i = 0; i < table.n; i++) table.repairScope[i] = Math.exp(G.repair_scope_sd_log * rng.normal());
}

/**
 * Every parcel's unobserved quality: its own draw in parcel order from `rng` (its own stream) plus the micro-location
 * field at its point (micro-location.ts), which its neighbors share.
 */
export function drawQualities(table: ParcelTable, rng: Rng, field: MicroLocationField): void {
  for (let i = 0; i < table.n; i++) table.quality[i] = drawQuality(rng) + G.micro_location_sd_log * field.at(table.lat[i], table.lon[i]);
}
