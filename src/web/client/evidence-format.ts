// Text of the numbers the evidence panel shows. Money goes through the display ladder's own rounding
// (roundDisplayedUsd, constants in the valuation_display registry group): the panel never shows more digits than the
// service would, and a range's bounds round outward exactly as the ladder rounds them.
import { roundDisplayedUsd, type RoundMode } from '../../valuation/decide/display-money.js';

/** "$363,000" (rounded as the ladder rounds); "−$5,200" for a negative adjustment; "—" when not known. */
export function usd(x: number | null | undefined, mode: RoundMode = 'nearest'): string {
  if (x == null || !Number.isFinite(x)) return '—';
  const r = roundDisplayedUsd(x, mode);
  return `${r < 0 ? '−' : ''}$${Math.abs(r).toLocaleString('en-US')}`;
}

/** A signed adjustment: "+$37,500", "−$5,200", "none" when null. */
export function signedUsd(x: number | null | undefined): string {
  if (x == null) return 'none';
  const text = usd(x);
  return x > 0 && text !== '$0' ? `+${text}` : text;
}

/** "low–high" with the bounds rounded outward; never a value between them. */
export function usdRange(low: number, high: number): string {
  return `${usd(low, 'down')}–${usd(high, 'up')}`;
}

/** Distance in miles, two decimals ("0.68 mi"). */
export function miles(d: number): string {
  return `${d.toFixed(2)} mi`;
}

/** A factor such as the time index ("×0.985"). */
export function factor(f: number): string {
  return `×${f.toFixed(3)}`;
}

/** A 0-1 score or probability as two decimals. */
export function score01(x: number | null | undefined): string {
  return x == null ? '—' : x.toFixed(2);
}

/** Plain text of an unknown value for a cell ("—" when missing). */
export function text(x: unknown): string {
  return x == null || x === '' ? '—' : String(x);
}
