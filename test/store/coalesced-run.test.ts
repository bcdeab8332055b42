// coalescedRun: one pass at a time; calls during a pass share it and cost one extra pass at most; idle() waits.
import { describe, expect, it } from 'vitest';
import { coalescedRun } from '../../src/store/coalesced-run.js';

describe('coalescedRun', () => {
  it('runs once per call when calls do not overlap', async () => {
    let passes = 0;
    const run = coalescedRun(async () => ++passes);
    expect(await run()).toBe(1);
    expect(await run()).toBe(2);
  });

  it('folds a burst of calls into the running pass plus one more, all answered by the last pass', async () => {
    let passes = 0;
    let release: () => void = () => undefined;
    const run = coalescedRun(async () => {
      passes++;
      if (passes === 1) await new Promise<void>((r) => (release = r));
      return passes;
    });
    const calls = [run(), run(), run(), run()];
    release();
    expect(await Promise.all(calls)).toEqual([2, 2, 2, 2]);
    expect(passes).toBe(2);
  });

  it('skips the extra pass once keepGoing says stop, and idle() waits for the pass in flight without throwing', async () => {
    let passes = 0;
    let stopped = false;
    let release: () => void = () => undefined;
    const run = coalescedRun(async () => {
      passes++;
      await new Promise<void>((r) => (release = r));
      throw new Error('pass failed');
    }, () => !stopped);
    const first = run();
    void run();
    stopped = true;
    const idle = run.idle();
    release();
    await expect(first).rejects.toThrow('pass failed');
    await idle;
    expect(passes).toBe(1);
  });
});
