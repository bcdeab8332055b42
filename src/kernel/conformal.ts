// Split-conformal quantiles of calibration ratios, computed by the kernel (definitions in crates/avm-kernel/src/stats.rs):
// two-sided ranks ⌊(n+1)α/2⌋ and ⌈(n+1)(1−α/2)⌉, one-sided rank ⌈(n+1)(1−α)⌉, clamped to [1, n].
import { AppError } from '../errors/app-error.js';
import type { KernelExports } from './abi-layout.js';
import { kernelError } from './decode.js';
import { instantiateKernel } from './wasm.js';

let instance: KernelExports | undefined;

function compute(ratios: ArrayLike<number>, alpha: number, twoSided: boolean): Float64Array {
  if (ratios.length === 0 || !(alpha > 0 && alpha < 1)) {
    throw new AppError('validation_failed', `conformal quantile needs ratios and 0 < alpha < 1 (n=${ratios.length}, alpha=${alpha})`);
  }
  // A small instance of its own: no sales columns needed, and it never disturbs a loaded kernel's buffers.
  const k = (instance ??= instantiateKernel());
  const ptr = k.avm_input_ptr(ratios.length); // may grow memory: take the buffer after it
  new Float64Array(k.memory.buffer, ptr, ratios.length).set(ratios);
  const code = k.avm_conformal(ratios.length, alpha, twoSided ? 1 : 0);
  if (code !== 0) throw kernelError(code, 'conformal quantile');
  return new Float64Array(k.memory.buffer, k.avm_output_ptr(), k.avm_output_len()).slice();
}

/** Two-sided (1 − alpha) split-conformal bounds of the calibration ratios. */
export function conformalInterval(ratios: ArrayLike<number>, alpha: number): { lo: number; hi: number } {
  const [lo, hi] = compute(ratios, alpha, true);
  return { lo, hi };
}

/** One-sided split-conformal quantile at rank ⌈(n+1)(1−α)⌉ (e.g. of absolute errors, for a symmetric band). */
export function conformalQuantile(scores: ArrayLike<number>, alpha: number): number {
  return compute(scores, alpha, false)[0];
}
