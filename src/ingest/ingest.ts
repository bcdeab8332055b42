// Ingests `<dataDir>/raw/` into the store: every file validated in full and joined in memory first, then one LMDB
// transaction (see store/snapshots.ts). A malformed file throws `ingest_invalid_file` and the store is left untouched.
import { join, relative, resolve } from 'node:path';
import { AppError } from '../errors/app-error.js';
import { GROUND_TRUTH_DIR, RAW_DIR, CCAO_PARCEL_UNIVERSE, CCAO_RES_CHARS, CCAO_SALES, HUD_SAFMR, LAKE_GIS_SALES, LISTINGS, LISTING_HISTORY, TRACTS_GEOJSON } from './layouts.js';
import { loadCcaoSales } from './loaders/ccao-sales.js';
import { loadCcaoChars } from './loaders/ccao-chars.js';
import { loadCcaoUniverse } from './loaders/ccao-universe.js';
import { loadLakeSales } from './loaders/lake-sales.js';
import { loadTracts } from './loaders/tracts.js';
import { loadListingHistory, loadListings, type ListingRecord } from './loaders/listings.js';
import { loadSafmr } from './loaders/safmr.js';
import { buildParcels, indexCookSales, type CookInputs } from './loaders/join-parcels.js';
import { buildSales } from './loaders/join-sales.js';
import { applyInferredConditions } from './condition/apply.js';
import type { ConditionSummary } from './condition/infer.js';
import { assertNotTruthPath, rawFile, type FileStats, type ProgressFn } from './loaders/run.js';
import { encodeParcels, encodeSales } from '../store/arrow-tables.js';
import { commitCorpus } from '../store/snapshots.js';
import { openStore } from '../store/store.js';

/** `tractless`: a folder without tracts.geojson is accepted (every parcel then lies outside mapped tracts): `avm backtest --raw`. */
export type IngestOptions = { dataDir: string; rawDir?: string; onProgress?: ProgressFn; now?: Date; tractless?: boolean };
export type IngestResult = {
  snapshotId: string; unchanged: boolean; salesRows: number; parcels: number; tracts: number; listings: number; files: FileStats[]; elapsedMs: number;
  /** How each sale's condition was estimated (src/ingest/condition/). */
  condition: ConditionSummary;
};

export const INGEST_RECORD_VERSION = 1;

function requireFile(rawDir: string, file: string): string {
  const path = rawFile(rawDir, file);
  if (path === null) throw new AppError('ingest_invalid_file', `${file}: required file is missing from ${rawDir}`, { details: { file, row: null, column: null, problem: 'missing file' } });
  return path;
}

/** The raw folder must not be, or sit inside, the ground-truth folder. */
function checkRawDir(dataDir: string, rawDir: string): void {
  const rel = relative(resolve(dataDir, GROUND_TRUTH_DIR), resolve(rawDir));
  if (rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'))) throw new AppError('ingest_invalid_file', `${rawDir}: the raw folder may not be the ground-truth folder`);
  assertNotTruthPath(rawDir);
}

async function loadCook(rawDir: string, files: FileStats[], onProgress?: ProgressFn): Promise<CookInputs> {
  const salesPath = rawFile(rawDir, CCAO_SALES.file);
  if (salesPath === null) return { sales: null, chars: null, universe: null, salesStats: null, universeStats: null };
  const s = await loadCcaoSales(salesPath, onProgress);
  const charsPath = rawFile(rawDir, CCAO_RES_CHARS.file);
  const ch = charsPath === null ? null : await loadCcaoChars(charsPath, onProgress);
  const u = await loadCcaoUniverse(requireFile(rawDir, CCAO_PARCEL_UNIVERSE.file), onProgress);
  files.push(s.stats, ...(ch ? [ch.stats] : []), u.stats);
  return { sales: s.sales, chars: ch?.chars ?? null, universe: u.universe, salesStats: s.stats, universeStats: u.stats };
}

async function loadListingFeed(rawDir: string, files: FileStats[], onProgress?: ProgressFn): Promise<ListingRecord[] | null> {
  const path = rawFile(rawDir, LISTINGS.file);
  if (path === null) return null;
  const { listings, stats } = await loadListings(path, onProgress);
  files.push(stats);
  const hist = rawFile(rawDir, LISTING_HISTORY.file);
  if (hist !== null) files.push(await loadListingHistory(hist, listings, onProgress));
  return Array.from(listings.values());
}

/** Distinct tract vintage strings, sorted and joined ("synthetic ..." for a generated corpus). */
function vintageOf(tracts: ReadonlyArray<{ vintage: string }>): string {
  return [...new Set(tracts.map((t) => t.vintage))].sort().join('; ');
}

/** Every raw file validated in full, in memory; nothing is written. */
async function loadRaw(rawDir: string, progress?: ProgressFn, tractless = false) {
  const files: FileStats[] = [];
  const tractsPath = tractless ? rawFile(rawDir, TRACTS_GEOJSON.file) : requireFile(rawDir, TRACTS_GEOJSON.file);
  const { tracts, stats: tractStats } = tractsPath === null ? { tracts: [], stats: null } : loadTracts(tractsPath);
  if (tractStats) files.push(tractStats);
  const cook = await loadCook(rawDir, files, progress);
  const lakePath = rawFile(rawDir, LAKE_GIS_SALES.file);
  const lake = lakePath === null ? null : await loadLakeSales(lakePath, progress);
  if (lake) files.push(lake.stats);
  if (cook.sales === null && lake === null) throw new AppError('ingest_invalid_file', `${CCAO_SALES.file}: no sales file in ${rawDir} (need ${CCAO_SALES.file} and/or ${LAKE_GIS_SALES.file})`);
  const safmrPath = rawFile(rawDir, HUD_SAFMR.file);
  const safmr = safmrPath === null ? null : await loadSafmr(safmrPath, progress);
  if (safmr) files.push(safmr.stats);
  const listings = await loadListingFeed(rawDir, files, progress);
  return { files, tracts, cook, lake: lake?.sales ?? null, safmr: safmr?.safmr ?? null, listings };
}

/** Validates, joins and stores everything in `rawDir` (default `<dataDir>/raw`). */
export async function ingestAll(opts: IngestOptions): Promise<IngestResult> {
  const t0 = performance.now();
  const rawDir = opts.rawDir ?? join(opts.dataDir, RAW_DIR);
  checkRawDir(opts.dataDir, rawDir);
  const progress = opts.onProgress;
  const { files, tracts, cook, lake, safmr, listings } = await loadRaw(rawDir, progress, opts.tractless);

  progress?.(0, 1, 'join');
  const cookIndex = indexCookSales(cook);
  const parcels = buildParcels(cook, cookIndex, lake, tracts);
  const sales = buildSales(cook, cookIndex, lake, parcels);
  progress?.(0, 1, 'condition');
  const condition = applyInferredConditions(sales, parcels);
  progress?.(0, 1, 'encode');
  const geoids = tracts.map((t) => t.geoid);
  const salesIpc = encodeSales({ ...sales, pins: (i) => parcels.pins[sales.parcelIdx[i]] }, geoids);
  const parcelsIpc = encodeParcels(parcels, geoids);

  progress?.(0, 1, 'commit');
  const now = opts.now ?? new Date();
  const store = openStore(opts.dataDir);
  try {
    const { snapshotId, unchanged } = commitCorpus(store.env, {
      salesIpc, parcelsIpc, salesRows: sales.length, parcelRows: parcels.length, tracts, listings, now,
      reference: safmr ? { safmr } : {},
      ingestRecord: (id, same) => ({ version: INGEST_RECORD_VERSION, at: now.toISOString(), snapshot_id: id, unchanged: same, raw_dir: resolve(rawDir), corpus_vintage: vintageOf(tracts), files }),
    });
    progress?.(1, 1, 'commit');
    return { snapshotId, unchanged, salesRows: sales.length, parcels: parcels.length, tracts: tracts.length, listings: listings?.length ?? 0, files, elapsedMs: performance.now() - t0, condition };
  } finally {
    await store.close();
  }
}
