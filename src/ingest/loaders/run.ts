// The loop every CSV loader shares: locate the raw file (never inside the ground-truth folder), resolve the header
// against the layout, check each row's width, and turn CSV syntax errors into positioned `ingest_invalid_file` errors.
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError } from '../../errors/app-error.js';
import { GROUND_TRUTH_DIR, GROUND_TRUTH_FILE, type Layout } from '../layouts.js';
import { CsvSyntaxError, readCsv, type CsvPosition } from '../csv.js';
import { checkWidth, invalidFile, resolveColumns, type RowRef } from './fields.js';

/** Rows read/kept/skipped by reason; `parcels` counts parcel-level outcomes of the join (universe PINs left out). */
export type FileStats = {
  file: string; rowsRead: number; rowsKept: number; rowsSkipped: number; skipped: Record<string, number>; parcelsSkipped: Record<string, number>;
  bytes: number; sha256: string;
};

/** Same shape as src/progress.ts: `done` of `total` units (bytes while reading a file) in `stage`. */
export type ProgressFn = (done: number, total: number, stage: string) => void;

/** A row handler built once per file from the resolved column indices (-1 for an absent optional column). */
export type RowHandlerFactory = (cols: Map<string, number>) => (fields: string[], ref: RowRef) => void;

/**
 * Refuses any path in the synthetic ground-truth folder: the serving path must never read true values. This is the
 * runtime half of the guard (test/store/truth-isolation.test.ts is the static half).
 */
export function assertNotTruthPath(path: string): void {
  const abs = resolve(path);
  if (basename(abs) === GROUND_TRUTH_FILE || abs.split(/[\\/]/).includes(GROUND_TRUTH_DIR)) {
    throw new AppError('ingest_invalid_file', `${abs}: refusing to read the ground-truth folder from the ingest path`);
  }
}

/** Full path of a raw file, or null when it is absent. */
export function rawFile(rawDir: string, file: string): string | null {
  const path = join(rawDir, file);
  assertNotTruthPath(dirname(path));
  return existsSync(path) ? path : null;
}

/** Streams `path` through the layout's row handler; the handler counts kept/skipped rows in `stats`. */
export async function loadCsv(path: string, layout: Layout, stats: FileStats, make: RowHandlerFactory, onProgress?: ProgressFn): Promise<void> {
  assertNotTruthPath(path);
  const file = layout.file;
  let header: string[] = [];
  let handle: ((fields: string[], ref: RowRef) => void) | null = null;
  const ref: RowRef = { file, pos: { row: 0, line: 1 } };
  try {
    const res = await readCsv(path, {
      onHeader: (h) => {
        if (h.length === 0) throw invalidFile(file, null, null, 'file is empty (no header row)');
        header = h;
        handle = make(resolveColumns(file, h, layout.required, layout.optional));
      },
      onRow: (fields, pos: CsvPosition) => {
        ref.pos = pos;
        checkWidth(ref, fields, header);
        stats.rowsRead++;
        handle!(fields, ref);
      },
      onProgress: (bytesRead, totalBytes) => onProgress?.(bytesRead, totalBytes, `read ${file}`),
    });
    stats.bytes = res.bytes;
    stats.sha256 = res.sha256;
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw invalidFile(file, e.pos, null, e.message);
    throw e;
  }
}

export function newStats(file: string): FileStats {
  return { file, rowsRead: 0, rowsKept: 0, rowsSkipped: 0, skipped: {}, parcelsSkipped: {}, bytes: 0, sha256: '' };
}

/** Counts a row left out on purpose (not an error): out-of-scope class, over 4 units, no location... */
export function skip(stats: FileStats, reason: string): void {
  stats.rowsSkipped++;
  stats.skipped[reason] = (stats.skipped[reason] ?? 0) + 1;
}

/** Counts a PIN of the file left out of the parcel table (its rows were valid and are counted as kept). */
export function skipParcel(stats: FileStats | null, reason: string): void {
  if (stats) stats.parcelsSkipped[reason] = (stats.parcelsSkipped[reason] ?? 0) + 1;
}
