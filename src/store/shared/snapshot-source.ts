// Where replicas read published snapshots from. The one implementation is a folder (AVM_SNAPSHOT_DIR, a volume every
// replica mounts): `<dir>/<snapshot id>/{sales.arrow, parcels.arrow, manifest.json}`. An object store (s3://, gs://)
// is the documented extension point: implement SnapshotSource (and SnapshotSink for the publisher) over its client and
// choose it by the URL's scheme; the follower and the publisher take the interfaces, not the folder.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error.js';
import type { SnapshotInfo } from '../snapshots.js';
import { writeFileAtomic } from './atomic-file.js';

export const SNAPSHOT_FILES = { sales: 'sales.arrow', parcels: 'parcels.arrow', manifest: 'manifest.json' } as const;

/** What a published snapshot is: the store's SnapshotInfo (ids, sha256 of both files, counts) and the file sizes. */
export type SnapshotManifest = { format: 1; snapshot: SnapshotInfo; bytes: { sales: number; parcels: number }; published_at: string };

export interface SnapshotSource {
  /** For messages: the folder or URL. */
  readonly location: string;
  readManifest(id: string): Promise<SnapshotManifest>;
  readFile(id: string, file: typeof SNAPSHOT_FILES.sales | typeof SNAPSHOT_FILES.parcels): Promise<Uint8Array>;
}

export interface SnapshotSink {
  readonly location: string;
  /** Writes the data files, then the manifest last (a manifest present means its files are whole). */
  writeSnapshot(manifest: SnapshotManifest, sales: Uint8Array, parcels: Uint8Array): Promise<void>;
}

const idOk = (id: string): string => {
  // Snapshot ids become path segments: refuse anything that could leave the folder.
  if (!/^[A-Za-z0-9._-]+$/.test(id) || id.startsWith('.')) throw new AppError('validation_failed', `snapshot id ${JSON.stringify(id)} is not a plain name`);
  return id;
};

/** The folder snapshot store, readable and writable. */
export function snapshotFolder(dir: string): SnapshotSource & SnapshotSink {
  const at = (id: string, file: string): string => join(dir, idOk(id), file);
  return {
    location: dir,
    async readManifest(id) {
      const path = at(id, SNAPSHOT_FILES.manifest);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (e) {
        throw new AppError('corpus_unavailable', `snapshot ${id} is not published in ${dir} (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
      }
      return JSON.parse(text) as SnapshotManifest;
    },
    async readFile(id, file) {
      const b = await readFile(at(id, file));
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    },
    async writeSnapshot(manifest, sales, parcels) {
      const id = manifest.snapshot.id;
      await writeFileAtomic(at(id, SNAPSHOT_FILES.sales), sales);
      await writeFileAtomic(at(id, SNAPSHOT_FILES.parcels), parcels);
      await writeFileAtomic(at(id, SNAPSHOT_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}
