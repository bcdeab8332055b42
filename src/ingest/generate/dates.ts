// Calendar days as integers (days since 1970-01-01 UTC) for the generator: parse and format ISO dates without the
// local clock or time zone, so output never depends on where or when it runs.
import { AppError } from '../../errors/app-error.js';

const MS_PER_DAY = 86_400_000;

/** Day number of an ISO calendar date `YYYY-MM-DD`; throws validation_failed on anything else. */
export function dayFromIso(iso: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new AppError('validation_failed', `date must be YYYY-MM-DD, got '${iso}'`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
    throw new AppError('validation_failed', `not a calendar date: '${iso}'`);
  }
  return Math.round(ms / MS_PER_DAY);
}

// Millions of rows share a few thousand distinct days: memoize the formatting instead of building a Date per row.
const isoCache = new Map<number, string>();
const yearCache = new Map<number, number>();

/** ISO `YYYY-MM-DD` of a day number. */
export function isoFromDay(day: number): string {
  let s = isoCache.get(day);
  if (s === undefined) {
    s = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    isoCache.set(day, s);
  }
  return s;
}

/** Calendar year of a day number. */
export function yearOfDay(day: number): number {
  let y = yearCache.get(day);
  if (y === undefined) {
    y = new Date(day * MS_PER_DAY).getUTCFullYear();
    yearCache.set(day, y);
  }
  return y;
}
