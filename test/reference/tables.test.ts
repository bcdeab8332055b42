import { describe, expect, it } from 'vitest';
import { fmtNum, formatCsv, parseCsv } from '../../src/reference/csv.js';
import { unitsFromDesc } from '../../src/reference/derive/tables.js';

describe('unitsFromDesc(desc)', () => {
  it('reads digit and word ranges', () => {
    expect(unitsFromDesc('Apartment building with 2 to 6 units, any age')).toEqual({ min: 2, max: 6 });
    expect(unitsFromDesc('Two to six mixed-use apartments, any age, up to 20,000 sq. ft.')).toEqual({ min: 2, max: 6 });
  });
  it('reads an upper bound only', () => {
    expect(unitsFromDesc('a Bed & Breakfast ... with six or fewer rentable units and where one unit is owner occupied')).toEqual({ min: null, max: 6 });
  });
  it('is empty when no unit count is stated, even with other ranges', () => {
    expect(unitsFromDesc('One story residence, any age, 1,000 to 1,800 sq. ft.')).toEqual({ min: null, max: null });
    expect(unitsFromDesc('Condominium')).toEqual({ min: null, max: null });
  });
});

describe('parseCsv / formatCsv', () => {
  it('round-trips quoted commas, quotes and empty cells', () => {
    const text = formatCsv(['a', 'b', 'c'], [['x, y', 'say "hi"', null], [1, true, '']]);
    expect(text).toBe('a,b,c\n"x, y","say ""hi""",\n1,true,\n');
    expect(parseCsv(text)).toEqual([{ a: 'x, y', b: 'say "hi"', c: '' }, { a: '1', b: 'true', c: '' }]);
  });
  it('rejects a row with the wrong field count', () => {
    expect(() => parseCsv('a,b\n1,2,3\n')).toThrow(/3 fields/);
  });
});

describe('fmtNum(x, decimals)', () => {
  it('rounds and trims trailing zeros, empty for missing', () => {
    expect(fmtNum(0.0472368, 6)).toBe('0.047237');
    expect(fmtNum(3233.327, 2)).toBe('3233.33');
    expect(fmtNum(2.9160, 4)).toBe('2.916');
    expect(fmtNum(null, 2)).toBe('');
    expect(fmtNum(NaN, 2)).toBe('');
  });
});
