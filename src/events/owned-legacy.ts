// Records stored before user state was owner-scoped lived under global keys (`favorite:<id>`, `preset:<id>`,
// `note:<id>`, `profile:<id>`). They are moved, once, under the owner their record names (the key that last wrote it,
// resolved through key rotation); a record naming no key goes to UNOWNED. Moved in one transaction: all or none.
import type { OwnedStore, StateKind } from './owned-records.js';

const LEGACY_PREFIXES: ReadonlyArray<[StateKind, string]> = [['favorite', 'favorite:'], ['preset', 'preset:'], ['note', 'note:'], ['profile', 'profile:']];
/** `;` is the code point after `:`, closing each prefix range. */
const rangeOf = (prefix: string) => ({ start: prefix, end: `${prefix.slice(0, -1)};` });

type Legacy = Record<string, unknown> & { id?: unknown; actor?: unknown; owner_id?: unknown };
type Move = { kind: StateKind; key: string; id: string; owner: string; value: Legacy; at: string };

const lastWrite = (v: Legacy): string => String(v.updated_at ?? v.saved_at ?? v.created_at ?? '');

/**
 * Moves every legacy record; returns how many moved. `ownerOfActor` maps a stored `key:<id>` to its owner. Profiles
 * keep `ref` = their old id, so outbox records, dedupe and digest marks written under it stay theirs.
 */
export function migrateLegacyState(store: OwnedStore, ownerOfActor: (actor: unknown) => string): number {
  const { db } = store;
  const hasLegacy = LEGACY_PREFIXES.some(([, prefix]) => db.getKeysCount({ ...rangeOf(prefix), limit: 1 }) > 0);
  if (!hasLegacy) return 0;
  return db.transactionSync(() => {
    const moves: Move[] = [];
    for (const [kind, prefix] of LEGACY_PREFIXES) {
      for (const { key, value } of db.getRange(rangeOf(prefix))) {
        const v = value as Legacy;
        const id = typeof v.id === 'string' && v.id !== '' ? v.id : String(key).slice(prefix.length);
        const owner = ownerOfActor(kind === 'profile' ? v.owner_id : v.actor);
        moves.push({ kind, key: String(key), id, owner, value: v, at: lastWrite(v) });
      }
    }
    // Oldest first, so the owner's newest-first pages keep the order the records were written in.
    moves.sort((a, b) => a.at.localeCompare(b.at) || a.key.localeCompare(b.key));
    for (const m of moves) {
      const value = m.kind === 'profile' ? { ...m.value, ref: m.id } : m.value;
      store.putInTxn(m.kind, m.owner, m.id, value);
      db.remove(m.key);
    }
    return moves.length;
  });
}
