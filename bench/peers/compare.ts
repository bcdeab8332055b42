// Latency summaries and the agreement checks of the peers bench: candidate row sets exactly, batch digests exactly,
// step-1 values within a stated relative tolerance. Mismatches are counted and a few are kept as examples.
import type { Digest, Value } from './ours.js';

/** Relative tolerance of a SQL step-1 value against the kernel's (different median formulas: (a+b)/2 vs a+(b-a)/2,
 * and a database's ln/exp/asin may differ from the kernel's in the last bits). */
export const VALUE_REL_TOL = 1e-9;

const r2 = (x: number): number => Math.round(x * 100) / 100;

export type Latency = { median_us: number; p99_us: number; mean_us: number; total_ms: number; queries: number };

export function latencyOf(ms: readonly number[]): Latency {
  const s = Float64Array.from(ms).sort();
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))] ?? NaN;
  const total = ms.reduce((a, b) => a + b, 0);
  return { median_us: r2(q(0.5) * 1000), p99_us: r2(q(0.99) * 1000), mean_us: r2((total / Math.max(1, ms.length)) * 1000), total_ms: r2(total), queries: ms.length };
}

/**
 * Times `f` on every case in turn (one warm-up pass over the first `warm` cases, not counted). A call that answers
 * synchronously is timed to its return: awaiting a plain value would add a microtask turn (0.3-0.5 µs measured on
 * the kernel's queries) that the call does not cost; a promise is awaited inside the timing, as its caller must.
 * `keep: false` drops each answer once timed (`out` comes back empty), as a server does once it has replied: ours'
 * 5,000 CompsResult objects (~40 objects each) kept alive made every young-generation collection in the pass copy them
 * all, and after a full collection had shrunk the young generation that cost the native step-1 pass a mean of 18 µs
 * against 3.1.
 */
export async function timeEach<C, R>(cases: readonly C[], f: (c: C) => R | Promise<R>, { warm = 200, keep = true }: { warm?: number; keep?: boolean } = {}): Promise<{ ms: number[]; out: R[] }> {
  for (let i = 0; i < Math.min(warm, cases.length); i++) await f(cases[i]);
  const ms: number[] = [];
  const out: R[] = [];
  for (const c of cases) {
    const t0 = performance.now();
    const got = f(c);
    const r = got instanceof Promise ? await got : got;
    ms.push(performance.now() - t0);
    if (keep) out.push(r);
  }
  return { ms, out };
}

export type Check = { compared: number; mismatches: number; examples: unknown[] };
const check = (): Check => ({ compared: 0, mismatches: 0, examples: [] });
function miss(c: Check, example: unknown): void {
  c.mismatches++;
  if (c.examples.length < 5) c.examples.push(example);
}

/** Row sets per subject, exactly (both sorted ascending here). */
export function compareRowSets(truth: readonly number[][], got: readonly number[][]): Check {
  const c = check();
  truth.forEach((t, i) => {
    const g = [...got[i]].sort((a, b) => a - b);
    c.compared++;
    if (g.length !== t.length || g.some((r, k) => r !== t[k])) {
      const only = (a: readonly number[], b: readonly number[]) => a.filter((r) => !b.includes(r)).slice(0, 5);
      miss(c, { subject: i, kernel: t.length, peer: g.length, only_kernel: only(t, g), only_peer: only(g, t) });
    }
  });
  return c;
}

/** Batch digests keyed by subject id; a subject the peer did not return has no candidates. */
export function compareDigests(truth: ReadonlyMap<number, Digest>, got: ReadonlyMap<number, Digest>, sids: Iterable<number>): Check {
  const c = check();
  const none: Digest = { n: 0, sum: 0, xor: 0 };
  for (const sid of sids) {
    const [t, g] = [truth.get(sid) ?? none, got.get(sid) ?? none];
    c.compared++;
    if (t.n !== g.n || t.sum !== g.sum || t.xor !== g.xor) miss(c, { subject: sid, kernel: t, peer: g });
  }
  return c;
}

/** Step-1 values: qualified and selected counts exactly, the median within VALUE_REL_TOL. */
export function compareValues(truth: ReadonlyMap<number, Value>, got: ReadonlyMap<number, Value>, sids: Iterable<number>): Check & { max_rel_diff: number } {
  const c = { ...check(), max_rel_diff: 0 };
  const none: Value = { nQualified: 0, n: 0, value: null };
  for (const sid of sids) {
    const [t, g] = [truth.get(sid) ?? none, got.get(sid) ?? none];
    c.compared++;
    const rel = t.value === null || g.value === null ? (t.value === g.value ? 0 : Infinity) : Math.abs(t.value - g.value) / Math.abs(t.value);
    if (Number.isFinite(rel)) c.max_rel_diff = Math.max(c.max_rel_diff, rel);
    if (t.nQualified !== g.nQualified || t.n !== g.n || !(rel <= VALUE_REL_TOL)) miss(c, { subject: sid, kernel: t, peer: g });
  }
  return c;
}
