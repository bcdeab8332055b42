// Finds and loads the native kernel addon (crates/avm-native, built by `npm run build:native` into native/) once per
// thread. The addon is optional: when it is absent or cannot load here (another platform, an old glibc, a stale build
// of another ABI, a build for CPU features this machine lacks) the reason is kept and the WASM kernel serves (select.ts).
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ABI_VERSION } from './abi-layout.js';
import type { KernelColumns } from './types.js';
import { repoRoot } from './wasm.js';

/** One time-index series as the addon takes it (plain arrays). */
export type NativeSeries = { county: number; months: number[]; levels: number[] };

/** A handle on the process-wide index (crates/avm-native/src/lib.rs NativeKernel). */
export type NativeHandle = {
  readonly indexRows: number;
  readonly gridCells: number;
  /** Content key of the shared index: handles with equal keys in one process share one copy. */
  readonly indexKey: string;
  /** This handle's slot for the addon's bindIo and queryBound (on the thread that opened it). */
  readonly slot: number;
  /** Copies the last call's records into `out` (its length at least theirs). */
  takeOutput(out: Float64Array): number;
  /** The rayon bulk entry (no rejections) into `out` when they fit; returns the records' length (more than `out`: takeOutput). */
  batchParallel(input: Float64Array, out: Float64Array): number;
};

/** The addon's exports (its generated native/index.d.ts, written here because native/ is a build output). */
export type NativeAddon = {
  NativeKernel: { open(params: Float64Array, deedClass: Uint8Array, conditionGroups: Uint8Array, series: NativeSeries[], columns: KernelColumns): NativeHandle };
  abiVersion(): number;
  /** Binds `io` to the handle at `slot` as its buffer both ways for queryBound (the handle keeps it alive while bound). */
  bindIo(slot: number, io: Float64Array): void;
  /** Answers on this thread for the handle at `slot`, through its bound buffer: reads the first `n` slots (subjects),
   * writes the records over them when they fit; returns their length (more than the buffer: takeOutput). A free
   * function on N-API itself (crates/avm-native/src/bound.rs): no `this` to unwrap, no typed array to pass, and no
   * napi-rs argument conversion. */
  queryBound(slot: number, n: number, withRejected: boolean): number;
  liveIndexes(): number;
  indexSharers(indexKey: string): number;
  heapBytes(): number;
  bulkThreads(): number;
  conformal(values: Float64Array, alpha: number, twoSided: boolean): Float64Array;
};

/** napi-rs's platform suffix for this process (linux glibc / musl, macOS, Windows). */
export function nativePlatform(): string {
  if (process.platform !== 'linux') return `${process.platform}-${process.arch}${process.platform === 'win32' ? '-msvc' : ''}`;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return `linux-${process.arch}-${header?.glibcVersionRuntime ? 'gnu' : 'musl'}`;
}

export function nativeAddonPath(): string {
  return join(repoRoot(), 'native', `avm-native.${nativePlatform()}.node`);
}

/** native/target-cpu.json as scripts/build-native.mjs writes it: the CPU level built for and the cpuinfo flags it needs. */
export type TargetCpu = { target_cpu: string; requires: string[] };

/**
 * The flags of `requires` a CPU lacks; `cpuinfo` is its /proc/cpuinfo text, null when unreadable (then none is
 * confirmed). Its flags line is read as scripts/build-native.mjs `cpuinfoFlags` reads it (the build runs before
 * anything is compiled, so the two cannot share the line; test/kernel/native-target-cpu.test.ts holds both).
 */
export function missingCpuFlags(requires: readonly string[], cpuinfo: string | null): string[] {
  const flags = new Set(cpuinfo === null ? [] : (/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1].trim().split(/\s+/) ?? []));
  return requires.filter((f) => !flags.has(f));
}

/**
 * Why the addon at `path`, built for `target` (null: built before builds recorded it, for the toolchain's default),
 * cannot run on a CPU with this cpuinfo, or null when it can. Checked before loading: the addon's own code could not
 * check, since an instruction the CPU lacks kills the process wherever it first runs.
 */
export function cpuProblem(path: string, target: TargetCpu | null, cpuinfo: string | null): string | null {
  if (!target) return null;
  const missing = missingCpuFlags(target.requires, cpuinfo);
  return missing.length === 0 ? null : `${path} was built for ${target.target_cpu} and this CPU lacks ${missing.join(', ')} (rebuild it on this machine: npm run build:native)`;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Bytes of /proc/cpuinfo read: the first processor's block, flags line included, many times over. */
const CPUINFO_HEAD_BYTES = 16_384;

/**
 * The start of /proc/cpuinfo (null where it cannot be read). Only the first processor's flags are read, and every
 * thread that loads the addon reads this: the kernel writes the file on demand, a block per processor (with a clock
 * reading each), so the whole of it on a machine of a hundred cores costs far more than its head.
 */
function cpuinfoHead(): string | null {
  let fd: number | null = null;
  try {
    fd = openSync('/proc/cpuinfo', 'r');
    const buf = Buffer.alloc(CPUINFO_HEAD_BYTES);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, null));
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The target recorded beside the addon, null when none is (or an error when the record is unreadable). */
function recordedTarget(): TargetCpu | null {
  const text = readOrNull(join(repoRoot(), 'native', 'target-cpu.json'));
  if (text === null) return null;
  const t = JSON.parse(text) as TargetCpu;
  if (typeof t?.target_cpu !== 'string' || !Array.isArray(t.requires)) throw new Error('native/target-cpu.json is not { target_cpu, requires }');
  return t;
}

export type NativeLoad = { addon: NativeAddon; path: string } | { addon: null; path: string; reason: string };

/** What the door calls on the addon: every export of NativeAddon (the compiler holds the two to the same names). */
const DOOR_EXPORTS = Object.keys({
  NativeKernel: true, abiVersion: true, bindIo: true, queryBound: true, liveIndexes: true, indexSharers: true, heapBytes: true, bulkThreads: true, conformal: true,
} satisfies Record<keyof NativeAddon, true>);

/** The door's exports a loaded addon lacks: a build from older sources, whose kernel ABI may still match. */
export function missingExports(addon: Record<string, unknown>): string[] {
  return DOOR_EXPORTS.filter((name) => typeof addon[name] !== 'function');
}

let loaded: NativeLoad | undefined;

/** The addon of this process (loaded on first use), or why it is not available. */
export function loadNative(): NativeLoad {
  if (loaded) return loaded;
  const path = nativeAddonPath();
  if (!existsSync(path)) return (loaded = { addon: null, path, reason: `${path} is not built` });
  try {
    const target = recordedTarget();
    const unfit = target && target.requires.length > 0 ? cpuProblem(path, target, cpuinfoHead()) : null;
    if (unfit) return (loaded = { addon: null, path, reason: unfit });
    const addon = createRequire(import.meta.url)(path) as NativeAddon;
    const version = addon.abiVersion();
    if (version !== ABI_VERSION) return (loaded = { addon: null, path, reason: `${path} has kernel ABI ${version}, the door expects ${ABI_VERSION} (a stale build)` });
    const missing = missingExports(addon as unknown as Record<string, unknown>);
    if (missing.length > 0) return (loaded = { addon: null, path, reason: `${path} lacks ${missing.join(', ')} (a stale build: npm run build:native)` });
    return (loaded = { addon, path });
  } catch (e) {
    return (loaded = { addon: null, path, reason: `${path} does not load here: ${(e as Error).message}` });
  }
}
