// The deterministic synthetic corpus: tracts, parcels, sales with defects, characteristics, SAFMRs and listings in the
// real open-data layouts under <outDir>/raw, ground truth under <outDir>/truth. Same seed and as-of date → same bytes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error.js';
import { GENERATOR } from '../../registry/groups/generator.js';
import { ALL_CSV_LAYOUTS, GROUND_TRUTH_DIR, GROUND_TRUTH_FILE, RAW_DIR, TRACTS_GEOJSON } from '../layouts.js';
import { dayOfIso, isoOfDay } from '../../store/days.js';
import { TractLocator } from '../../store/tract-locator.js';
import { writeListings } from './listings.js';
import { writeCharacteristics, writeUniverse } from './parcel-files.js';
import { buildParcels, drawQualities, drawRepairScopes } from './parcels.js';
import { conditionMixAt } from './buildings.js';
import { fullYears, REALISM_TARGETS, realismReport } from './realism.js';
import { fitDry, type Fits } from './dry-fits.js';
import { areaIqrFloors } from './realism-floor.js';
import { anchorParcels, buildSurface, calibrationDay, type Surface } from './anchoring.js';
import { loadGenReference, type GenReference } from './reference.js';
import { RentModel } from './rents.js';
import { MicroLocationField } from './micro-location.js';
import { Rng } from './rng.js';
import { generateSales, type SaleSink, type SalesCtx } from './sales.js';
import { anchorRealisedMedians } from './anchor-realised.js';
import { DrySales } from './dry-sales.js';
import { SalesOut } from './sales-out.js';
import { writeSafmr, writeTracts } from './static-files.js';
import { buildCookTracts, buildLakeTracts, type GenTract } from './tracts.js';

/** Bumped whenever the same seed would produce different bytes. */
export const GENERATOR_VERSION = '3.2.0';
export const DEFAULT_AS_OF = '2026-10-31';
export const SCALES = ['test', 'default', 'county'] as const;
export type Scale = (typeof SCALES)[number];
export type ProgressFn = (done: number, total: number, stage: string) => void;

export type GenerateOptions = {
  seed: number;
  /** `test` is a small corpus for unit tests (still every tract: 1,662); `county` is for benchmarks. */
  scale: Scale;
  outDir: string;
  /** ISO date the corpus is "as of" (last possible sale day); fixed default so output never depends on the clock. */
  asOf?: string;
  onProgress?: ProgressFn;
  /** Reference facts; read from data/reference when absent. */
  reference?: GenReference;
  /**
   * Write each exported sale's true condition (`sale_condition` on Cook rows, `CONDITION` on Lake rows). A real export
   * has no such column; the truth file always has it. Default false (a real export's shape); tests of the feed path set it.
   */
  exportCondition?: boolean;
  /** Also measure each PIN area's IQR floor (realism-floor.ts) for truth/realism.json; the corpus is the same either way. */
  floorDiagnostic?: boolean;
};

export type GenerateResult = { files: Record<string, string>; counts: Record<string, number>; truthFile: string; vintage: string; realism: ReturnType<typeof realismReport> };
/** The realism report's file name under truth/. */
export const REALISM_FILE = 'realism.json';

function validate(o: GenerateOptions): void {
  if (o === null || typeof o !== 'object') throw new AppError('validation_failed', 'generateCorpus needs an options object');
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) throw new AppError('validation_failed', `seed must be a non-negative integer, got ${o.seed}`);
  if (!SCALES.includes(o.scale)) throw new AppError('validation_failed', `scale must be one of ${SCALES.join(', ')}, got '${o.scale}'`);
  if (typeof o.outDir !== 'string' || o.outDir.length === 0) throw new AppError('validation_failed', 'outDir must be a non-empty path');
}

/** Tract pieces (a real Chicago tract crossing neighborhood lines is several pieces sharing its GEOID). */
function buildTracts(ref: GenReference, seed: number): GenTract[] {
  const tracts = [...buildCookTracts(ref, new Rng(seed, 'tracts-cook')), ...buildLakeTracts(ref, new Rng(seed, 'tracts-lake'))];
  tracts.forEach((t, i) => (t.idx = i));
  const geoids = new Set(tracts.map((t) => t.geoid)).size;
  if (geoids !== GENERATOR.v.tracts_total) throw new AppError('internal_error', `built ${geoids} tracts, expected ${GENERATOR.v.tracts_total}`);
  return tracts;
}

const geoidCount = (tracts: readonly GenTract[]): number => new Set(tracts.map((t) => t.geoid)).size;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type Plan = {
  seed: number; scale: Scale; asOf: string; asOfDay: number; asOfYear: number; startDay: number;
  vintage: string; rawDir: string; truthDir: string; progress: ProgressFn; exportCondition: boolean; floorDiagnostic: boolean;
};

function planOf(opts: GenerateOptions): Plan {
  validate(opts);
  const asOf = opts.asOf ?? DEFAULT_AS_OF;
  const asOfDay = dayOfIso(asOf);
  const [y, m, d] = asOf.split('-');
  // The window opens the day after the same date `history_years` earlier (Feb 29 falls back to Feb 28).
  const startDay = dayOfIso(`${Number(y) - GENERATOR.v.history_years}-${m}-${d === '29' && m === '02' ? '28' : d}`) + 1;
  return {
    seed: opts.seed, scale: opts.scale, asOf, asOfDay, asOfYear: Number(y), startDay,
    vintage: `synthetic generator ${GENERATOR_VERSION} seed ${opts.seed} scale ${opts.scale} as of ${asOf} (Chicago tracts: real GEOIDs, generated cells; suburban Cook and Lake tracts generated)`,
    rawDir: join(opts.outDir, RAW_DIR), truthDir: join(opts.outDir, GROUND_TRUTH_DIR), progress: opts.onProgress ?? (() => undefined),
    exportCondition: opts.exportCondition ?? false, floorDiagnostic: opts.floorDiagnostic ?? false,
  };
}

/** Parcels and the sales stream (sales, Lake sales and truth files are written while generating). */
function runSales(plan: Plan, ref: GenReference, tracts: GenTract[], surface: Surface): { ctx: SalesCtx; out: SalesOut; iqrFloor?: Map<string, number> } & Fits {
  const scaleIdx = SCALES.indexOf(plan.scale);
  const grid = new TractLocator(tracts.map((t) => t.geometry));
  plan.progress(0, tracts.length, 'parcels');
  const p = buildParcels(
    tracts, grid, GENERATOR.v.scale_parcels[scaleIdx], plan.asOfYear, new Rng(plan.seed, 'parcels'), (k, n) => plan.progress(k, n, 'parcels'),
    (t) => conditionMixAt(surface.relLevel[t.idx]),
  );
  drawRepairScopes(p, new Rng(plan.seed, 'repair-scope'));
  drawQualities(p, new Rng(plan.seed, 'quality'), new MicroLocationField(plan.seed));
  const { locLog, timeOf } = surface;
  const refDay = calibrationDay(plan, surface.lastRealYear);
  anchorParcels(ref, surface, { p, tracts, locLog, timeOf }, refDay, new Rng(plan.seed, 'level-calibration'));
  plan.progress(tracts.length, tracts.length, 'parcels');
  const target = GENERATOR.v.scale_arms_sales[scaleIdx];
  const ctxOf = (out: SaleSink, rents: RentModel): SalesCtx => ({
    p, tracts, locLog, timeOf, rents, startDay: plan.startDay, endDay: plan.asOfDay, out,
    rng: new Rng(plan.seed, 'sales'), flipResaleDay: new Int32Array(p.n).fill(-1), flipBuyDay: new Int32Array(p.n).fill(-1), docSeq: { n: 0 },
  });
  const rentsAt = () => new RentModel(tracts, Float64Array.from(tracts, (_, t) => locLog[t] + timeOf[t].logAt(refDay)), p, ref.zips, plan.asOfDay);
  plan.progress(0, p.n, 'sales'); // the dry pass and the fits are part of the sales stage
  const dry = new DrySales(), dryCtx = ctxOf(dry, rentsAt());
  generateSales(dryCtx, target);
  const years = fullYears(plan.startDay, plan.asOfDay);
  const fits = fitDry({ ...dryCtx, timeOf }, dry, ref, surface, years, plan.seed);
  const iqrFloor = plan.floorDiagnostic ? areaIqrFloors({ ...dryCtx, timeOf }, dry, ref, surface, years) : undefined;
  const rents = rentsAt();
  const out = new SalesOut(plan.rawDir, join(plan.truthDir, GROUND_TRUTH_FILE), p, tracts, rents.tractZip, plan.exportCondition);
  const ctx = ctxOf(out, rents);
  try {
    generateSales(ctx, target, (k, n) => plan.progress(k, n, 'sales'));
  } finally {
    out.close();
  }
  plan.progress(p.n, p.n, 'sales');
  return { ctx, out, iqrFloor, ...fits };
}

/** The files written after the sales: universe, characteristics, tracts, SAFMR, listings, manifest. */
function writeFiles(plan: Plan, ctx: SalesCtx, out: SalesOut): Record<string, number> {
  const { p, tracts, rents } = ctx;
  plan.progress(0, 5, 'files');
  const universeRows = writeUniverse(plan.rawDir, p, tracts, rents.tractZip, plan.asOfYear);
  plan.progress(1, 5, 'files');
  const charsRows = writeCharacteristics(plan.rawDir, ctx, plan.asOfDay, new Rng(plan.seed, 'char-flags'));
  plan.progress(2, 5, 'files');
  writeTracts(plan.rawDir, tracts, plan.vintage);
  const safmrRows = writeSafmr(plan.rawDir, rents, plan.asOf);
  plan.progress(4, 5, 'files');
  const listings = writeListings(plan.rawDir, plan.truthDir, { ...ctx, rng: new Rng(plan.seed, 'listings') }, plan.asOfDay, rents.tractZip, new Rng(plan.seed, 'listings-forced-sale'));
  const counts: Record<string, number> = {
    tracts: geoidCount(tracts), tracts_cook: geoidCount(tracts.filter((t) => t.county === 'cook')), tracts_lake: geoidCount(tracts.filter((t) => t.county === 'lake')),
    tracts_chicago_real: geoidCount(tracts.filter((t) => t.isChicago)), tract_pieces: tracts.length,
    parcels: p.n, universe_rows: universeRows, characteristics_rows: charsRows, cook_sales: out.cook.rows, lake_sales: out.lake.rows,
    sales: out.cook.rows + out.lake.rows, safmr_zips: safmrRows, listings: listings.listings, listing_events: listings.events,
  };
  for (const [k, v] of [...out.byDefect.entries()].sort()) counts[`sales_${k}`] = v;
  const manifest = {
    generator_version: GENERATOR_VERSION, vintage: plan.vintage, seed: plan.seed, scale: plan.scale, as_of: plan.asOf,
    first_sale_day: isoOfDay(plan.startDay), noise_sigma_log: GENERATOR.v.noise_sigma_log, counts,
  };
  writeFileSync(join(plan.truthDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  plan.progress(5, 5, 'files');
  return counts;
}

/**
 * Generates the whole corpus into `outDir` (raw/ and truth/). Throws validation_failed on a bad seed, scale or
 * as-of date; internal_error when the reference data cannot be read.
 */
export async function generateCorpus(opts: GenerateOptions): Promise<GenerateResult> {
  const plan = planOf(opts);
  mkdirSync(plan.rawDir, { recursive: true });
  mkdirSync(plan.truthDir, { recursive: true });
  const ref = opts.reference ?? loadGenReference();
  plan.progress(0, 1, 'tracts');
  const tracts = buildTracts(ref, plan.seed);
  const surface = buildSurface(ref, tracts, plan.seed, plan.asOfYear);
  plan.progress(1, 1, 'tracts');
  await yieldToLoop();
  const { ctx, out, anchorShifts, shapeFit, distressFit, iqrFloor } = runSales(plan, ref, tracts, surface);
  await yieldToLoop();
  const counts = writeFiles(plan, ctx, out);
  const realism = realismReport({ p: ctx.p, tracts, sales: out.log, startDay: plan.startDay, endDay: plan.asOfDay, nbhdSales: ref.nbhdSales, dispersion: ref.areaDispersion, anchorShifts, shapeFit, distressFit, iqrFloor });
  writeFileSync(join(plan.truthDir, REALISM_FILE), JSON.stringify({ generator_version: GENERATOR_VERSION, vintage: plan.vintage, ...realism }, null, 1) + '\n');
  const files = Object.fromEntries([...ALL_CSV_LAYOUTS.map((l) => [l.file, join(plan.rawDir, l.file)]), [TRACTS_GEOJSON.file, join(plan.rawDir, TRACTS_GEOJSON.file)]]);
  plan.progress(1, 1, 'done');
  return { files, counts, truthFile: join(plan.truthDir, GROUND_TRUTH_FILE), vintage: plan.vintage, realism };
}
