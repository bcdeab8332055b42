// A parcel's earlier sales as evidence on a sale's class: only earlier ones, only within the same condition epoch.
import { describe, expect, it } from 'vitest';
import { parcelEvidence } from '../../../src/ingest/condition/parcel-evidence.js';
import type { Mixture } from '../../../src/ingest/condition/mixture.js';
import type { ConditionInput } from '../../../src/ingest/condition/types.js';

const M: Mixture = { mean: [-0.7, -0.2, 0], slope: [0, 0, 0], sd: [0.1, 0.1, 0.1], weight: [[1 / 3, 1 / 3, 1 / 3]], n: 100, logLik: Number.NaN };

/** One parcel, sales on the given days (only the columns the evidence reads). */
function parcel(days: number[]): ConditionInput {
  return { length: days.length, parcelIdx: new Uint32Array(days.length), saleDay: Int32Array.from(days) } as unknown as ConditionInput;
}

describe('parcelEvidence', () => {
  const x = parcel([0, 300, 600, 900]);
  const resid = Float64Array.from([0.02, -0.1, -0.7, 0.01]);
  const cost = new Float64Array(4);

  it('adds the class log-likelihoods of earlier sales only: the first sale gets none, the second the first\'s', () => {
    const e = parcelEvidence(x, M, [0, 1, 2, 3], resid, cost, new Set());
    expect([e[0], e[1], e[2]]).toEqual([0, 0, 0]);
    // the first sale sat at the renovated level: for the second, renovated is far likelier than distressed
    expect(e[3 + 2]).toBeGreaterThan(e[3 + 1]);
    expect(e[3 + 2]).toBeGreaterThan(e[3 + 0]);
  });

  it('a renovation resale starts a new epoch: sales before it say nothing about it or after it', () => {
    const e = parcelEvidence(x, M, [0, 1, 2, 3], resid, cost, new Set([3]));
    expect([e[9], e[10], e[11]]).toEqual([0, 0, 0]);
    const all = parcelEvidence(x, M, [0, 1, 2, 3], resid, cost, new Set());
    expect(all[9 + 2]).not.toBe(0);
  });
});
