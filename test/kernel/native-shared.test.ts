// The native front-end's process-wide index: every thread that opens the same snapshot shares one built copy (a
// pool of 4 workers holds one index, as does a pool of 1), and the kernel selection rule (AVM_KERNEL). Needs the
// compiled worker for the pool part (`npm run build`) and the addon (`npm run build:native`; CI builds both).
import { afterAll, describe, expect, it } from 'vitest';
import { generateCorpus, subjectAt } from '../../bench/kernel-corpus.js';
import { ConfigError, kernelSetting } from '../../src/config.js';
import { createKernel, nativeAddon, type Kernel } from '../../src/kernel/index.js';
import { decideKernel } from '../../src/kernel/select.js';
import { missingExports, type NativeAddon } from '../../src/kernel/native.js';
import { createValuationPool, type ValuationPool } from '../../src/workers/index.js';

const addon = nativeAddon();
const END_DAY = 20_000;
const corpus = generateCorpus({ n: 20_000, seed: 31, region: 'cookLake', endDay: END_DAY });

describe('kernel selection (AVM_KERNEL)', () => {
  const missing = () => ({ addon: null, path: '/x/native/avm-native.linux-x64-gnu.node', reason: 'not built' });
  const present = () => ({ addon: {} as NativeAddon, path: '/x/native/avm-native.linux-x64-gnu.node' });

  it('auto takes the addon when it loads, else WASM with the reason; wasm never loads it', () => {
    expect(decideKernel('auto', present).frontEnd).toBe('native');
    expect(decideKernel('auto', missing)).toMatchObject({ frontEnd: 'wasm', why: expect.stringContaining('not built') });
    expect(decideKernel('wasm', () => { throw new Error('must not load'); }).frontEnd).toBe('wasm');
  });

  it('native forced but missing is a kernel_error naming how to build it', () => {
    expect(() => decideKernel('native', missing)).toThrow(expect.objectContaining({ code: 'kernel_error', message: expect.stringContaining('npm run build:native') }));
    expect(decideKernel('native', present).frontEnd).toBe('native');
  });

  it('names the door\'s exports a loaded addon lacks (a build from older sources loads with a matching ABI)', () => {
    const fn = () => 0;
    const current = { NativeKernel: fn, abiVersion: fn, bindIo: fn, queryBound: fn, liveIndexes: fn, indexSharers: fn, heapBytes: fn, bulkThreads: fn, conformal: fn };
    expect(missingExports(current)).toEqual([]);
    const { bindIo: _b, queryBound: _q, ...before } = current; // the 2026-11 build: querySlot, no bound buffer
    expect(missingExports({ ...before, querySlot: fn })).toEqual(['bindIo', 'queryBound']);
    if (addon) expect(missingExports(addon as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('reads AVM_KERNEL and refuses other values', () => {
    expect(kernelSetting({})).toBe('auto');
    expect(kernelSetting({ AVM_KERNEL: 'wasm' })).toBe('wasm');
    expect(() => kernelSetting({ AVM_KERNEL: 'gpu' })).toThrow(ConfigError);
  });
});

describe.skipIf(!addon && !process.env.CI)('native index shared by the threads of a process', () => {
  const pools: ValuationPool[] = [];
  afterAll(async () => Promise.all(pools.map((p) => p.close())));
  const a = addon as NativeAddon;

  it('a second kernel on the same columns joins the first index; other columns get their own', () => {
    const before = a.liveIndexes();
    const k1 = createKernel(corpus.columns, corpus.timeIndex, { frontEnd: 'native' });
    const k2 = createKernel(corpus.columns, corpus.timeIndex, { frontEnd: 'native' });
    expect(a.liveIndexes()).toBe(before + 1);
    const other = generateCorpus({ n: 500, seed: 32, region: 'town', endDay: END_DAY });
    const k3 = createKernel(other.columns, other.timeIndex, { frontEnd: 'native' });
    expect(a.liveIndexes()).toBe(before + 2);
    const { subject, opts } = subjectAt(corpus.columns, Array.from({ length: 15 }, (_, j) => (j * 37 % 100) / 100), END_DAY);
    expect(k2.queryComps(subject, opts)).toEqual(k1.queryComps(subject, opts));
    expect(k3.indexRows).toBeLessThan(k1.indexRows);
  });

  it('pools of 1 and 4 workers each hold one index, the one the main thread holds: memory does not grow with workers', async () => {
    const saved = process.env.AVM_KERNEL;
    process.env.AVM_KERNEL = 'native'; // the workers inherit it
    try {
      // Columns no other test opened: no earlier handle (collected or not) holds this index.
      const own = generateCorpus({ n: 20_000, seed: 33, region: 'cookLake', endDay: END_DAY });
      const main: Kernel = createKernel(own.columns, own.timeIndex, { frontEnd: 'native' });
      const key = main.indexKey as string;
      const sharers = a.indexSharers(key);
      const heap = a.heapBytes();
      for (const workers of [1, 4]) {
        const pool = await createValuationPool({ workers, maxQueue: 16, taskTimeoutMs: 30_000, snapshotLoader: () => ({ columns: own.columns, timeIndex: own.timeIndex }) });
        pools.push(pool);
        const stats = await Promise.all(Array.from({ length: workers * 2 }, () => pool.run<{ frontEnd: string; indexKey: string }>('kernelStats')));
        expect(stats.every((s) => s.frontEnd === 'native' && s.indexKey === key)).toBe(true);
        // Every worker's kernel holds the main thread's index (pools stay open, so handles add up: 1, then 1 + 4).
        expect(a.indexSharers(key)).toBe(sharers + (workers === 1 ? 1 : 5));
        // Per worker only a handle and its query buffers: well under 1% of the index per worker.
        expect(a.heapBytes() - heap).toBeLessThan(0.01 * workers * heap);
      }
      expect(main.indexRows).toBeGreaterThan(0); // keeps the main handle alive to the end
    } finally {
      if (saved === undefined) delete process.env.AVM_KERNEL;
      else process.env.AVM_KERNEL = saved;
    }
  });
});
