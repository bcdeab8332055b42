// Read-only summaries the health and tract routes need: binding checks, listings counts, last listings run, vintage,
// and the public tract list (location signals stay null until their engines fill them).
import type { Database, RootDatabase } from 'lmdb';
import { META_KEYS } from './snapshots.js';

/** Meta key the daily listings run writes its summary under ({kind, finished, found, new_count}). */
export const LAST_RUN_META_KEY = 'listings:last_run';

export type BindingCheck = { ok: boolean; detail: string };
export type LastRun = { kind: string; finished: string | null; found: number; new_count: number };
export type PublicTract = {
  geoid: string; county: 'cook' | 'lake'; muni: string | null; flip_score: number | null; brrrr_score: number | null;
  effective_tax_rate: number | null; reassessment_shock: number | null; reassessment_status: string | null; section8_gap: number | null; safmr_2br: number | null;
};
export type PublicTractList = { vintage: string; count: number; tracts: PublicTract[] };

export function checkEnv(env: RootDatabase): BindingCheck {
  try {
    const stat = env.getStats() as { entryCount?: number };
    return { ok: true, detail: `lmdb open (${stat.entryCount ?? 0} root entries)` };
  } catch (e) {
    return { ok: false, detail: `lmdb unavailable: ${(e as Error).message}` };
  }
}

/** `verdictOf`: the snapshot's integrity verdict (store.ts memoizes it); without it only presence is checked. */
export function checkSnapshot(meta: Database<unknown, string | number>, sales: Database<unknown, string | number>, verdictOf?: (id: string) => { ok: boolean; detail: string }): BindingCheck {
  try {
    const id = meta.get(META_KEYS.currentSnapshot) as string | undefined;
    if (id === undefined) return { ok: false, detail: 'no sales snapshot ingested yet' };
    if (!sales.doesExist(id)) return { ok: false, detail: `current snapshot ${id} is missing from sales_snapshots` };
    const verdict = verdictOf?.(id);
    if (verdict && !verdict.ok) return { ok: false, detail: verdict.detail };
    return { ok: true, detail: verdict ? `current sales snapshot ${id} (sha256 verified)` : `current sales snapshot ${id}` };
  } catch (e) {
    return { ok: false, detail: `sales snapshot unreadable: ${(e as Error).message}` };
  }
}

/**
 * Active listings (status "active") and, among them, rows scored by another model version than `modelVersion`
 * (a `model_version` field written by the listings run; unscored rows are not counted as stale).
 */
export function listingsSummary(listings: Database<unknown, string | number>, modelVersion: string): { active: number; staleModelRows: number } {
  let active = 0;
  let staleModelRows = 0;
  for (const { value } of listings.getRange()) {
    const l = value as { status?: string; model_version?: string };
    if (l.status !== 'active') continue;
    active++;
    if (l.model_version !== undefined && l.model_version !== modelVersion) staleModelRows++;
  }
  return { active, staleModelRows };
}

export function lastRun(meta: Database<unknown, string | number>): LastRun | null {
  return (meta.get(LAST_RUN_META_KEY) as LastRun | undefined) ?? null;
}

/** Distinct tract vintages of the stored corpus ("; "-joined, sorted), null before the first ingest. */
export function corpusVintage(meta: Database<unknown, string | number>): string | null {
  const rec = meta.get(META_KEYS.lastIngest) as { corpus_vintage?: string } | undefined;
  return rec?.corpus_vintage ?? null;
}

export function tractList(tracts: Database<unknown, string | number>, vintage: string | null): PublicTractList {
  const out: PublicTract[] = [];
  for (const { value } of tracts.getRange()) {
    const t = value as { geoid: string; county: 'cook' | 'lake'; muni: string | null };
    out.push({
      geoid: t.geoid, county: t.county, muni: t.muni, flip_score: null, brrrr_score: null, effective_tax_rate: null,
      reassessment_shock: null, reassessment_status: null, section8_gap: null, safmr_2br: null,
    });
  }
  return { vintage: vintage ?? 'none', count: out.length, tracts: out };
}
