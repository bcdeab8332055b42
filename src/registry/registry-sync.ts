// Replicas on PostgreSQL keep the registry there (the source of truth) and a mirror in their own LMDB `calibration`
// sub-database, which serving reads synchronously per valuation (value-context, the workers' stamp): at start a replica
// mirrors the shared registry, and a calibration run submits to the shared registry and then mirrors it. A shared
// registry still empty is seeded from the first replica's local one (replicas of one corpus hold the same tables).
import type { ModelRegistryDoc } from './model-registry.js';
import type { RegistryStore } from './registry-store.js';

const versionsOf = (doc: ModelRegistryDoc): string[] =>
  [...new Set([doc.champion, doc.rollback, ...doc.history].flatMap((e) => (e ? [e.calibrationVersion] : [])))];

/** Copies `from`'s document and every table and report it names into `to`; returns the versions copied. */
export async function copyRegistry(from: RegistryStore, to: RegistryStore): Promise<string[]> {
  const doc = await from.document();
  const versions = versionsOf(doc);
  for (const v of versions) {
    const table = await from.getTable(v);
    if (table) await to.putTable(table);
    const report = await from.getReport(v);
    if (report) await to.putReport(report);
  }
  await to.putDocument(doc); // last: the document never names a table the mirror lacks
  return versions;
}

/** At a replica's start: seeds an empty shared registry from the local one, else mirrors the shared one locally. */
export async function syncRegistry(shared: RegistryStore, local: RegistryStore): Promise<{ direction: 'seeded_shared' | 'mirrored_local' | 'none'; versions: number }> {
  const sharedDoc = await shared.document();
  if (sharedDoc.history.length === 0) {
    if ((await local.document()).history.length === 0) return { direction: 'none', versions: 0 };
    return { direction: 'seeded_shared', versions: (await copyRegistry(local, shared)).length };
  }
  return { direction: 'mirrored_local', versions: (await copyRegistry(shared, local)).length };
}
