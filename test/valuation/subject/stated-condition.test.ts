// One rule for a subject's condition (statedCondition): a condition the caller or the listing states is used by the
// as-is strata, rehab scope and rent alike; the parcel record's (estimated at ingest from sale prices) is shown but
// priced as unknown by all three — never taken as fact by one and ignored by another.
import { describe, expect, it } from 'vitest';
import { valueProperty } from '../../../src/valuation/value.js';
import { CONDITION_CODE } from '../../../src/store/columns.js';
import { useScoringCorpus } from '../../support/scoring-corpus.js';

const fx = useScoringCorpus();

/** A parcel whose record carries an estimated dated/distressed condition. */
function parcelWithEstimate(): number {
  const p = fx.ctx.subjects.parcels!;
  for (let r = 0; r < p.condition.length; r++) if (p.condition[r] === CONDITION_CODE.dated || p.condition[r] === CONDITION_CODE.distressed) return r;
  throw new Error('no parcel with an estimated dated/distressed condition in the small corpus');
}

describe('statedCondition', () => {
  it('a parcel record\'s estimated condition is shown but rehab, rent and as-is price the subject as of unknown condition', () => {
    const v = valueProperty({ parcelRow: parcelWithEstimate() }, fx.ctx);
    expect(v.subject.condition_source).toBe('parcel_record');
    expect(['dated', 'distressed']).toContain(v.subject.condition);
    expect(v.rehab?.scope_source).toBe('default_condition_unknown');
    if (v.rent.method !== 'not_estimated') expect(v.rent.warnings).toContain('condition_unknown_priced_as_dated');
    if (v.value_as_is) expect(v.value_as_is.as_is_stratum).toBe('all_conditions');
  });

  it('a condition the caller states drives rehab scope and the as-is strata', () => {
    const v = valueProperty({ parcelRow: parcelWithEstimate(), condition: 'distressed' }, fx.ctx);
    expect(v.subject.condition_source).toBe('caller');
    expect(v.rehab?.scope_source).toBe('derived_from_condition');
    if (v.rent.method !== 'not_estimated') expect(v.rent.warnings ?? []).not.toContain('condition_unknown_priced_as_dated');
    if (v.value_as_is) expect(v.value_as_is.as_is_stratum).not.toBe('all_conditions');
  });
});
