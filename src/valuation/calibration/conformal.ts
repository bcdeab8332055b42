// Split-conformal ratio quantiles (the spec's q80_lo / q80_hi): the one definition the calibration job, the hedonic fit
// and the oracle use. The kernel's avm_conformal is the same in Rust (test/kernel/conformal-parity.test.ts holds them
// equal); src does not call it. Serving reads the stored table, not this.
import { AppError } from '../../errors/app-error.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';

export type ConformalQuantiles = {
  /** Interval for a new estimate v is [qLo × v, qHi × v]. */
  qLo: number;
  qHi: number;
  n: number;
  /** 1-based ranks into the ascending calibration ratios. */
  rankLo: number;
  rankHi: number;
};

/**
 * Guards floor/ceil against binary round-off: (1 − 0.8)/2 = 0.09999999999999998, so (19+1)·α/2 would floor to 1, not 2.
 * Exact while the products' round-off (about n·1e-16) stays far below it and their exact values are not within it of an
 * integer (for whole-percent coverages they are multiples of 1/200): every n a calibration set can have.
 */
const EPS = 1e-9;

/** The conformal ranks for a two-sided interval of nominal `coverage`, clamped to [1, n]. */
export function conformalRanks(n: number, coverage: number): { rankLo: number; rankHi: number } {
  if (!Number.isInteger(n) || n < 1) throw new AppError('validation_failed', 'conformal ranks need at least one calibration ratio');
  if (!(coverage > 0 && coverage < 1)) throw new AppError('validation_failed', 'coverage is a probability in (0, 1)');
  const tail = (1 - coverage) / 2;
  const rawLo = Math.floor((n + 1) * tail + EPS);
  const rawHi = Math.ceil((n + 1) * (1 - tail) - EPS);
  return { rankLo: Math.min(n, Math.max(1, rawLo)), rankHi: Math.min(n, Math.max(1, rawHi)) };
}

/**
 * Split-conformal quantiles of r = price / estimate on a calibration set disjoint from fitting:
 * order statistics at ranks floor((n+1)·α/2) and ceil((n+1)·(1−α/2)), α = 1 − coverage (0.1 and 0.9 for 80%),
 * clamped to [1, n]. With n < 9 at 80% the clamp makes the interval the sample range (no coverage guarantee).
 */
export function splitConformalQuantiles(estimates: readonly number[], prices: readonly number[], coverage = VALUATION_DISPLAY.v.interval_coverage): ConformalQuantiles {
  if (estimates.length !== prices.length) throw new AppError('validation_failed', 'estimates and prices differ in length');
  const ratios = estimates.map((e, i) => {
    const p = prices[i];
    if (!(e > 0 && p > 0 && Number.isFinite(e) && Number.isFinite(p))) throw new AppError('validation_failed', `calibration pair ${i} is not positive and finite`);
    return p / e;
  });
  ratios.sort((a, b) => a - b);
  const { rankLo, rankHi } = conformalRanks(ratios.length, coverage);
  return { qLo: ratios[rankLo - 1], qHi: ratios[rankHi - 1], n: ratios.length, rankLo, rankHi };
}
