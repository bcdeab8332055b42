// The map's key: the ramp from the lowest to the highest value the data has for the chosen tract signal, and the
// grey that means "no data" (a tract) or "unscored" (a listing), which is never the ramp's low end.
import { NO_DATA, RAMP, SIGNAL_LABELS, type Signal } from './map-layers.js';

const fmt = (s: Signal, v: number): string =>
  s === 'effective_tax_rate' ? `${(v * 100).toFixed(2)}%` : s === 'section8_gap' ? `$${Math.round(v)}` : v.toFixed(0);

function swatch(colour: string): HTMLSpanElement {
  const el = document.createElement('span');
  el.className = 'swatch';
  el.style.background = colour; // CSSOM, not a style attribute: allowed under style-src 'self'
  return el;
}

/** Redraws `root` for `signal` over `range` (null: no tract has a value for it). */
export function renderLegend(root: HTMLElement, signal: Signal, range: [number, number] | null): void {
  root.replaceChildren();
  const title = document.createElement('div');
  title.textContent = SIGNAL_LABELS[signal];
  const ramp = document.createElement('div');
  ramp.className = 'ramp';
  for (const c of RAMP) ramp.append(swatch(c));
  const ends = document.createElement('div');
  ends.className = 'ends';
  ends.textContent = range ? `${fmt(signal, range[0])} … ${fmt(signal, range[1])}` : 'no tract has a value';
  const none = document.createElement('div');
  none.append(swatch(NO_DATA), ' no data (tract) / unscored (listing)');
  root.append(title, ramp, ends, none);
}
