// Strategy hard gates (INV-4): each strategy is judged only against its own economics, with thresholds from the
// scoring constants group. Also defines economics_factor, the 0-1 clearance of the tightest gate.
import { SCORING } from '../registry/groups/scoring.js';
import type { Economics, Strategy } from '../underwriting/types.js';

const S = SCORING.v;

export type GateCheck = {
  metric: string;
  value: number | null;
  threshold: number;
  direction: 'min' | 'max';
  pass: boolean;
  /**
   * Relative clearance: (value − threshold)/|threshold| for a minimum, reversed for a maximum; null when value is
   * null, or when the threshold is 0 (a sign test such as NOI ≥ 0 has no scale: it gates, economics_factor skips it).
   */
  clearance: number | null;
};

export type GateResult = { strategy: Strategy; pass: boolean; checks: GateCheck[]; failed: string[] };

function check(metric: string, value: number | null, threshold: number, direction: 'min' | 'max'): GateCheck {
  if (value === null || !Number.isFinite(value)) return { metric, value: null, threshold, direction, pass: false, clearance: null };
  // Edges are inclusive: a deal exactly at the threshold passes.
  const pass = direction === 'min' ? value >= threshold : value <= threshold;
  const clearance = threshold === 0 ? null : (direction === 'min' ? value - threshold : threshold - value) / Math.abs(threshold);
  return { metric, value, threshold, direction, pass, clearance };
}

function ratio(a: number | null, b: number | null): number | null {
  return a === null || b === null || b === 0 ? null : a / b;
}

export function gateChecks(strategy: Strategy, e: Economics): GateCheck[] {
  switch (strategy) {
    case 'flip':
      return [check('profit_margin', e.profit_margin, S.flip_min_margin_frac, 'min'), check('max_offer_over_price', ratio(e.max_offer, e.purchase_price), 1, 'min')];
    case 'brrrr':
      return [check('dscr', e.dscr, S.brrrr_min_dscr, 'min'), check('cash_left_frac', e.cash_left_frac, S.brrrr_max_cash_left_frac, 'max')];
    case 'hold':
      return [check('cash_on_cash', e.cash_on_cash, S.hold_min_coc, 'min'), check('dscr', e.dscr, S.hold_min_dscr, 'min')];
    case 'house_hack': {
      // NOI of the rented units after the whole building's operating costs; DSCR is deliberately not gated (see the
      // house_hack_min_noi_usd entry): the owner's unit pays no rent, owner_cost_to_rent measures that share.
      const checks = [check('owner_cost_to_rent', e.owner_cost_to_rent, S.house_hack_max_cost_to_rent, 'max'), check('noi', e.noi, S.house_hack_min_noi_usd, 'min')];
      // FHA 3-4 units must pass self-sufficiency; null means the test does not apply.
      if (e.fha_self_sufficiency_pass !== null) checks.push(check('fha_self_sufficiency', e.fha_self_sufficiency_pass ? 1 : 0, 1, 'min'));
      return checks;
    }
  }
}

export function evaluateGates(strategy: Strategy, e: Economics): GateResult {
  const checks = gateChecks(strategy, e);
  const failed = checks.filter((c) => !c.pass).map((c) => c.metric);
  return { strategy, pass: failed.length === 0, checks, failed };
}

/**
 * economics_factor ∈ [0, 1]: 0 when any gate fails (or cannot be evaluated), else the smallest relative clearance
 * (over the checks that have one) divided by the saturation constant, clamped to 1. A deal just over its gates scores near 0, one clearing every
 * gate by 100% of its threshold scores 1.
 */
export function economicsFactor(strategy: Strategy, e: Economics): number {
  const g = evaluateGates(strategy, e);
  if (!g.pass) return 0;
  const clearances = g.checks.map((c) => c.clearance).filter((x): x is number => x !== null);
  if (clearances.length === 0) return 1;
  const minClear = Math.min(...clearances);
  return Math.min(1, Math.max(0, minClear / S.economics_factor_saturation));
}
