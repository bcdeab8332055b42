import { describe, expect, it } from 'vitest';
import { deriveCondition, parseConditionWord } from '../../../src/ingest/condition.js';
import { CONDITION_CODE } from '../../../src/store/columns.js';
import { INGEST } from '../../../src/registry/groups/ingest.js';

const facts = (yearBuilt: number, renovation: number, repairCnd: number) => ({ yearBuilt, renovation, repairCnd });
const AGE = INGEST.v.new_build_max_age_years; // 2 years

describe('deriveCondition(facts, saleYear)', () => {
  it('renovation flag wins over everything (even a new, below-average building)', () => {
    expect(deriveCondition(facts(2020, 1, 3), 2020)).toBe(CONDITION_CODE.renovated);
  });
  it(`built within ${AGE} years of the sale is new`, () => {
    expect(deriveCondition(facts(2018, 0, 3), 2018 + AGE)).toBe(CONDITION_CODE.new);
    expect(deriveCondition(facts(2017, 0, 2), 2017 + AGE + 1)).toBe(CONDITION_CODE.dated);
  });
  it('below-average repair (CCAO char_repair_cnd 3) is distressed', () => {
    expect(deriveCondition(facts(1950, 0, 3), 2020)).toBe(CONDITION_CODE.distressed);
  });
  it('average or above-average repair is dated', () => {
    expect(deriveCondition(facts(1950, 0, 1), 2020)).toBe(CONDITION_CODE.dated);
    expect(deriveCondition(facts(1950, 0, 2), 2020)).toBe(CONDITION_CODE.dated);
  });
  it('no characteristics is unknown', () => {
    expect(deriveCondition(null, 2020)).toBe(CONDITION_CODE.unknown);
  });
  it('only a year built (Lake GIS): new when recent, otherwise unknown', () => {
    expect(deriveCondition(facts(2019, NaN, NaN), 2020)).toBe(CONDITION_CODE.new);
    expect(deriveCondition(facts(1960, NaN, NaN), 2020)).toBe(CONDITION_CODE.unknown);
  });
});

describe('parseConditionWord(raw)', () => {
  it('reads the four words in any case, empty as unknown, anything else as null', () => {
    expect(['Distressed', 'dated', 'RENOVATED', 'new', ''].map(parseConditionWord)).toEqual([0, 1, 2, 3, 255]);
    expect(parseConditionWord('fixer')).toBeNull();
  });
});
