// The kernel door over the native addon: the same Kernel as the WASM door (kernel.ts), records decoded by the same
// decode.ts, but the index lives once per process (every worker thread's kernel holds the same copy) and large
// batches from the main thread run on the addon's rayon pool.
import { isMainThread } from 'node:worker_threads';
import { AppError } from '../errors/app-error.js';
import { SUBJECT_LEN } from './abi-layout.js';
import { kernelError, queryMethods } from './decode.js';
import type { Kernel } from './kernel.js';
import type { NativeAddon, NativeHandle } from './native.js';
import { recordViews } from './record-views.js';
import { conditionGroups, deedClassTable, kernelParams, paramSlots, type KernelParams } from './params.js';
import type { KernelColumns, TimeIndexSeries } from './types.js';

/** Batches of at least this many subjects go to the rayon entry; below it the split costs more than it saves. */
const PARALLEL_MIN_SUBJECTS = 64;
/**
 * Only the main thread fans a batch out over rayon. A worker thread is one of a pool that already keeps every core
 * busy: fanning its batches out as well put twice as many runnable threads as cores on the machine (and rayon's idle
 * threads spin before they sleep). Score-all on the county corpus, 8 alternating runs on the quiet machine: 28.7-36.8 s
 * wall and 53-67 s of CPU with the fan-out in the pool's workers, 24.6-27.5 s and 51-56 s without.
 */
const FAN_OUT = isMainThread;
/** The bulk entry's output when the records must come out into an array of their own (none fits in it). */
const EMPTY = new Float64Array(0);
/** Initial output buffer (f64 slots): a single query with its rejections fits in a few hundred; it grows on demand. */
const OUTPUT_START_SLOTS = 4096;

/** The addon's errors carry the kernel code (`avm-kernel error <code>`): mapped like the WASM door's codes. */
function addonError(what: string, e: unknown): AppError {
  const code = /avm-kernel error (\d+)/.exec((e as Error)?.message ?? '')?.[1];
  if (code !== undefined) return kernelError(Number(code), what);
  return new AppError('kernel_error', `native kernel failed during ${what}: ${(e as Error)?.message ?? e}`, { cause: e });
}

/** `f()` with an addon error mapped (addonError). */
function mapped<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw addonError(what, e);
  }
}

function conditionGroupTable(): Uint8Array {
  const t = Uint8Array.from({ length: 256 }, (_, code) => code); // one group per code unless set (abi.rs default_groups)
  for (const [code, group] of conditionGroups()) t[code] = group;
  return t;
}

function checkColumns(c: KernelColumns): void {
  const n = c.lat.length;
  for (const [name, col] of Object.entries(c)) {
    if (!col || (col as ArrayLike<number>).length !== n) throw new AppError('kernel_error', `column ${name}: ${col ? (col as ArrayLike<number>).length : 'missing'} rows, expected ${n}`);
  }
}

/** Opens (or joins) the process's index of `columns` + `timeIndex` under `params`. */
export function createNativeKernel(addon: NativeAddon, columns: KernelColumns, timeIndex: readonly TimeIndexSeries[] = [], params: KernelParams = kernelParams()): Kernel {
  checkColumns(columns);
  const series = timeIndex.map((s) => ({ county: s.county, months: Array.from(s.months), levels: Array.from(s.levels) }));
  const h: NativeHandle = mapped('build index', () =>
    addon.NativeKernel.open(Float64Array.from(paramSlots(params)), Uint8Array.from(deedClassTable()), conditionGroupTable(), series, columns),
  );
  const one = new Float64Array(SUBJECT_LEN);
  const slot = h.slot;
  let buf = new Float64Array(0);
  const view = recordViews();
  /** A larger reused buffer, bound to the handle as its single queries' buffer both ways (queryBound). */
  const grow = (slots: number): void => {
    buf = new Float64Array(slots);
    addon.bindIo(slot, buf);
  };
  grow(OUTPUT_START_SLOTS);
  /** The last call's `len` record slots in the reused buffer: already there, or grown and copied out of the handle. */
  const inBuf = (len: number): Float64Array => {
    if (len > buf.length) {
      grow(Math.max(len, 2 * buf.length));
      h.takeOutput(buf);
    }
    return view(buf, 0, len);
  };
  /**
   * The records of `packed` in this thread's reused buffer (valid until the next call); `keep`: the caller keeps them,
   * so the bulk entry's records come out of the handle into an array of their own (one copy, not two).
   */
  const exec = (packed: Float64Array, withRejected: boolean, keep = false): Float64Array => {
    if (FAN_OUT && !withRejected && packed.length >= PARALLEL_MIN_SUBJECTS * SUBJECT_LEN) {
      if (packed.buffer === buf.buffer) packed = packed.slice(); // never one array as both input and output
      if (keep) {
        const own = new Float64Array(mapped('comp batch', () => h.batchParallel(packed, EMPTY)));
        h.takeOutput(own);
        return own;
      }
      // Into the reused buffer: a fresh array of megabytes per bulk call kept the collector so busy that the peers
      // bench's county batch (1.5 M subjects in calls of 10,000) took 4.3 s instead of 2.6.
      return inBuf(mapped('comp batch', () => h.batchParallel(packed, buf)));
    }
    // Subjects in and records out through the bound buffer, by the handle's slot (queryBound: the cheapest crossing,
    // no typed array passed and no closure per call). A buffer some caller detached (transferring a batchView's buffer)
    // reads length 0: a new one is bound before the addon reads through the binding.
    if (packed.length > buf.length || buf.length === 0) grow(Math.max(packed.length, 2 * buf.length, OUTPUT_START_SLOTS));
    buf.set(packed);
    let len: number;
    try {
      len = addon.queryBound(slot, packed.length, withRejected);
    } catch (e) {
      throw addonError('comp batch', e);
    }
    return inBuf(len);
  };
  return {
    frontEnd: 'native',
    indexKey: h.indexKey,
    indexRows: h.indexRows,
    gridCells: h.gridCells,
    // A panic comes back as an exception (unwind) and touches no shared state: the handle stays usable.
    poisoned: () => false,
    memoryBytes: () => addon.heapBytes(),
    ...queryMethods(exec, one),
    batchView: (packed) => exec(packed, false),
    batchPacked: (packed) => {
      const out = exec(packed, false, true);
      return out.buffer === buf.buffer ? out.slice() : out; // callers keep it: never the reused buffer
    },
  };
}
