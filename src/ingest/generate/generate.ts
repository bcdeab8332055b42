// The deterministic synthetic corpus: tracts, parcels, sales with defects, characteristics, SAFMRs and listings in the
// real open-data layouts under <outDir>/raw, ground truth under <outDir>/truth. Same seed and as-of date → same bytes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error.js';
import { GENERATOR } from '../../registry/groups/generator.js';
import { INGEST } from '../../registry/groups/ingest.js';
import { ALL_CSV_LAYOUTS, GROUND_TRUTH_DIR, GROUND_TRUTH_FILE, RAW_DIR, TRACTS_GEOJSON } from '../layouts.js';
import { dayFromIso, isoFromDay } from './dates.js';
import { TractGrid } from './geometry.js';
import { writeListings } from './listings.js';
import { writeCharacteristics, writeUniverse } from './parcel-files.js';
import { buildParcels } from './parcels.js';
import { loadGenReference, type GenReference } from './reference.js';
import { RentModel } from './rents.js';
import { Rng } from './rng.js';
import { generateSales, type SalesCtx } from './sales.js';
import { SalesOut } from './sales-out.js';
import { writeSafmr, writeTracts } from './static-files.js';
import { TimeIndex, tractLocationLogs } from './surface.js';
import { buildCookTracts, buildLakeTracts, type GenTract } from './tracts.js';

/** Bumped whenever the same seed would produce different bytes. */
export const GENERATOR_VERSION = '1.0.0';
export const DEFAULT_AS_OF = '2026-10-31';
export const SCALES = ['test', 'default', 'county'] as const;
export type Scale = (typeof SCALES)[number];
export type ProgressFn = (done: number, total: number, stage: string) => void;

export type GenerateOptions = {
  seed: number;
  /** `test` is a small corpus for unit tests (still 1,492 tracts); `county` is for benchmarks. */
  scale: Scale;
  outDir: string;
  /** ISO date the corpus is "as of" (last possible sale day); fixed default so output never depends on the clock. */
  asOf?: string;
  onProgress?: ProgressFn;
  /** Reference facts; read from data/reference when absent. */
  reference?: GenReference;
};

export type GenerateResult = { files: Record<string, string>; counts: Record<string, number>; truthFile: string; vintage: string };

function validate(o: GenerateOptions): void {
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) throw new AppError('validation_failed', `seed must be a non-negative integer, got ${o.seed}`);
  if (!SCALES.includes(o.scale)) throw new AppError('validation_failed', `scale must be one of ${SCALES.join(', ')}, got '${o.scale}'`);
  if (typeof o.outDir !== 'string' || o.outDir.length === 0) throw new AppError('validation_failed', 'outDir must be a non-empty path');
}

function buildTracts(ref: GenReference, seed: number): GenTract[] {
  const tracts = [...buildCookTracts(ref, new Rng(seed, 'tracts-cook')), ...buildLakeTracts(ref, new Rng(seed, 'tracts-lake'))];
  tracts.forEach((t, i) => (t.idx = i));
  if (tracts.length !== GENERATOR.v.tracts_total) throw new AppError('internal_error', `built ${tracts.length} tracts, expected ${GENERATOR.v.tracts_total}`);
  return tracts;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function generateCorpus(opts: GenerateOptions): Promise<GenerateResult> {
  validate(opts);
  const asOf = opts.asOf ?? DEFAULT_AS_OF;
  const asOfDay = dayFromIso(asOf);
  const [y, m, d] = asOf.split('-');
  const startDay = dayFromIso(`${Number(y) - GENERATOR.v.history_years}-${m}-${d === '29' && m === '02' ? '28' : d}`) + 1;
  const scaleIdx = SCALES.indexOf(opts.scale);
  const progress: ProgressFn = opts.onProgress ?? (() => undefined);
  const vintage = `synthetic generator ${GENERATOR_VERSION} seed ${opts.seed} scale ${opts.scale} as of ${asOf}`;
  const rawDir = join(opts.outDir, RAW_DIR), truthDir = join(opts.outDir, GROUND_TRUTH_DIR);
  mkdirSync(rawDir, { recursive: true });
  mkdirSync(truthDir, { recursive: true });

  const ref = opts.reference ?? loadGenReference();
  progress(0, 6, 'tracts');
  const tracts = buildTracts(ref, opts.seed);
  const grid = new TractGrid(tracts.map((t) => t.geometry), INGEST.v.tract_grid_cell_deg);
  const locLog = tractLocationLogs(ref, tracts, new Rng(opts.seed, 'surface'));
  const time = new TimeIndex(ref, Number(y));
  await yieldToLoop();

  progress(1, 6, 'parcels');
  const p = buildParcels(tracts, grid, GENERATOR.v.scale_parcels[scaleIdx], Number(y), new Rng(opts.seed, 'parcels'), (k, n) => progress(k, n, 'parcels'));
  const rents = new RentModel(tracts, locLog, p, ref.zips, asOfDay);
  await yieldToLoop();

  progress(2, 6, 'sales');
  const truthFile = join(truthDir, GROUND_TRUTH_FILE);
  const out = new SalesOut(rawDir, truthFile, p, tracts, rents.tractZip);
  const ctx: SalesCtx = {
    p, tracts, locLog, time, rents, startDay, endDay: asOfDay, out, rng: new Rng(opts.seed, 'sales'),
    flipResaleDay: new Int32Array(p.n).fill(-1), flipBuyDay: new Int32Array(p.n).fill(-1), docSeq: { n: 0 },
  };
  try {
    generateSales(ctx, GENERATOR.v.scale_arms_sales[scaleIdx], (k, n) => progress(k, n, 'sales'));
  } finally {
    out.close();
  }
  await yieldToLoop();

  progress(3, 6, 'parcel files');
  const universeRows = writeUniverse(rawDir, p, tracts, rents.tractZip, Number(y));
  const charsRows = writeCharacteristics(rawDir, ctx, asOfDay);
  await yieldToLoop();

  progress(4, 6, 'tracts, rents, listings');
  writeTracts(rawDir, tracts, vintage);
  const safmrRows = writeSafmr(rawDir, rents, asOf);
  const listings = writeListings(rawDir, truthDir, { ...ctx, rng: new Rng(opts.seed, 'listings') }, asOfDay, rents.tractZip);

  const counts: Record<string, number> = {
    tracts: tracts.length, tracts_cook: tracts.filter((t) => t.county === 'cook').length, tracts_lake: tracts.filter((t) => t.county === 'lake').length,
    parcels: p.n, universe_rows: universeRows, characteristics_rows: charsRows, cook_sales: out.cook.rows, lake_sales: out.lake.rows,
    sales: out.cook.rows + out.lake.rows, safmr_zips: safmrRows, listings: listings.listings, listing_events: listings.events,
  };
  for (const [k, v] of [...out.byDefect.entries()].sort()) counts[`sales_${k}`] = v;
  const files = Object.fromEntries([...ALL_CSV_LAYOUTS.map((l) => [l.file, join(rawDir, l.file)]), [TRACTS_GEOJSON.file, join(rawDir, TRACTS_GEOJSON.file)]]);
  const manifest = { generator_version: GENERATOR_VERSION, vintage, seed: opts.seed, scale: opts.scale, as_of: asOf, first_sale_day: isoFromDay(startDay), noise_sigma_log: GENERATOR.v.noise_sigma_log, counts };
  writeFileSync(join(truthDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  progress(6, 6, 'done');
  return { files, counts, truthFile, vintage };
}
