// Public surface of the kernel door.
export { createWasmKernel, type Kernel, type KernelFrontEnd, type KernelOptions } from './kernel.js';
export { createKernel, kernelChoice, assertKernelAvailable, nativeAddon, type KernelChoice } from './select.js';
export { columnsFromArrow, type ArrowLikeTable } from './arrow.js';
export { decodeBatch, encodeSubjects } from './decode.js';
export { kernelParams, paramSlots, STRATUM, conditionBit, deedClassTable, type KernelParams } from './params.js';
export { kernelModule, kernelWasmPath, repoRoot, type WasmModule } from './wasm.js';
export type * from './types.js';
