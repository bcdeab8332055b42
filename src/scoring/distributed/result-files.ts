// The files of a distributed run, beside the snapshot they score: `<snapshot dir>/<snapshot id>/score-all/<run id>/`
// holds `raw/part-NNNNN.arrow` (a worker's score columns, before corpus-wide ranking), then `part-NNNNN.arrow` (the
// final rows, score-all's table layout) and `manifest.json`. Every file is written atomically (temp + rename).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeVector, Table, tableFromIPC, tableToIPC, type Vector } from 'apache-arrow';
import { STRATEGIES } from '../../underwriting/types.js';
import { writeFileAtomic } from '../../store/shared/atomic-file.js';
import type { ScoreColumns } from '../bulk/columns.js';

/** A run's folder relative to the shared snapshot folder (recorded so; each machine resolves it against its own mount). */
export const runDirOf = (snapshotId: string, runId: string): string => join(snapshotId, 'score-all', runId);
export const partName = (part: number): string => `part-${String(part).padStart(5, '0')}.arrow`;
export const rawPartPath = (runDir: string, part: number): string => join(runDir, 'raw', partName(part));
export const sha256Of = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

const FLOATS = ['arv', 'arvLow', 'arvHigh', 'arvConfidence', 'asIs'] as const;

/** A partition's score columns as Arrow IPC (NaN stays NaN: it is score-all's null). */
export function encodeRawPartition(c: ScoreColumns): Uint8Array {
  const cols: Record<string, Vector> = { outcome: makeVector(c.outcome), point: makeVector(c.point), error: makeVector(c.error) };
  for (const f of FLOATS) cols[f] = makeVector(c[f]);
  STRATEGIES.forEach((s, k) => (cols[`raw_${s}`] = makeVector(c.raw[k])));
  return tableToIPC(new Table(cols), 'stream');
}

export function decodeRawPartition(bytes: Uint8Array): ScoreColumns {
  const t = tableFromIPC(bytes);
  const col = <T>(name: string): T => {
    const v = t.getChild(name);
    if (!v) throw new Error(`raw partition has no ${name} column`);
    return v.toArray() as T;
  };
  const c = { outcome: col<Uint8Array>('outcome'), point: col<Uint8Array>('point'), error: col<Uint8Array>('error'), raw: STRATEGIES.map((s) => col<Float64Array>(`raw_${s}`)) } as ScoreColumns;
  for (const f of FLOATS) c[f] = col<Float64Array>(f);
  return c;
}

/** Writes bytes atomically; returns their sha256. */
export async function writeResultFile(path: string, bytes: Uint8Array): Promise<string> {
  await writeFileAtomic(path, bytes);
  return sha256Of(bytes);
}

/** Reads a result file back and checks it against the sha256 recorded for it. */
export async function readVerified(path: string, sha256: string): Promise<Uint8Array> {
  const b = await readFile(path);
  const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  const actual = sha256Of(bytes);
  if (actual !== sha256) throw new Error(`${path}: sha256 ${actual.slice(0, 12)}… ≠ recorded ${sha256.slice(0, 12)}…`);
  return bytes;
}
