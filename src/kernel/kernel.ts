// The one TypeScript door to the WASM kernel: loads the sales columns and time index into a kernel instance's
// linear memory once, then answers comp searches (single, batch).
import { AppError } from '../errors/app-error.js';
import { COLUMN_IDS, PARAM_LEN, SUBJECT_LEN, type KernelExports } from './abi-layout.js';
import { kernelError, queryMethods } from './decode.js';
import { recordViews } from './record-views.js';
import { conditionGroups, deedClassTable, kernelParams, paramSlots, type KernelParams } from './params.js';
import type { ColumnName, CompsResult, KernelColumns, QueryOptions, Subject, TimeIndexSeries } from './types.js';
import { instantiateKernel, type WasmModule } from './wasm.js';

export type Kernel = {
  /** Which front-end of avm-kernel answers: the WASM module (one instance per thread) or the native addon. */
  readonly frontEnd: KernelFrontEnd;
  /** Native only: content key of the process-wide index this kernel shares (equal keys, one copy). */
  readonly indexKey?: string;
  /** Rows in the spatial index (rows with usable coordinates). */
  readonly indexRows: number;
  readonly gridCells: number;
  /** True after the WASM instance trapped: its state is unknown, so callers must create a new kernel. */
  poisoned(): boolean;
  /** Bytes of this instance's linear memory. */
  memoryBytes(): number;
  queryComps(subject: Subject, opts?: QueryOptions): CompsResult;
  /**
   * queryComps without building its result: `visit` gets each accepted row (reason -1) then each rejected row with
   * its REJECTION_REASONS code, in queryComps' order. For callers that only fold over the rows (no object per row).
   */
  visitComps(subject: Subject, opts: QueryOptions, visit: (row: number, reasonCode: number) => void): void;
  /** Many subjects in one call (no rejection lists); a refused subject is its AppError in place. */
  batch(subjects: readonly Subject[], opts?: QueryOptions): Array<CompsResult | AppError>;
  /** Packed form for the pool: SUBJECT_LEN slots per subject in, the raw output records out (a copy). */
  batchPacked(subjects: Float64Array): Float64Array;
  /**
   * batchPacked without the copy: the records where the kernel left them, valid until this kernel's next call (a
   * small query's copy, an ArrayBuffer allocation, costs about as much as the query itself). For callers that read
   * the records before calling again.
   */
  batchView(subjects: Float64Array): Float64Array;
};

export type KernelFrontEnd = 'wasm' | 'native';

/** `frontEnd` forces one (default: select.ts's choice for this process); `module` is the compiled WASM to use. */
export type KernelOptions = { params?: KernelParams; module?: WasmModule; frontEnd?: KernelFrontEnd };

function check(code: number, what: string): void {
  if (code !== 0) throw kernelError(code, what);
}

/** A view at `ptr`; callers evaluate `ptr` (which may grow memory) before this reads memory.buffer. */
function f64View(k: KernelExports, ptr: number, len: number): Float64Array {
  return new Float64Array(k.memory.buffer, ptr, len);
}

function loadParams(k: KernelExports, p: KernelParams): void {
  f64View(k, k.avm_params_ptr(), PARAM_LEN).set(paramSlots(p));
  check(k.avm_set_params(), 'set params');
  deedClassTable().forEach((cls, code) => {
    if (cls !== 0) check(k.avm_set_deed_class(code, cls), 'set deed class');
  });
  for (const [code, group] of conditionGroups()) check(k.avm_set_condition_group(code, group), 'set condition group');
}

function loadColumns(k: KernelExports, c: KernelColumns): void {
  const n = c.lat.length;
  check(k.avm_columns_alloc(n), 'allocate columns');
  for (const name of Object.keys(COLUMN_IDS) as ColumnName[]) {
    const src = c[name];
    if (!src || src.length !== n) throw new AppError('kernel_error', `column ${name}: ${src ? src.length : 'missing'} rows, expected ${n}`);
    const { id, type } = COLUMN_IDS[name];
    // Views are re-made after every call: a call may grow memory and detach the old buffer.
    const ptr = k.avm_column_ptr(id);
    new type(k.memory.buffer, ptr, n).set(src as never);
  }
  check(k.avm_build_index(), 'build index');
}

function loadTimeIndex(k: KernelExports, series: readonly TimeIndexSeries[]): void {
  check(k.avm_time_index_clear(), 'clear time index');
  for (const s of series) {
    check(k.avm_time_index_alloc(s.months.length), 'allocate time index');
    const monthsPtr = k.avm_time_index_months_ptr();
    new Int32Array(k.memory.buffer, monthsPtr, s.months.length).set(s.months);
    f64View(k, k.avm_time_index_levels_ptr(), s.levels.length).set(s.levels);
    check(k.avm_time_index_set(s.county), `time index of county ${s.county}`);
  }
}

/**
 * The per-query path over a whole-memory view kept between calls (remade only after a memory growth detached it): a
 * query makes no view of its input and reads its output through a kept view (record-views.ts; or, copied, one
 * `slice`), where making views from `memory.buffer` at each call cost more than a small query's kernel time.
 */
function queryPath(k: KernelExports, onTrap: () => void) {
  let heap = new Float64Array(k.memory.buffer);
  const mem = (): Float64Array => (heap.length === 0 ? (heap = new Float64Array(k.memory.buffer)) : heap);
  const view = recordViews();
  return (packed: Float64Array, withRejected: boolean, copy: boolean): Float64Array => {
    let code: number;
    try {
      const at = k.avm_input_ptr(packed.length) / 8;
      mem().set(packed, at);
      code = k.avm_batch(packed.length / SUBJECT_LEN, withRejected ? 1 : 0);
    } catch (e) {
      // A trap (panic = abort) leaves the instance mid-call: never reuse it.
      onTrap();
      throw new AppError('kernel_error', 'kernel trapped during a comp batch', { cause: e });
    }
    check(code, 'comp batch');
    const at = k.avm_output_ptr() / 8;
    const len = k.avm_output_len();
    return copy ? mem().slice(at, at + len) : view(mem(), at, len);
  };
}

/** Loads `columns` and `timeIndex` into a new WASM kernel instance (one per thread; columns are copied once). */
export function createWasmKernel(columns: KernelColumns, timeIndex: readonly TimeIndexSeries[] = [], opts: KernelOptions = {}): Kernel {
  const k = instantiateKernel(opts.module);
  // Params, deed classes and the time index go in before the columns: the index build reads them.
  loadParams(k, opts.params ?? kernelParams());
  loadTimeIndex(k, timeIndex);
  loadColumns(k, columns);
  const one = new Float64Array(SUBJECT_LEN);
  let trapped = false;
  const path = queryPath(k, () => (trapped = true));
  const exec = (packed: Float64Array, withRejected: boolean, copy = false): Float64Array => {
    if (trapped) throw new AppError('kernel_error', 'kernel instance trapped earlier; create a new kernel');
    return path(packed, withRejected, copy);
  };
  return {
    frontEnd: 'wasm',
    indexRows: k.avm_index_rows(),
    gridCells: k.avm_index_cells(),
    poisoned: () => trapped,
    memoryBytes: () => k.memory.buffer.byteLength,
    ...queryMethods(exec, one),
    batchPacked: (packed) => exec(packed, false, true),
    batchView: (packed) => exec(packed, false),
  };
}
