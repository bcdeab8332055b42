// Which front-end of avm-kernel a process runs: AVM_KERNEL=native|wasm forces one; auto (the default) takes the
// native addon when it is built and loads here, else the portable WASM kernel. Decided once per thread (each worker
// inherits the environment), and checked once at start-up by the commands that value (assertKernelAvailable).
import { kernelSetting, type KernelSetting } from '../config.js';
import { AppError } from '../errors/app-error.js';
import { createWasmKernel, type Kernel, type KernelFrontEnd, type KernelOptions } from './kernel.js';
import { createNativeKernel } from './native-kernel.js';
import { loadNative, type NativeAddon, type NativeLoad } from './native.js';
import type { KernelColumns, TimeIndexSeries } from './types.js';

export type KernelChoice = { frontEnd: KernelFrontEnd; setting: KernelSetting; addon: NativeAddon | null; why: string };

let choice: KernelChoice | undefined;

function forcedNativeMissing(reason: string): AppError {
  return new AppError('kernel_error', `AVM_KERNEL=native but the native kernel addon is unavailable: ${reason}. Build it with \`npm run build:native\` (needs rustup's cargo), or unset AVM_KERNEL to use the WASM kernel.`);
}

/** The rule: forced wins (a forced native that cannot load is an error); auto takes native when it loaded. */
export function decideKernel(setting: KernelSetting, load: () => NativeLoad): KernelChoice {
  if (setting === 'wasm') return { frontEnd: 'wasm', setting, addon: null, why: 'AVM_KERNEL=wasm' };
  const l = load();
  if (l.addon) return { frontEnd: 'native', setting, addon: l.addon, why: `addon ${l.path}` };
  if (setting === 'native') throw forcedNativeMissing(l.reason);
  return { frontEnd: 'wasm', setting, addon: null, why: `native addon unavailable: ${l.reason}` };
}

/** The front-end of this thread, decided on first call. Throws kernel_error when native is forced but cannot load. */
export function kernelChoice(): KernelChoice {
  return (choice ??= decideKernel(kernelSetting(), loadNative));
}

/** The native addon when it loads here (tests and benches that run every front-end), else null. */
export function nativeAddon(): NativeAddon | null {
  return loadNative().addon;
}

/** Start-up check (serve, score-all): the chosen front-end and why, or the clear error of a forced one missing. */
export function assertKernelAvailable(): KernelChoice {
  return kernelChoice();
}

/** A kernel over `columns` and `timeIndex` on the chosen front-end (or `opts.frontEnd`). */
export function createKernel(columns: KernelColumns, timeIndex: readonly TimeIndexSeries[] = [], opts: KernelOptions = {}): Kernel {
  const frontEnd = opts.frontEnd ?? kernelChoice().frontEnd;
  if (frontEnd === 'wasm') return createWasmKernel(columns, timeIndex, opts);
  const load = loadNative();
  if (!load.addon) throw forcedNativeMissing(load.reason);
  return createNativeKernel(load.addon, columns, timeIndex, opts.params);
}
