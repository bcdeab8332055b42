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

/** ISO `YYYY-MM-DD` of a day number. */
export function isoFromDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Calendar year of a day number. */
export function yearOfDay(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}
