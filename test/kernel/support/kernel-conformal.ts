// The kernel's avm_conformal (crates/avm-kernel/src/stats.rs), called straight through the ABI for the parity tests.
// Test-only: src serves split-conformal bounds from valuation/calibration/conformal.ts alone.
import type { KernelExports } from '../../../src/kernel/abi-layout.js';
import { kernelError } from '../../../src/kernel/decode.js';
import { instantiateKernel } from '../../../src/kernel/wasm.js';

let instance: KernelExports | undefined;

function compute(scores: ArrayLike<number>, alpha: number, twoSided: boolean): Float64Array {
  // An instance of its own: no sales columns needed.
  const k = (instance ??= instantiateKernel());
  const ptr = k.avm_input_ptr(scores.length); // may grow memory: take the buffer after it
  new Float64Array(k.memory.buffer, ptr, scores.length).set(scores);
  const code = k.avm_conformal(scores.length, alpha, twoSided ? 1 : 0);
  if (code !== 0) throw kernelError(code, 'conformal quantile');
  return new Float64Array(k.memory.buffer, k.avm_output_ptr(), k.avm_output_len()).slice();
}

/** Two-sided (1 − alpha) bounds: order statistics at ranks ⌊(n+1)α/2⌋ and ⌈(n+1)(1−α/2)⌉, clamped to [1, n]. */
export function kernelConformalInterval(ratios: ArrayLike<number>, alpha: number): { lo: number; hi: number } {
  const [lo, hi] = compute(ratios, alpha, true);
  return { lo, hi };
}

/** One-sided quantile at rank ⌈(n+1)(1−α)⌉, clamped to [1, n]. */
export function kernelConformalQuantile(scores: ArrayLike<number>, alpha: number): number {
  return compute(scores, alpha, false)[0];
}
