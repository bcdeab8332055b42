// A stored snapshot checked against the sha256 its ingest recorded: the Arrow IPC bytes of its sales and its parcel
// table. LMDB checks no page contents, so bytes garbled on disk would otherwise be served as if they were the corpus.
import { createHash } from 'node:crypto';
import type { SnapshotInfo } from './snapshots.js';

export type SnapshotVerdict = { ok: boolean; detail: string; hashedBytes: number };

export const sha256Hex = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** The verdict on snapshot `id` given its recorded info and the bytes read back (undefined: absent from the store). */
export function verifySnapshotBytes(id: string, info: SnapshotInfo | undefined, sales: Uint8Array | undefined, parcels: Uint8Array | undefined): SnapshotVerdict {
  if (info === undefined) return { ok: false, detail: `snapshot ${id} has no recorded sha256 (not in the snapshot list)`, hashedBytes: 0 };
  const problems: string[] = [];
  let hashedBytes = 0;
  for (const [what, bytes, recorded] of [['sales', sales, info.sales_sha256], ['parcels', parcels, info.parcels_sha256]] as const) {
    if (bytes === undefined) {
      problems.push(`its ${what} bytes are missing`);
      continue;
    }
    hashedBytes += bytes.byteLength;
    const actual = sha256Hex(bytes);
    if (actual !== recorded) problems.push(`${what} sha256 ${actual.slice(0, 12)}… ≠ recorded ${recorded.slice(0, 12)}…`);
  }
  if (problems.length > 0) return { ok: false, detail: `snapshot ${id} fails verification: ${problems.join('; ')}`, hashedBytes };
  return { ok: true, detail: `snapshot ${id} matches its recorded sha256`, hashedBytes };
}
