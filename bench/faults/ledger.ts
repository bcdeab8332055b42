// The fault suite's record of what each writer asked for and what the service acknowledged, and the check of a
// read-back against it: every acknowledged write present once, in its owner's state only, never an older version.
export type WriteKind = 'note' | 'favorite' | 'preset' | 'profile';

/** One write as sent: `id` the record id it addresses (notes: the body token), `version` increasing per writer. */
export type Attempt = { writer: number; kind: WriteKind; id: string; version: number; acked: boolean };

/** One record as read back through GET /api/state (kind, id, record). */
export type ReadItem = { kind: string; id: string; record: Record<string, unknown> };

export type Verdict = { acked: number; unacked: number; lost: string[]; duplicated: string[]; foreign: string[]; stale: string[] };

/** The token each write stores: writer and version, so a read-back record names the write that produced it. */
export const tokenOf = (writer: number, version: number): string => `w${writer}v${version}`;
const parseToken = (s: unknown): { writer: number; version: number } | null => {
  const m = typeof s === 'string' ? /^w(\d+)v(\d+)$/.exec(s) : null;
  return m ? { writer: Number(m[1]), version: Number(m[2]) } : null;
};

/** The token a stored record carries (note body, favorite payload.t, preset and profile name). */
function tokenOfRecord(kind: string, r: Record<string, unknown>): unknown {
  if (kind === 'note') return r.body;
  if (kind === 'favorite') return (r.payload as { t?: unknown } | undefined)?.t;
  return r.name;
}

/** The read-back id of an attempt (favorites are stored as `p:<property_id>`). */
const storedId = (a: Attempt): string => (a.kind === 'favorite' ? `p:${a.id}` : a.id);

/**
 * Checks one writer's read-back (`items`, its owner's whole state) against every attempt. Lost: an acknowledged write
 * whose record is missing, or whose record holds an older version than the newest acknowledged one. Duplicated: one
 * (kind, id) or one note token read twice. Foreign: a record another writer's token wrote, or another owner's.
 */
export function verifyWriter(writer: number, owner: string, items: ReadItem[], attempts: Attempt[]): Verdict {
  const mine = attempts.filter((a) => a.writer === writer);
  const v: Verdict = { acked: mine.filter((a) => a.acked).length, unacked: mine.filter((a) => !a.acked).length, lost: [], duplicated: [], foreign: [], stale: [] };
  const seen = new Map<string, ReadItem>();
  const tokens = new Set<string>();
  for (const it of items) {
    const key = `${it.kind}/${it.id}`;
    if (seen.has(key)) v.duplicated.push(key);
    seen.set(key, it);
    const token = tokenOfRecord(it.kind, it.record);
    const t = parseToken(token);
    if (it.record.owner_id !== owner || !t || t.writer !== writer) v.foreign.push(`${key} (${String(token)}, owner ${String(it.record.owner_id)})`);
    if (it.kind === 'note' && typeof token === 'string') {
      if (tokens.has(token)) v.duplicated.push(`note token ${token}`);
      tokens.add(token);
    }
  }
  const newestAcked = new Map<string, Attempt>();
  for (const a of mine) {
    if (a.kind === 'note') {
      if (a.acked && !tokens.has(a.id)) v.lost.push(`note ${a.id}`);
      continue;
    }
    const key = `${a.kind}/${storedId(a)}`;
    if (a.acked && (newestAcked.get(key)?.version ?? -1) < a.version) newestAcked.set(key, a);
  }
  for (const [key, a] of newestAcked) {
    const got = seen.get(key);
    const t = got ? parseToken(tokenOfRecord(a.kind, got.record)) : null;
    if (!got || !t) v.lost.push(`${key} v${a.version}`);
    else if (t.version < a.version) v.stale.push(`${key} holds v${t.version}, v${a.version} was acknowledged`);
  }
  return v;
}
