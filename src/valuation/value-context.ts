// What one valuation reads, loaded once per process or worker thread: the snapshot's sales columns, the parcel and
// listing data for subject resolution, the time index, the champion's calibration table and the kernel.
import { createHash } from 'node:crypto';
import { createKernel, type Kernel } from '../kernel/index.js';
import { kernelColumnsOf } from './comps/kernel-columns.js';
import type { TimeIndexSeries } from '../kernel/types.js';
import { openModelRegistry } from '../registry/model-registry.js';
import type { Store } from '../store/store.js';
import { buildParcelSalesIndex, type ParcelSalesIndex } from './comps/flip-pairs.js';
import { armsLengthMask, salesColumnsFromArrow, type SalesColumns } from '../store/sales-columns.js';
import { parcelViewFromArrow } from './subject/parcel-view.js';
import type { CalibrationTable } from './decide/segment.js';
import { buildSubjectData, listingLookup, normalizeAddress, type SubjectData } from './subject/subject.js';
import { buildTimeIndex, type TimeIndexBuild } from './comps/time-index.js';
import { estimateUnitsPremium, type UnitsPremium } from './comps/units-stratum.js';
import type { ValuationHooks } from './hooks.js';
import { defaultHooks, hedonicHooks } from './value-hooks.js';

export type ValuationContext = {
  kernel: Kernel;
  sales: SalesColumns;
  parcelSales: ParcelSalesIndex;
  subjects: SubjectData;
  /** GEOIDs with at least one ingested sale (tract_not_ingested otherwise). */
  ingestedTracts: ReadonlySet<string>;
  timeIndex: TimeIndexBuild;
  /** Digest of the time-index series handed to the kernel (inputs hash). */
  timeIndexDigest: string;
  /** 2/3/4-unit comp price adjustment estimated from the snapshot's sales (null/absent: none, factor 1). */
  unitsPremium?: UnitsPremium | null;
  calibration: CalibrationTable | null;
  snapshotId: string;
  /**
   * Digest of `sales` when they are not the snapshot's (salesDigest; the open-data fallback's fetched sales): the
   * inputs hash names comp evidence by row, and these are the rows it names. Absent for the snapshot's own sales.
   */
  compSalesDigest?: string;
  vintages: Record<string, unknown> | null;
  now: () => Date;
  hooks: ValuationHooks;
};

/** Serving cutoff: the day after the snapshot's last sale (every stored sale is in the past of a serving valuation). */
export function servingCutoffDay(sales: SalesColumns): number {
  let max = -Infinity;
  for (let i = 0; i < sales.length; i++) if (sales.saleDay[i] > max) max = sales.saleDay[i];
  return Number.isFinite(max) ? max + 1 : 0;
}

export function seriesDigest(series: readonly TimeIndexSeries[]): string {
  const doc = JSON.stringify(series.map((s) => ({ county: s.county, months: Array.from(s.months), levels: Array.from(s.levels) })));
  return createHash('sha256').update(doc).digest('hex');
}

/**
 * SHA-256 of sales columns that are not a snapshot's: every column in name order (each typed array's bytes, in the host's
 * byte order: little-endian wherever this service runs, as the kernel's ABI assumes), then the PINs and the tract list,
 * each string length-prefixed. Equal columns give equal digests.
 */
export function salesDigest(sales: SalesColumns): string {
  const h = createHash('sha256').update(`rows ${sales.length}\n`);
  const typed = Object.entries(sales).filter(([, v]) => ArrayBuffer.isView(v)).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [name, col] of typed) {
    const v = col as ArrayBufferView;
    h.update(`${name} ${v.byteLength}\n`).update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  }
  const text = (s: string) => h.update(`${Buffer.byteLength(s)}:`).update(s);
  for (let i = 0; i < sales.length; i++) text(sales.pin(i));
  sales.tracts.forEach(text);
  return h.digest('hex');
}

/**
 * `hooks` replaces the default providers (value-hooks.ts); pass {} for Tier-1-only valuations. `snapshotId` pins the
 * snapshot (a given `kernel` must hold exactly that snapshot's rows); default: the current one.
 */
export type ContextOptions = { kernel?: Kernel; snapshotId?: string; now?: () => Date; hooks?: ValuationHooks; calibration?: CalibrationTable | null; hedonicVersion?: string | null };

/** Builds the context from the store's current snapshot; pass `kernel` when one is already loaded (a worker's). */
export function buildValuationContext(store: Store, opts: ContextOptions = {}): ValuationContext {
  const snap = store.readSalesSnapshot(opts.snapshotId);
  const sales = salesColumnsFromArrow(snap.table);
  const arms = armsLengthMask(sales);
  const timeIndex = buildTimeIndex(sales, servingCutoffDay(sales), arms);
  const parcels = parcelViewFromArrow(store.readParcels(snap.id).table, normalizeAddress);
  const ingested = new Set<string>();
  for (let i = 0; i < sales.length; i++) if (sales.tractIdx[i] < sales.tracts.length) ingested.add(sales.tracts[sales.tractIdx[i]]);
  return {
    kernel: opts.kernel ?? createKernel(kernelColumnsOf(sales), timeIndex.series),
    sales,
    parcelSales: buildParcelSalesIndex(sales, arms),
    subjects: buildSubjectData(store.getTracts(), parcels, store.getListings()),
    ingestedTracts: ingested,
    timeIndex,
    timeIndexDigest: seriesDigest(timeIndex.series),
    unitsPremium: estimateUnitsPremium(sales, servingCutoffDay(sales), arms),
    calibration: opts.calibration !== undefined ? opts.calibration : openModelRegistry(store).championTable(),
    snapshotId: snap.id,
    vintages: { sales_snapshot: snap.id, corpus: store.corpusVintage() },
    now: opts.now ?? (() => new Date()),
    hooks: opts.hooks ?? defaultHooks(store, sales, timeIndex.series, opts.hedonicVersion, arms),
  };
}

/** The same context serving Tier-2 from hedonic model `version` (null: none); everything else shared. */
export function withHedonicModel(ctx: ValuationContext, store: Store, version: string | null): ValuationContext {
  const { tier2: _t, modelValue: _m, ...rest } = ctx.hooks;
  return { ...ctx, hooks: { ...rest, ...hedonicHooks(store, version) } };
}

/** The same context resolving subjects against `listings` (after a listings run stored new rows). */
export function withListings(ctx: ValuationContext, listings: ValuationContext['subjects']['listings']): ValuationContext {
  return { ...ctx, subjects: { ...ctx.subjects, ...listingLookup(listings) } };
}
