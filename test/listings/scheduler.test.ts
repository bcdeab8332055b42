// nextRunAt / startListingsScheduler: the daily run fires at 13:00 UTC, re-arms for the next day, survives a failing
// run, and computes across midnight and the 13:00 boundary from an injected clock (fake timers).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextRunAt, startListingsScheduler } from '../../src/listings/scheduler.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('nextRunAt', () => {
  it('is today 13:00 UTC before 13:00, tomorrow from 13:00 exactly, and crosses midnight and month ends', () => {
    expect(nextRunAt(new Date('2026-11-21T12:59:59.999Z')).toISOString()).toBe('2026-11-21T13:00:00.000Z');
    expect(nextRunAt(new Date('2026-11-21T13:00:00.000Z')).toISOString()).toBe('2026-11-22T13:00:00.000Z');
    expect(nextRunAt(new Date('2026-11-21T23:59:59.000Z')).toISOString()).toBe('2026-11-22T13:00:00.000Z');
    expect(nextRunAt(new Date('2026-11-22T00:00:00.000Z')).toISOString()).toBe('2026-11-22T13:00:00.000Z');
    expect(nextRunAt(new Date('2026-12-31T18:00:00.000Z')).toISOString()).toBe('2027-01-01T13:00:00.000Z');
  });

  it('rejects an hour outside 0-23', () => {
    expect(() => nextRunAt(new Date(), 24)).toThrow(RangeError);
  });
});

describe('startListingsScheduler', () => {
  it('fires at 13:00 UTC, then every following day at 13:00, and continues after a failed run', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-21T22:30:00.000Z'));
    const fired: string[] = [];
    const errors: unknown[] = [];
    let fail = true;
    const s = startListingsScheduler({
      run: async () => {
        fired.push(new Date().toISOString());
        if (fail) {
          fail = false;
          throw new Error('feed down');
        }
      },
      onError: (e) => errors.push(e),
    });
    expect(s.nextRunAt()?.toISOString()).toBe('2026-11-22T13:00:00.000Z');
    await vi.advanceTimersByTimeAsync(14.5 * 3_600_000 - 1); // 12:59:59.999 next day
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toEqual(['2026-11-22T13:00:00.000Z']);
    expect(errors).toHaveLength(1);
    expect(s.nextRunAt()?.toISOString()).toBe('2026-11-23T13:00:00.000Z');
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(fired).toEqual(['2026-11-22T13:00:00.000Z', '2026-11-23T13:00:00.000Z']);
    s.stop();
    await vi.advanceTimersByTimeAsync(48 * 3_600_000);
    expect(fired).toHaveLength(2);
    expect(s.nextRunAt()).toBeNull();
  });
});
