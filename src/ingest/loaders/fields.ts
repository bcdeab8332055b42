// Field-level validation shared by the loaders: every bad value becomes an AppError `ingest_invalid_file` naming the
// file, the 1-based data row (and physical line) and the column. Empty means "absent"; callers decide if that is allowed.
import { AppError } from '../../errors/app-error.js';
import { INGEST } from '../../registry/groups/ingest.js';
import { DEED_CODE } from '../../store/columns.js';
import type { CsvPosition } from '../csv.js';

export type RowRef = { file: string; pos: CsvPosition };

/** The error every loader throws for a malformed file. `row` 0 means the header; `line` 0 means no line (GeoJSON). */
export function invalidFile(file: string, pos: CsvPosition | null, column: string | null, problem: string, value?: string): AppError {
  const line = pos !== null && pos.line > 0 ? ` (line ${pos.line})` : '';
  const where = pos === null ? 'file' : pos.row === 0 ? `header${line}` : `row ${pos.row}${line}`;
  const col = column === null ? '' : `, column "${column}"`;
  const val = value === undefined ? '' : `: ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value)}`;
  return new AppError('ingest_invalid_file', `${file}: ${where}${col}: ${problem}${val}`, {
    details: { file, row: pos?.row ?? null, line: pos?.line ?? null, column, problem, value: value ?? null },
  });
}

/** Maps each wanted column to its index in the header; a missing required column rejects the file. Optional → -1. */
export function resolveColumns(file: string, header: string[], required: readonly string[], optional: readonly string[]): Map<string, number> {
  const idx = new Map<string, number>();
  header.forEach((name, i) => {
    if (!idx.has(name)) idx.set(name, i);
  });
  for (const name of required) {
    if (!idx.has(name)) throw invalidFile(file, { row: 0, line: 1 }, name, 'required column is missing from the header');
  }
  const out = new Map<string, number>();
  for (const name of [...required, ...optional]) out.set(name, idx.get(name) ?? -1);
  return out;
}

/** Rejects a row whose field count differs from the header's (a ragged row means a broken export). */
export function checkWidth(ref: RowRef, fields: string[], header: string[]): void {
  if (fields.length === header.length) return;
  const column = fields.length < header.length ? header[fields.length] : '(extra field)';
  throw invalidFile(ref.file, ref.pos, column, `expected ${header.length} fields, found ${fields.length}`);
}

const NUMBER_RE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** True when `s` is only ASCII digits (the common case, checked without a regex). */
function isDigits(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** True for `-?digits(.digits)?` (coordinates, prices): the fast path; anything else goes through NUMBER_RE. */
function isPlainDecimal(s: string): boolean {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  let digits = 0;
  let dot = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && !dot) dot = true;
    else return false;
  }
  return digits > 0;
}

/** A finite decimal number, or NaN when the field is empty. Thousands separators and `$` are accepted (HUD files). */
export function parseNumber(ref: RowRef, column: string, raw: string, opts: { money?: boolean } = {}): number {
  if (isPlainDecimal(raw)) return Number(raw);
  let s = raw.trim();
  if (s === '') return NaN;
  if (opts.money) s = s.replace(/[$,]/g, '');
  if (!NUMBER_RE.test(s)) throw invalidFile(ref.file, ref.pos, column, 'not a number', raw);
  return Number(s);
}

/** Like parseNumber but the value must be present. */
export function requireNumber(ref: RowRef, column: string, raw: string, opts: { money?: boolean } = {}): number {
  const v = parseNumber(ref, column, raw, opts);
  if (Number.isNaN(v)) throw invalidFile(ref.file, ref.pos, column, 'value is missing');
  return v;
}

/** An integer (a trailing ".0" from spreadsheet exports is accepted), or NaN when empty. */
export function parseInteger(ref: RowRef, column: string, raw: string): number {
  const v = parseNumber(ref, column, raw);
  if (!Number.isNaN(v) && !Number.isInteger(v)) throw invalidFile(ref.file, ref.pos, column, 'not an integer', raw);
  return v;
}

/** Latitude/longitude inside the Illinois extent, or NaN when empty. */
export function parseCoord(ref: RowRef, column: string, raw: string, axis: 'lat' | 'lon'): number {
  const v = parseNumber(ref, column, raw);
  if (Number.isNaN(v)) return v;
  const [lo, hi] = axis === 'lat' ? INGEST.v.illinois_lat_deg : INGEST.v.illinois_lon_deg;
  if (v < lo || v > hi) throw invalidFile(ref.file, ref.pos, column, `${axis === 'lat' ? 'latitude' : 'longitude'} outside Illinois [${lo}, ${hi}]`, raw);
  return v;
}

export type ParsedDate = { day: number; year: number; exact: boolean };

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const US_RE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/;
const YEAR_RE = /^(\d{4})$/;
const MS_PER_DAY = 86_400_000;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Inclusive plausibility window for any year a raw file carries (tax year, sale date, year built). */
export const [MIN_PLAUSIBLE_YEAR, MAX_PLAUSIBLE_YEAR] = INGEST.v.plausible_year_bounds;
export const isPlausibleYear = (y: number): boolean => y >= MIN_PLAUSIBLE_YEAR && y <= MAX_PLAUSIBLE_YEAR;
const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const digitAt = (s: string, i: number): number => s.charCodeAt(i) - 48;
const ISO_DIGIT_POS = [0, 1, 2, 3, 5, 6, 8, 9];

/** `YYYY-MM-DD` at the start of `s` as [y, m, d] when it has that shape (no calendar check), else null. */
function isoPrefix(s: string): [number, number, number] | null {
  if (s.length < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return null;
  for (const i of ISO_DIGIT_POS) if (!(digitAt(s, i) >= 0 && digitAt(s, i) <= 9)) return null;
  const y = digitAt(s, 0) * 1000 + digitAt(s, 1) * 100 + digitAt(s, 2) * 10 + digitAt(s, 3);
  return [y, digitAt(s, 5) * 10 + digitAt(s, 6), digitAt(s, 8) * 10 + digitAt(s, 9)];
}

/** A sale or event date: `YYYY-MM-DD`, ISO timestamp, `M/D/YYYY[ time]`, or a bare year (July 1, not exact). */
export function parseDate(ref: RowRef, column: string, raw: string): ParsedDate {
  const fast = raw.length === 10 ? isoPrefix(raw) : null;
  let ymd: [number, number, number];
  let exact = true;
  if (fast) ymd = fast;
  else {
    const s = raw.trim();
    let hit = ISO_RE.exec(s);
    if (hit) ymd = [Number(hit[1]), Number(hit[2]), Number(hit[3])];
    else if ((hit = US_RE.exec(s))) ymd = [Number(hit[3]), Number(hit[1]), Number(hit[2])];
    else if ((hit = YEAR_RE.exec(s))) [ymd, exact] = [[Number(hit[1]), 7, 1], false];
    else throw invalidFile(ref.file, ref.pos, column, s === '' ? 'date is missing' : 'not a date (YYYY-MM-DD, ISO timestamp or M/D/YYYY)', raw);
  }
  const [y, m, d] = ymd;
  const monthDays = m === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[m - 1];
  if (!isPlausibleYear(y) || monthDays === undefined || d < 1 || d > monthDays) throw invalidFile(ref.file, ref.pos, column, 'not a calendar date', raw);
  return { day: Math.floor(Date.UTC(y, m - 1, d) / MS_PER_DAY), year: y, exact };
}

/** Cook PIN: exactly 14 digits, dashes allowed (`17-01-101-001-0000`). Returned as a number (exact below 2^53). */
export function parseCookPin(ref: RowRef, column: string, raw: string): number {
  if (raw.length === 14 && isDigits(raw)) return Number(raw);
  const digits = raw.trim().replace(/-/g, '');
  if (!/^\d{14}$/.test(digits)) throw invalidFile(ref.file, ref.pos, column, 'not a 14-digit Cook PIN', raw);
  return Number(digits);
}

/** Lake PIN: exactly 10 digits, dashes allowed (`15-22-301-008`). */
export function parseLakePin(ref: RowRef, column: string, raw: string): number {
  if (raw.length === 10 && isDigits(raw)) return Number(raw);
  const digits = raw.trim().replace(/-/g, '');
  if (!/^\d{10}$/.test(digits)) throw invalidFile(ref.file, ref.pos, column, 'not a 10-digit Lake PIN', raw);
  return Number(digits);
}

/** An 11-digit census tract GEOID, or null when empty. */
export function parseGeoid(ref: RowRef, column: string, raw: string): string | null {
  const s = raw.trim();
  if (s === '') return null;
  if (!/^\d{11}$/.test(s)) throw invalidFile(ref.file, ref.pos, column, 'not an 11-digit census tract GEOID', raw);
  return s;
}

/** A 5-digit ZIP (ZIP+4 is cut to 5), or '' when empty. */
export function parseZip(ref: RowRef, column: string, raw: string): string {
  if (raw.length === 5 && isDigits(raw)) return raw;
  const s = raw.trim();
  if (s === '') return '';
  const m = /^(\d{5})(?:-\d{4})?$/.exec(s) ?? (/^\d{4}$/.test(s) ? [s, `0${s}`] : null);
  if (!m) throw invalidFile(ref.file, ref.pos, column, 'not a 5-digit ZIP code', raw);
  return m[1];
}

const DEED_TEXT: Record<string, number> = {
  warranty: DEED_CODE.warranty, trustee: DEED_CODE.trustee, quitclaim: DEED_CODE.quitclaim, executor: DEED_CODE.executor,
  other: DEED_CODE.other, beneficiary: DEED_CODE.beneficiary, unknown: DEED_CODE.unknown,
};
const DEED_NUMBERS = new Set<number>(Object.values(DEED_CODE));
/** The open-data spellings as written, for a lookup without normalizing (the normalizing path accepts the rest). */
const DEED_EXACT = new Map<string, number>([
  ['Warranty', DEED_CODE.warranty], ['Trustee', DEED_CODE.trustee], ['Quit Claim', DEED_CODE.quitclaim], ['Quit claim', DEED_CODE.quitclaim],
  ['Executor', DEED_CODE.executor], ['Other', DEED_CODE.other], ['Beneficiary', DEED_CODE.beneficiary], ['Unknown', DEED_CODE.unknown],
]);

/** CCAO deed type as open-data text ("Warranty", "Quit Claim"...) or numeric code 1-6/99; empty → unknown (99). */
export function parseDeedType(ref: RowRef, column: string, raw: string): number {
  const exact = DEED_EXACT.get(raw);
  if (exact !== undefined) return exact;
  const s = raw.trim();
  if (s === '') return DEED_CODE.unknown;
  if (/^\d+$/.test(s) && DEED_NUMBERS.has(Number(s))) return Number(s);
  const key = s.toLowerCase().replace(/[^a-z]/g, '').replace(/deed$/, '');
  const code = DEED_TEXT[key];
  if (code === undefined) throw invalidFile(ref.file, ref.pos, column, 'unknown deed type (Warranty, Trustee, Quit Claim, Executor, Other, Beneficiary or CCAO code 1-6/99)', raw);
  return code;
}
