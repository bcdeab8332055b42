// Finds, reads and compiles the committed kernel .wasm once per thread, and instantiates it. The file is resolved
// from the repo root (the folder holding package.json), so it works from src/*.ts under vitest and from dist/src/*.js.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors/app-error.js';
import { ABI_VERSION, type KernelExports } from './abi-layout.js';

/** Opaque compiled module (WebAssembly.Module); structured-cloneable, so a pool can compile once for all workers. */
export type WasmModule = { readonly __wasmModule?: never };
type WasmApi = {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (m: WasmModule, imports: object) => { exports: unknown };
};
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The repo root: the nearest ancestor of this file holding package.json. */
export function repoRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new AppError('kernel_error', `no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

export function kernelWasmPath(): string {
  return join(repoRoot(), 'src', 'kernel', 'avm_kernel.wasm');
}

let compiled: WasmModule | undefined;

/** The compiled kernel module of this thread (compiled on first use). */
export function kernelModule(): WasmModule {
  if (!compiled) {
    const path = kernelWasmPath();
    try {
      compiled = new WA.Module(readFileSync(path));
    } catch (e) {
      throw new AppError('kernel_error', `cannot load kernel wasm at ${path} (run npm run build:kernel)`, { cause: e });
    }
  }
  return compiled;
}

/** A fresh kernel instance (its own linear memory) of `module`, checked against the ABI version. */
export function instantiateKernel(module: WasmModule = kernelModule()): KernelExports {
  const exports = new WA.Instance(module, {}).exports as KernelExports;
  const version = exports.avm_abi_version();
  if (version !== ABI_VERSION) {
    throw new AppError('kernel_error', `kernel ABI ${version}, door expects ${ABI_VERSION}: rebuild the kernel`);
  }
  return exports;
}
