// Property-based parity: every front-end of the kernel (the WASM module, and the native addon when it is built; CI
// builds it, so there its absence fails) and the plain-TypeScript reference return the same selected comps (same
// order), the same rejection reasons, and statistics equal within 1e-9 relative, over generated corpora that include
// edge geographies (high latitude, next to the antimeridian, across the equator) and duplicate coordinates; and the
// native bulk entry (rayon) returns exactly the records of the WASM batch, in subject order, bit for bit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRefKernel, type RefKernel } from '../../bench/reference/index.js';
import { generateCorpus, subjectAt, type CorpusSpec } from '../../bench/kernel-corpus.js';
import { createKernel, nativeAddon, type Kernel, type KernelFrontEnd } from '../../src/kernel/index.js';
import { KERNEL_ERRORS, SUBJECT_LEN } from '../../src/kernel/abi-layout.js';
import { encodeSubjects } from '../../src/kernel/decode.js';
import type { CompsResult } from '../../src/kernel/types.js';

const END_DAY = 20_000;
const SPECS: CorpusSpec[] = [
  { n: 3000, seed: 11, region: 'town' },
  { n: 2000, seed: 12, region: 'town', dupCoordShare: 0.5 },
  { n: 3000, seed: 13, region: 'cookLake' },
  { n: 1500, seed: 14, region: 'highLat' },
  { n: 1500, seed: 15, region: 'antimeridian' },
  { n: 1500, seed: 16, region: 'equator', messShare: 0.3 },
];
const FRONT_ENDS: KernelFrontEnd[] = nativeAddon() || process.env.CI ? ['wasm', 'native'] : ['wasm'];
const corpora = SPECS.map((spec) => {
  const c = generateCorpus({ ...spec, endDay: END_DAY });
  const kernels = Object.fromEntries(FRONT_ENDS.map((f) => [f, createKernel(c.columns, c.timeIndex, { frontEnd: f })])) as Partial<Record<KernelFrontEnd, Kernel>>;
  return { c, kernels, ref: createRefKernel(c.columns, c.timeIndex), brute: createRefKernel(c.columns, c.timeIndex, { bruteForce: true }) };
});

const REL = 1e-9;
function close(a: number | null, b: number | null, what: string): void {
  if (a === null || b === null) return expect(a, what).toBe(b);
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(REL * Math.max(Math.abs(a), Math.abs(b), 1e-300));
}

export function expectParity(w: CompsResult, r: CompsResult): void {
  expect([w.step, w.nQualified], 'step, nQualified').toEqual([r.step, r.nQualified]);
  expect(w.accepted.map((c) => c.row), 'selected rows in rank order').toEqual(r.accepted.map((c) => c.row));
  expect(w.rejected, 'rejections').toEqual(r.rejected);
  w.accepted.forEach((c, i) => {
    const d = r.accepted[i];
    for (const k of ['distMi', 'indexFactor', 'indexedPrice', 'glaAdj', 'adjustedPrice', 'similarity'] as const) close(c[k], d[k], `comp ${c.row} ${k}`);
  });
  expect(w.stats.n).toBe(r.stats.n);
  for (const k of ['median', 'q25', 'q75', 'fsd'] as const) close(w.stats[k], r.stats[k], `stats.${k}`);
}

const arbCase = fc.record({ corpus: fc.nat({ max: corpora.length - 1 }), u: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 15, maxLength: 15 }) });

function runCase(k: Kernel | RefKernel, corpus: number, u: number[]): CompsResult {
  const { subject, opts } = subjectAt(corpora[corpus].c.columns, u, END_DAY);
  return k.queryComps(subject, opts);
}

describe.each(FRONT_ENDS)('%s kernel vs TypeScript reference', (frontEnd) => {
  const kernelOf = (corpus: number): Kernel => corpora[corpus].kernels[frontEnd] as Kernel;

  it('runs on the front-end it names', () => expect(kernelOf(0).frontEnd).toBe(frontEnd));

  it('agree on comps, rejections and statistics for 1,200 random subjects', () => {
    let withComps = 0;
    fc.assert(
      fc.property(arbCase, ({ corpus, u }) => {
        const w = runCase(kernelOf(corpus), corpus, u);
        expectParity(w, runCase(corpora[corpus].ref, corpus, u));
        if (w.accepted.length > 0) withComps++;
      }),
      { numRuns: 1200, seed: 20261121 },
    );
    // The generated subjects must exercise real comp sets, not mostly empty ones.
    expect(withComps).toBeGreaterThan(600);
  });

  it('batch returns what single queries return, minus rejection lists', () => {
    const { c } = corpora[0];
    const k = kernelOf(0);
    const cases = Array.from({ length: 200 }, (_, i) => subjectAt(c.columns, Array.from({ length: 15 }, (_, j) => ((i * 7919 + j * 104729) % 1000) / 1000), END_DAY));
    const batch = k.batch(cases.map((x) => x.subject), { maxStep: 3 });
    cases.forEach((x, i) => expect(batch[i]).toEqual({ ...k.queryComps(x.subject, { maxStep: 3 }), rejected: [] }));
  });
});

describe.skipIf(!FRONT_ENDS.includes('native'))('native bulk entry', () => {
  it('returns, for 1,500 subjects per corpus, the records of one-at-a-time calls and of the WASM batch bit for bit, in subject order', () => {
    for (const [i, { c, kernels }] of corpora.entries()) {
      const cases = Array.from({ length: 1500 }, (_, k) => subjectAt(c.columns, Array.from({ length: 15 }, (_, j) => ((k * 7919 + j * 104729 + i * 31) % 1000) / 1000), END_DAY));
      const packed = encodeSubjects(cases.map((x) => x.subject), { maxStep: 3 });
      const native = kernels.native as Kernel;
      const bulk = native.batchPacked(packed); // >= 64 subjects: the rayon entry
      const oneByOne = cases.flatMap((_, k) => Array.from(native.batchPacked(packed.subarray(k * SUBJECT_LEN, (k + 1) * SUBJECT_LEN))));
      expect(bulk.length).toBeGreaterThan(cases.length * 10);
      expect(Array.from(bulk)).toEqual(oneByOne); // toEqual compares with Object.is: NaN slots match, -0 vs 0 would not
      // Against WASM: the same records bit for bit (the native addon's ln/exp/sin/cos/asin are the libm code the WASM
      // module links, crates/avm-kernel/src/math.rs; with glibc's, ~0.3% of values differed in the last bit).
      const wasm = (kernels.wasm as Kernel).batchPacked(packed);
      const differing = bulk.reduce((n, x, k) => (Object.is(x, wasm[k]) ? n : n + 1), 0);
      expect(bulk.length).toBe(wasm.length);
      expect(differing, 'record slots whose bits differ from the WASM batch').toBe(0);
    }
  });

  it('bulk calls alternating between two indexes of one town give each its own records (rayon threads keep their memos across calls)', () => {
    // Two corpora over the same town, every subject valued as of one day (as score-all does): their grids overlap and
    // bucket positions, as-of day and windows coincide, so a window or factor memo kept by a thread from one index's
    // call and read in the other's would return the wrong rows.
    const pair = [corpora[0], corpora[1]].map(({ c, kernels }) => {
      const cases = Array.from({ length: 600 }, (_, k) => subjectAt(c.columns, Array.from({ length: 15 }, (_, j) => ((k * 7919 + j * 104729) % 1000) / 1000), END_DAY));
      const packed = encodeSubjects(cases.map((x) => ({ ...x.subject, asOfDay: END_DAY })), { maxStep: 3 });
      const native = kernels.native as Kernel;
      const oneByOne = cases.flatMap((_, k) => Array.from(native.batchPacked(packed.subarray(k * SUBJECT_LEN, (k + 1) * SUBJECT_LEN))));
      return { native, packed, oneByOne };
    });
    for (let round = 0; round < 4; round++) {
      for (const { native, packed, oneByOne } of pair) expect(Array.from(native.batchPacked(packed)), `round ${round}`).toEqual(oneByOne);
    }
  });

  it('batchView gives those records whether they outgrow the reused buffer (first call) or are written straight into it', () => {
    const { c } = corpora[2];
    const native = createKernel(c.columns, c.timeIndex, { frontEnd: 'native' });
    const cases = Array.from({ length: 1500 }, (_, k) => subjectAt(c.columns, Array.from({ length: 15 }, (_, j) => ((k * 7919 + j * 104729) % 1000) / 1000), END_DAY));
    const big = encodeSubjects(cases.map((x) => x.subject), { maxStep: 3 });
    const small = big.subarray(0, 100 * SUBJECT_LEN);
    const expected = Array.from(native.batchPacked(big));
    const expectedSmall = Array.from(native.batchPacked(small));
    expect(Array.from(native.batchView(big))).toEqual(expected);
    expect(Array.from(native.batchView(small))).toEqual(expectedSmall); // fits in the buffer the first call grew
    expect(Array.from(native.batchView(big))).toEqual(expected);
    // A view of the reused buffer handed back as input is copied first, never read while being written.
    const first80 = big.subarray(0, 80 * SUBJECT_LEN);
    const view = native.batchView(small); // 100 records of at least HEADER_LEN slots: room for 80 subjects
    view.set(first80);
    expect(Array.from(native.batchView(view.subarray(0, first80.length)))).toEqual(Array.from(native.batchPacked(first80)));
  });

  it('a caller that transfers a batchView buffer away leaves the door answering (a new buffer is bound)', () => {
    const { c } = corpora[2];
    const native = createKernel(c.columns, c.timeIndex, { frontEnd: 'native' });
    const cases = Array.from({ length: 20 }, (_, k) => subjectAt(c.columns, Array.from({ length: 15 }, (_, j) => ((k * 7919 + j * 104729) % 1000) / 1000), END_DAY));
    const packed = encodeSubjects(cases.map((x) => x.subject), { maxStep: 3 });
    const expected = Array.from(native.batchPacked(packed));
    const single = native.queryComps(cases[0].subject);
    const view = native.batchView(packed);
    structuredClone(view.buffer, { transfer: [view.buffer as ArrayBuffer] }); // detaches the door's reused buffer
    expect(view.length).toBe(0);
    expect(Array.from(native.batchView(new Float64Array(0)))).toEqual([]); // no subject: nothing to read, still no throw
    expect(Array.from(native.batchView(packed))).toEqual(expected);
    expect(native.queryComps(cases[0].subject)).toEqual(single);
  });

  it('the bound-buffer entry refuses a slot this thread holds no handle for, and arguments of other types', () => {
    const addon = nativeAddon()!;
    expect(() => addon.queryBound(2 ** 31, SUBJECT_LEN, false)).toThrow(/avm-kernel error/);
    expect(() => addon.bindIo(2 ** 31, new Float64Array(SUBJECT_LEN))).toThrow(/avm-kernel error/);
    // queryBound is registered on N-API directly (crates/avm-native/src/bound.rs): its own argument checks.
    const raw = addon.queryBound as unknown as (...args: unknown[]) => number;
    const badArgument = Object.entries(KERNEL_ERRORS).find(([, name]) => name === 'bad_argument')![0];
    for (const args of [[], [0, SUBJECT_LEN], ['0', SUBJECT_LEN, false], [0, SUBJECT_LEN, 1], [0, null, false]]) {
      expect(() => raw(...args), JSON.stringify(args)).toThrow(new RegExp(`avm-kernel error ${badArgument}\\b`));
    }
  });
});

describe('TypeScript reference', () => {
  it('grid search finds exactly what a full scan finds', () => {
    fc.assert(
      fc.property(arbCase, ({ corpus, u }) => {
        expect(runCase(corpora[corpus].ref, corpus, u)).toEqual(runCase(corpora[corpus].brute, corpus, u));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
