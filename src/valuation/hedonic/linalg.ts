// Small dense linear algebra for the hedonic normal equations: Cholesky factorisation and solve of a p×p system.
import { AppError } from '../../errors/app-error.js';

/**
 * Solves A x = b for a symmetric positive-definite A (row-major p×p) by Cholesky A = L Lᵀ.
 * Throws internal_error when A is not positive definite (a collinear design the caller should have dropped).
 */
export function choleskySolve(a: Float64Array, b: Float64Array, p: number): Float64Array {
  const l = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * p + j];
      for (let k = 0; k < j; k++) s -= l[i * p + k] * l[j * p + k];
      if (i === j) {
        if (!(s > 0)) throw new AppError('internal_error', `normal equations not positive definite at column ${i}`);
        l[i * p + i] = Math.sqrt(s);
      } else l[i * p + j] = s / l[j * p + j];
    }
  }
  const y = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * p + k] * y[k];
    y[i] = s / l[i * p + i];
  }
  const x = new Float64Array(p);
  for (let i = p - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < p; k++) s -= l[k * p + i] * x[k];
    x[i] = s / l[i * p + i];
  }
  return x;
}
