// Shared underwriting inputs for the hand-computed pro-forma tests (each test states its own derivation).
import type { UnderwriteInput } from '../../src/underwriting/underwrite.js';

/** A point-actionable Chicago 2-flat; tests override what they exercise. */
export function pointInput(over: Partial<UnderwriteInput> = {}): UnderwriteInput {
  return {
    pointActionable: true,
    unscoredReason: null,
    arv: 320_000,
    asIsValue: null,
    price: 300_000,
    units: 2,
    rentMonthly: 3_000,
    rentS8: 3_400,
    taxAnnual: 6_000,
    rehab: 0,
    strategy: 'hold',
    horizonYears: 5,
    county: 'cook',
    isChicago: true,
    hoa: 0,
    ownerOccupied: false,
    mgmtSelf: false,
    ...over,
  };
}

/** Money tolerance: to the cent. */
export const CENTS = 2;
