// `avm verify`: the whole store checked — the data file against its header, every retained snapshot against its
// recorded sha256, the current-snapshot pointer, and every sub-database read end to end. Never repairs anything.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isAppError } from '../errors/app-error.js';
import type { RootDatabase } from 'lmdb';
import { DB_NAMES, openSubDb } from './env.js';
import { checkLmdbFile } from './lmdb-file.js';
import { openStore } from './store.js';

export type VerifyReport = { ok: boolean; summary: string; failures: string[] };

/** Reads every entry of every sub-database; a damaged page surfaces here as an LMDB error (one failure line each). */
function readAllSubDbs(env: RootDatabase): { entries: number; failures: string[] } {
  const failures: string[] = [];
  let entries = 0;
  for (const name of Object.values(DB_NAMES)) {
    try {
      for (const _ of openSubDb(env, name).getRange()) entries++;
    } catch (e) {
      failures.push(`sub-database ${name} cannot be read: ${(e as Error).message}`);
    }
  }
  return { entries, failures };
}

export async function verifyStore(dataDir: string): Promise<VerifyReport> {
  const file = join(dataDir, 'lmdb', 'data.mdb');
  if (!existsSync(file)) return { ok: false, summary: '', failures: [`no store at ${file} (run avm ingest first)`] };
  const fileCheck = checkLmdbFile(file);
  if (!fileCheck.ok) return { ok: false, summary: '', failures: [fileCheck.reason] };
  const t0 = performance.now();
  let store;
  try {
    store = openStore(dataDir);
  } catch (e) {
    return { ok: false, summary: '', failures: [isAppError(e) ? e.message : `the store cannot be opened: ${(e as Error).message}`] };
  }
  const failures: string[] = [];
  let hashedBytes = 0;
  try {
    const snapshots = store.listSnapshots();
    const current = store.currentSnapshotId();
    if (current === null) failures.push('no current sales snapshot (nothing ingested)');
    else if (!snapshots.some((s) => s.id === current)) failures.push(`the current snapshot ${current} is not in the snapshot list`);
    for (const s of snapshots) {
      const v = store.verifySnapshot(s.id)!;
      hashedBytes += v.hashedBytes;
      if (!v.ok) failures.push(v.detail);
    }
    const read = readAllSubDbs(store.env);
    failures.push(...read.failures);
    const ms = Math.round(performance.now() - t0);
    const mib = (hashedBytes / 1024 ** 2).toFixed(1);
    const summary = `${fileCheck.detail}; ${snapshots.length} snapshot(s) match their recorded sha256 (current ${current}, ${mib} MiB hashed); ${read.entries} entries read in ${Object.keys(DB_NAMES).length} sub-databases; ${ms} ms`;
    return { ok: failures.length === 0, summary, failures };
  } finally {
    await store.close();
  }
}
