// What the bench does with any SQL peer: load the CSVs and screen the sales, answer the per-subject candidate query,
// and run the whole-county grid join and step-1 valuation (timed to completion inside the database; the results are
// read back afterwards, untimed, for the checks).
import type { Subject } from '../../src/kernel/types.js';
import type { Digest, Value } from './ours.js';
import type { SqlPeer, Values } from './peer-db.js';
import { batchCandidatesSql, batchValuationSql, candidateSql, DDL, screenSql, type Prefilter } from './sql.js';
import { probeOf, SALES_COLUMNS, SUBJECT_COLUMNS, type Policy } from './tables.js';

export type CsvFiles = { sales: string; subjects: string; levels: string };
const ms = (t0: number): number => Math.round(performance.now() - t0);

/** Loads the three CSVs, builds the screened `sales` table; `extra` runs before the screen (indexes it needs). */
export async function loadPeer(peer: SqlPeer, f: CsvFiles, p: Policy, o: { beforeScreen?: string[]; extraColumns?: string; orderBy?: string } = {}) {
  const t0 = performance.now();
  for (const s of DDL) await peer.exec(s);
  await peer.loadCsv('sales_raw', SALES_COLUMNS, f.sales);
  await peer.loadCsv('subjects', SUBJECT_COLUMNS, f.subjects);
  await peer.loadCsv('ti_levels', 'county, month, level, ln_level', f.levels);
  const copyMs = ms(t0);
  const t1 = performance.now();
  for (const s of o.beforeScreen ?? []) await peer.exec(s);
  await peer.exec(screenSql(p, o.extraColumns, o.orderBy));
  const screenMs = ms(t1);
  const [[rows]] = await peer.rows('SELECT count(*) FROM sales');
  return { copy_ms: copyMs, screen_ms: screenMs, load_ms: copyMs + screenMs, indexed_rows: rows };
}

/** The per-subject query's bound values (see sql.ts candidateSql) for one prefilter. */
export function valuesOf(s: Subject, p: Policy, pre: Prefilter): Values {
  const q = probeOf(s, p.radiusMi, p.windowDays);
  const head = [...q.u, q.hMax, q.dayLo, s.asOfDay, s.ptype, s.county, s.stratumMask, s.excludeParcelIdx ?? -1, s.sqft, s.beds];
  if (pre === 'geog') return [...head, s.lon, s.lat, p.radiusMi * 1609.344 * 1.01];
  return [...head, q.box.lat0, q.box.lat1, q.box.lon0, q.box.lon1];
}

export async function candidateQuery(peer: SqlPeer, p: Policy, pre: Prefilter): Promise<(s: Subject) => Promise<number[]>> {
  const run = await peer.prepare(candidateSql(p, pre));
  return (s) => run(valuesOf(s, p, pre));
}

/**
 * Whole-county grid join and SQL valuation over `subjects` (a table name); times to completion, then reads back.
 * The grid join runs `candidateRuns` times and counts its fastest run (the host's slow phases last seconds; ours is
 * timed the same way, peers.bench.ts); the valuation, several times slower, runs once.
 */
export async function runBatch(peer: SqlPeer, p: Policy, hMax: number, subjects: string, candidateRuns = 1) {
  await peer.exec('DROP TABLE IF EXISTS batch_value');
  const candRunsMs: number[] = [];
  for (let run = 0; run < candidateRuns; run++) {
    await peer.exec('DROP TABLE IF EXISTS batch_cand');
    const t0 = performance.now();
    await peer.exec(batchCandidatesSql(p, hMax, subjects, 'batch_cand'));
    candRunsMs.push(ms(t0));
  }
  const t1 = performance.now();
  await peer.exec(batchValuationSql(p, hMax, subjects, 'batch_value'));
  const valueMs = ms(t1);
  const digests = new Map<number, Digest>();
  for (const [sid, n, sum, xor] of await peer.rows('SELECT sid, n, sum_row, xor_row FROM batch_cand')) digests.set(sid!, { n: n!, sum: sum!, xor: xor! });
  const values = new Map<number, Value>();
  for (const [sid, nq, n, v] of await peer.rows('SELECT sid, n_qualified, n, value FROM batch_value')) values.set(sid!, { nQualified: nq!, n: n!, value: v });
  return { candidates_ms: Math.min(...candRunsMs), candidates_runs_ms: candRunsMs, valuation_ms: valueMs, digests, values };
}
