// Bench subjects drawn the way `avm score-all` draws them: parcel rows of the corpus, evenly spaced (score-all's
// parcelRows), each resolved through the valuation's own path (resolveSubject → gates → tier1SubjectOf →
// kernelSubject, as valuation/bulk.ts decideBulk does) with score-all's as-of (asOfOf without a date: today), and
// queried in the ARV stratum with the full ladder. So a bench query finds the comps a real Tier-1 query finds (the
// random points of bench/kernel-corpus.ts subjectAt found 0.65 and 3.54 comps on average). Blocked parcels (outside
// mapped tracts, condos) and parcels that cannot be resolved are skipped, as score-all values none of them by Tier-1.
import { STRATUM } from '../src/kernel/params.js';
import type { QueryOptions, Subject } from '../src/kernel/types.js';
import { kernelSubject } from '../src/valuation/comps/tier1.js';
import { resolveSubject } from '../src/valuation/subject/subject.js';
import { asOfOf, gates, isBlocked, tier1SubjectOf } from '../src/valuation/value.js';
import type { ValuationContext } from '../src/valuation/value-context.js';

export type BenchCase = { subject: Subject; opts: QueryOptions; parcelRow: number };

/** Parcel rows score-all would value, evenly spaced over the parcel table (all of them when `limit` >= the count). */
export function scoreAllRows(parcelCount: number, limit = Infinity): Int32Array {
  const n = Math.min(parcelCount, limit);
  const step = parcelCount / Math.max(1, n);
  return Int32Array.from({ length: n }, (_, k) => Math.floor(k * step));
}

/** The Tier-1 kernel subject of one parcel row as score-all builds it, or null when score-all runs no Tier-1 for it. */
export function parcelCase(ctx: ValuationContext, parcelRow: number, asOf?: string): BenchCase | null {
  try {
    const input = { parcelRow, asOf: asOf ?? null };
    const r = resolveSubject(input, ctx.subjects);
    if (isBlocked(gates(r, ctx)) || r.ptypeCode === null) return null;
    const ts = tier1SubjectOf(r, ctx, asOfOf(input, ctx).asOfDay);
    return { subject: { ...kernelSubject(ts), stratumMask: STRATUM.arv }, opts: {}, parcelRow };
  } catch {
    return null; // property_not_found / validation_failed: score-all records an error row, no query
  }
}

/**
 * Up to `n` subjects from `ctx`'s parcels (evenly spaced rows; the skipped ones are not replaced, so fewer may come
 * back). `asOf` (ISO date) pins the as-of day; default today, as score-all.
 */
export function countySubjects(ctx: ValuationContext, n = Infinity, asOf?: string): BenchCase[] {
  const parcels = ctx.subjects.parcels;
  if (!parcels) throw new Error('the snapshot has no parcel table');
  const out: BenchCase[] = [];
  for (const row of scoreAllRows(parcels.length, n)) {
    const c = parcelCase(ctx, row, asOf);
    if (c) out.push(c);
  }
  return out;
}
