// Calendar days as integers (days since 1970-01-01 UTC), the unit every sale date, as-of date and time index is kept
// in: parse and format ISO dates, months and quarters without the local clock or time zone. The one date module.
import { AppError } from '../errors/app-error.js';

const MS_PER_DAY = 86_400_000;

/** Largest |day number| a Date can hold (±8.64e15 ms, ECMA-262 time range). */
const MAX_DATE_DAY = 100_000_000;

/**
 * Day number of an ISO date `YYYY-MM-DD` (a longer ISO timestamp is read by its date part); throws validation_failed
 * on anything that is not a calendar date (2026-02-30 included).
 */
export function dayOfIso(iso: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) throw new AppError('validation_failed', `not an ISO date: ${iso}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) throw new AppError('validation_failed', `not a calendar date: ${iso}`);
  return Math.round(ms / MS_PER_DAY);
}

/** Memo of day → ISO date outside isoOfDay's table: millions of rows and every comp of every valuation share a few thousand distinct days. */
const ISO_OF_DAY = new Map<number, string>();
const YEAR_OF_DAY = new Map<number, number>();
/** Entries kept before a memo is reset (about 270 years of days; only a pathological caller reaches it). */
const MEMO_MAX = 100_000;

function remember<V>(memo: Map<number, V>, day: number, value: V): V {
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(day, value);
  return value;
}

/**
 * isoOfDay's table for days 0 .. ISO_TABLE_DAYS − 1 (1970–2169): slot k > 0 of a day is ISO_TABLE_TEXT[k]. An indexed
 * read instead of a hash lookup: a dense subject's thousand rejected sales each format their date.
 */
const ISO_TABLE_DAYS = 73_000;
const ISO_TABLE_SLOT = new Int32Array(ISO_TABLE_DAYS);
const ISO_TABLE_TEXT: string[] = [''];

/** ISO `YYYY-MM-DD` of a day number. */
export function isoOfDay(day: number): string {
  if (day >= 0 && day < ISO_TABLE_DAYS && Number.isInteger(day)) {
    const slot = ISO_TABLE_SLOT[day];
    if (slot > 0) return ISO_TABLE_TEXT[slot];
    ISO_TABLE_SLOT[day] = ISO_TABLE_TEXT.push(isoText(day)) - 1;
    return ISO_TABLE_TEXT[ISO_TABLE_SLOT[day]];
  }
  return ISO_OF_DAY.get(day) ?? remember(ISO_OF_DAY, day, isoText(day));
}

/** The UTC date (ISO `YYYY-MM-DD`) of an instant: a valuation's as-of date when it names none, an alert digest's day. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

const isoText = (day: number): string => utcDay(new Date(day * MS_PER_DAY));

/** Calendar year of a day number. */
export function yearOfDay(day: number): number {
  return YEAR_OF_DAY.get(day) ?? remember(YEAR_OF_DAY, day, new Date(day * MS_PER_DAY).getUTCFullYear());
}

/** Calendar quarter label 'YYYYQn' of a day number. */
export function quarterOfDay(day: number): string {
  const d = new Date(day * MS_PER_DAY);
  return `${d.getUTCFullYear()}Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
}

/** Month number year*12 + (month − 1) of a day number, as the kernel computes it. */
export function monthOfDay(day: number): number {
  // Civil-from-days arithmetic (proleptic Gregorian, as Date's UTC calendar): no Date object per call, since the
  // area context indexes every pool sale through it. Outside Date's range (|day| > 1e8) Date gives NaN, as here.
  if (!(Math.abs(day) <= MAX_DATE_DAY)) return NaN;
  const z = Math.floor(day) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month0 = mp < 10 ? mp + 2 : mp - 10;
  return (yoe + era * 400 + (month0 <= 1 ? 1 : 0)) * 12 + month0;
}

/** First day number of a month number. */
export function firstDayOfMonth(month: number): number {
  return Math.floor(Date.UTC(Math.floor(month / 12), month % 12, 1) / MS_PER_DAY);
}
