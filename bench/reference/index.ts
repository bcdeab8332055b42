// The plain-TypeScript reference kernel (oracle for parity tests, baseline peer in bench/kernel.bench.ts).
import { deedClassTable, kernelParams, type KernelParams } from '../../src/kernel/params.js';
import type { CompsResult, KernelColumns, QueryOptions, Subject, TimeIndexSeries } from '../../src/kernel/types.js';
import { buildRefIndex } from './ref-index.js';
import { makeLevelOf } from './ref-math.js';
import { refQuery } from './ref-query.js';

export type RefKernel = { queryComps(s: Subject, opts?: QueryOptions): CompsResult; indexRows: number };

/** Builds the reference index; `bruteForce` scans every row per query instead of the grid cells. */
export function createRefKernel(columns: KernelColumns, timeIndex: readonly TimeIndexSeries[] = [], opts: { params?: KernelParams; bruteForce?: boolean } = {}): RefKernel {
  const p = opts.params ?? kernelParams();
  const levelOf = makeLevelOf(timeIndex);
  const ix = buildRefIndex(columns, p, deedClassTable(), levelOf, opts.bruteForce ?? false);
  return { queryComps: (s, q) => refQuery(ix, levelOf, p, s, q), indexRows: ix.row.length };
}
