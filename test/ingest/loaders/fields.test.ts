import { describe, expect, it } from 'vitest';
import { parseCookPin, parseDate, parseDeedType, parseLakePin, parseNumber, parseZip } from '../../../src/ingest/loaders/fields.js';
import { ccaoClassPtype, lakeClassPtype, unitsFromCharApts } from '../../../src/ingest/loaders/classes.js';
import { DEED_CODE, PTYPE_CODE } from '../../../src/store/columns.js';

const ref = { file: 'f.csv', pos: { row: 4, line: 5 } };

describe('parseCookPin / parseLakePin', () => {
  it('normalizes dashed and plain PINs to the same number', () => {
    expect(parseCookPin(ref, 'pin', '17-01-101-001-0000')).toBe(17011010010000);
    expect(parseCookPin(ref, 'pin', '01011010010000')).toBe(1011010010000); // leading zero kept by padStart(14) on output
    expect(parseLakePin(ref, 'PIN', '15-22-301-008')).toBe(1522301008);
  });
  it('rejects wrong lengths and non-digits', () => {
    expect(() => parseCookPin(ref, 'pin', '1701101001000')).toThrow('f.csv: row 4 (line 5), column "pin": not a 14-digit Cook PIN: "1701101001000"');
    expect(() => parseLakePin(ref, 'PIN', '152230100A')).toThrow(/not a 10-digit Lake PIN/);
  });
});

describe('parseDate', () => {
  const day = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / 86_400_000;
  it('reads ISO dates, ISO timestamps, US dates and bare years (July 1, not exact)', () => {
    expect(parseDate(ref, 'd', '2019-06-26')).toEqual({ day: day(2019, 6, 26), year: 2019, exact: true });
    expect(parseDate(ref, 'd', '2019-06-26T00:00:00.000')).toEqual({ day: day(2019, 6, 26), year: 2019, exact: true });
    expect(parseDate(ref, 'd', '6/26/2019 12:00:00 AM')).toEqual({ day: day(2019, 6, 26), year: 2019, exact: true });
    expect(parseDate(ref, 'd', '2019')).toEqual({ day: day(2019, 7, 1), year: 2019, exact: false });
  });
  it('rejects impossible and empty dates', () => {
    expect(() => parseDate(ref, 'd', '2019-02-29')).toThrow(/not a calendar date/);
    expect(() => parseDate(ref, 'd', '')).toThrow(/date is missing/);
  });
});

describe('parseDeedType', () => {
  it('reads open-data text and numeric CCAO codes', () => {
    expect(['Warranty', 'Trustee', 'Quit Claim', 'quit claim', 'Executor', 'Other', 'Beneficiary', '03', '99', ''].map((s) => parseDeedType(ref, 'deed_type', s))).toEqual([
      DEED_CODE.warranty, DEED_CODE.trustee, DEED_CODE.quitclaim, DEED_CODE.quitclaim, DEED_CODE.executor, DEED_CODE.other, DEED_CODE.beneficiary,
      DEED_CODE.quitclaim, DEED_CODE.unknown, DEED_CODE.unknown,
    ]);
  });
  it('rejects unknown deed types and codes', () => {
    expect(() => parseDeedType(ref, 'deed_type', '7')).toThrow(/unknown deed type/);
  });
});

describe('parseNumber / parseZip', () => {
  it('empty is NaN; money strips $ and thousands separators only when asked', () => {
    expect(parseNumber(ref, 'n', '')).toBeNaN();
    expect(parseNumber(ref, 'n', '$1,500', { money: true })).toBe(1500);
    expect(() => parseNumber(ref, 'n', '1,500')).toThrow(/not a number/);
    expect(() => parseNumber(ref, 'n', '0x10')).toThrow(/not a number/);
  });
  it('cuts ZIP+4 and restores a dropped leading zero', () => {
    expect([parseZip(ref, 'z', '60601-1234'), parseZip(ref, 'z', '6060'), parseZip(ref, 'z', '')]).toEqual(['60601', '06060', '']);
  });
});

describe('property classes', () => {
  it('keeps CCAO 1-4 unit residential classes only', () => {
    expect(['203', '2-11', '212', '299', '234', '278', '213', '517', 'EX'].map(ccaoClassPtype)).toEqual([
      PTYPE_CODE.sfh, PTYPE_CODE.mf2_4, PTYPE_CODE.mf2_4, PTYPE_CODE.condo, PTYPE_CODE.sfh, PTYPE_CODE.sfh, null, null, null,
    ]);
  });
  it('decodes char_apts per vars_dict.csv (1 Two .. 5 Six, 6 None)', () => {
    expect([1, 2, 3, 4, 5, 6, 0].map(unitsFromCharApts)).toEqual([2, 3, 4, 5, 6, 0, 0]);
  });
  it('reads Lake GIS class words and CCAO-style codes', () => {
    expect(['Single Family', 'Multi Family 2-4', 'Condominium', '203', 'Commercial'].map(lakeClassPtype)).toEqual([PTYPE_CODE.sfh, PTYPE_CODE.mf2_4, PTYPE_CODE.condo, PTYPE_CODE.sfh, null]);
  });
});
