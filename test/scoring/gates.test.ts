import { describe, expect, it } from 'vitest';
import { economicsFactor, evaluateGates } from '../../src/scoring/gates.js';
import { nullEconomics, type Economics } from '../../src/underwriting/types.js';

const econ = (over: Partial<Economics>): Economics => ({ ...nullEconomics(), ...over });
const EPS = 1e-9;

describe('evaluateGates(strategy, economics) at the edges', () => {
  it('flip: margin ≥ 0.10 and max_offer ≥ price', () => {
    const base = { purchase_price: 200_000, max_offer: 200_000 };
    expect(evaluateGates('flip', econ({ ...base, profit_margin: 0.1 + EPS })).pass).toBe(true);
    expect(evaluateGates('flip', econ({ ...base, profit_margin: 0.1 - EPS })).failed).toEqual(['profit_margin']);
    expect(evaluateGates('flip', econ({ ...base, profit_margin: 0.2, max_offer: 200_000 - 0.01 })).failed).toEqual(['max_offer_over_price']);
  });
  it('brrrr: DSCR ≥ 1.2 and cash left ≤ 20% of all-in', () => {
    expect(evaluateGates('brrrr', econ({ dscr: 1.2 + EPS, cash_left_frac: 0.2 - EPS })).pass).toBe(true);
    expect(evaluateGates('brrrr', econ({ dscr: 1.2 - EPS, cash_left_frac: 0.1 })).failed).toEqual(['dscr']);
    expect(evaluateGates('brrrr', econ({ dscr: 1.5, cash_left_frac: 0.2 + EPS })).failed).toEqual(['cash_left_frac']);
  });
  it('hold: CoC ≥ 6% and DSCR ≥ 1.0', () => {
    expect(evaluateGates('hold', econ({ cash_on_cash: 0.06 + EPS, dscr: 1 + EPS })).pass).toBe(true);
    expect(evaluateGates('hold', econ({ cash_on_cash: 0.06 - EPS, dscr: 1.3 })).failed).toEqual(['cash_on_cash']);
    expect(evaluateGates('hold', econ({ cash_on_cash: 0.1, dscr: 1 - EPS })).failed).toEqual(['dscr']);
  });
  it('house_hack: net housing cost ≤ one unit rent, NOI ≥ 0, and FHA self-sufficiency when it applies', () => {
    const noi = 2_000;
    expect(evaluateGates('house_hack', econ({ owner_cost_to_rent: 1 - EPS, noi })).pass).toBe(true);
    expect(evaluateGates('house_hack', econ({ owner_cost_to_rent: 1 + EPS, noi })).pass).toBe(false);
    expect(evaluateGates('house_hack', econ({ owner_cost_to_rent: 0.5, noi, fha_self_sufficiency_pass: false })).failed).toEqual(['fha_self_sufficiency']);
    expect(evaluateGates('house_hack', econ({ owner_cost_to_rent: 0.5, noi, fha_self_sufficiency_pass: true })).pass).toBe(true);
  });
  it('house_hack: a negative NOI fails even when the owner cost clears (the issue-12 row: NOI −$4,435, DSCR −0.52)', () => {
    // Single-family "house hack": no rented unit, so NOI = −(taxes 2,935 + insurance 1,500); it passed on cost-to-rent 0.82.
    const row = econ({ owner_cost_to_rent: 0.82, noi: -4_435, dscr: -0.52 });
    expect(evaluateGates('house_hack', row).failed).toEqual(['noi']);
    expect(evaluateGates('house_hack', econ({ owner_cost_to_rent: 0.82, noi: 0 })).pass).toBe(true); // edge inclusive
    expect(evaluateGates('house_hack', econ({ owner_cost_to_rent: 0.82, noi: null })).failed).toEqual(['noi']);
    // DSCR below 1 is allowed on purpose: the owner's own unit pays no rent (owner_cost_to_rent measures that share).
    expect(evaluateGates('house_hack', econ({ owner_cost_to_rent: 0.82, noi: 1_000, dscr: 0.4 })).pass).toBe(true);
  });
  it('fails a gate whose metric is null (cannot be evaluated)', () => {
    expect(evaluateGates('hold', econ({ cash_on_cash: null, dscr: 2 })).failed).toEqual(['cash_on_cash']);
  });
});

describe('economicsFactor(strategy, economics)', () => {
  it('is 0 when a gate fails and the tightest relative clearance otherwise', () => {
    expect(economicsFactor('hold', econ({ cash_on_cash: 0.05, dscr: 2 }))).toBe(0);
    // clearances: CoC (0.09 − 0.06)/0.06 = 0.5; DSCR (1.25 − 1)/1 = 0.25 → min 0.25 / saturation 1 = 0.25
    expect(economicsFactor('hold', econ({ cash_on_cash: 0.09, dscr: 1.25 }))).toBeCloseTo(0.25, 12);
    // brrrr: DSCR (1.8 − 1.2)/1.2 = 0.5; cash left (0.2 − 0.05)/0.2 = 0.75 → 0.5
    expect(economicsFactor('brrrr', econ({ dscr: 1.8, cash_left_frac: 0.05 }))).toBeCloseTo(0.5, 12);
    // clears everything by more than 100% → saturates at 1
    expect(economicsFactor('brrrr', econ({ dscr: 3, cash_left_frac: -0.5 }))).toBe(1);
  });
  it('a zero threshold (house_hack NOI ≥ 0) gates but has no relative clearance: the other checks set the factor', () => {
    // owner cost (1 − 0.6)/1 = 0.4; the NOI check's clearance is null (no scale), so the factor is 0.4
    expect(economicsFactor('house_hack', econ({ owner_cost_to_rent: 0.6, noi: 5_000 }))).toBeCloseTo(0.4, 12);
    expect(economicsFactor('house_hack', econ({ owner_cost_to_rent: 0.6, noi: -1 }))).toBe(0);
  });
});
