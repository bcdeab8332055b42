// The TypeScript door to the kernel, on each front-end (WASM, native addon): hand-computed results through the ABI,
// error mapping to the taxonomy, packed batches; then the Arrow adapter and locating the committed .wasm.
import { tableFromArrays } from 'apache-arrow';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/kernel-corpus.js';
import { AppError } from '../../src/errors/app-error.js';
import { columnsFromArrow, createKernel as createAnyKernel, kernelWasmPath, nativeAddon, STRATUM, type KernelFrontEnd } from '../../src/kernel/index.js';
import { decodeBatch, decodeOne, decodeSummary, encodeSubjects, recordOffsets, repackSubjects, selectedRows } from '../../src/kernel/decode.js';
import type { KernelColumns, Subject, TimeIndexSeries } from '../../src/kernel/types.js';
import { REJECTION_REASONS, SALES_COLUMNS } from '../../src/store/columns.js';

const MI_PER_DEG = 69.0941; // 3958.8 mi × π / 180
const AS_OF = 20_000;
/** Every front-end here: the native addon when built (CI builds it, so there it must load). */
const FRONT_ENDS: KernelFrontEnd[] = nativeAddon() || process.env.CI ? ['wasm', 'native'] : ['wasm'];

/** Rows due north of (42, -87.7) at `northMi`, renovated SFH in Cook, warranty deeds. */
function corpus(rows: Array<{ northMi: number; ageDays: number; price: number; sqft: number }>): KernelColumns {
  const n = rows.length;
  return {
    parcelIdx: Uint32Array.from(rows.map((_, i) => i)), county: new Uint8Array(n).fill(1),
    lat: Float64Array.from(rows.map((r) => 42 + r.northMi / MI_PER_DEG)), lon: new Float64Array(n).fill(-87.7),
    saleDay: Int32Array.from(rows.map((r) => AS_OF - r.ageDays)), priceUsd: Float64Array.from(rows.map((r) => r.price)),
    sqft: Float64Array.from(rows.map((r) => r.sqft)), beds: new Int8Array(n).fill(3), ptype: new Uint8Array(n),
    condition: new Uint8Array(n).fill(2), deedType: new Uint8Array(n).fill(1), numParcels: new Uint16Array(n).fill(1),
  };
}

const subject = (over: Partial<Subject> = {}): Subject => ({ lat: 42, lon: -87.7, sqft: 1500, beds: 3, ptype: 0, county: 1, asOfDay: AS_OF, stratumMask: STRATUM.arv, ...over });

describe.each(FRONT_ENDS)('kernel door (%s)', (frontEnd) => {
  const createKernel = (c: KernelColumns, ti: TimeIndexSeries[] = []) => createAnyKernel(c, ti, { frontEnd });

  it('returns the hand-computed GLA adjustment and median through the ABI', () => {
    // Two 1400 sqft comps at $280,000 ($200/sf): marginal 0.5 × 200 = $100/sf, adj 100 × 100 = $10,000, adjusted $290,000.
    const k = createKernel(corpus([{ northMi: 0.1, ageDays: 10, price: 280_000, sqft: 1400 }, { northMi: 0.2, ageDays: 20, price: 280_000, sqft: 1400 }]));
    const r = k.queryComps(subject());
    expect(r.step).toBe(1); // fewer than 5 at every step: the earliest of the tied steps
    expect(r.accepted.map((c) => c.row)).toEqual([0, 1]);
    expect(r.accepted[0].glaAdj).toBeCloseTo(10_000, 6);
    expect(r.accepted[0].distMi).toBeCloseTo(0.1, 4);
    expect(r.stats).toEqual({ n: 2, median: 290_000, q25: 290_000, q75: 290_000, fsd: 0 });
    // Unknown subject sqft: no adjustment (null), the median is the indexed price.
    const u = k.queryComps(subject({ sqft: null }));
    expect(u.accepted[0].glaAdj).toBeNull();
    expect(u.stats.median).toBe(280_000);
  });

  it('returns an empty result with null statistics when nothing qualifies', () => {
    const r = createKernel(corpus([])).queryComps(subject());
    expect(r).toEqual({ step: 1, nQualified: 0, accepted: [], rejected: [], stats: { n: 0, median: null, q25: null, q75: null, fsd: null } });
  });

  it('answers a query whose records outgrow the reused buffer, and the small queries before and after it, alike', () => {
    // 2,500 sales off the GLA band (4,000 sqft against 1,500): 2,500 rejections of 2 slots, more than the 4,096-slot
    // buffer a kernel starts with (the native door binds a larger one to its handle then).
    const offBand = Array.from({ length: 2500 }, (_, i) => ({ northMi: 0.1, ageDays: 10 + (i % 100), price: 280_000, sqft: 4000 }));
    const k = createKernel(corpus([{ northMi: 0.2, ageDays: 20, price: 280_000, sqft: 1400 }, ...offBand]));
    const small = k.queryComps(subject({ sqft: null })); // no GLA band: every sale qualifies, 12 selected
    expect(small.accepted).toHaveLength(12);
    const big = k.queryComps(subject());
    expect(big.rejected).toHaveLength(2500);
    expect(new Set(big.rejected.map((r) => r.reason))).toEqual(new Set(['gla_band']));
    expect(big.accepted.map((c) => c.row)).toEqual([0]);
    expect(k.queryComps(subject({ sqft: null }))).toEqual(small);
    expect(k.queryComps(subject())).toEqual(big);
  });

  it("reads single queries with records of one length through one view, which shows each call's own records", () => {
    const k = createKernel(corpus([{ northMi: 0.1, ageDays: 10, price: 280_000, sqft: 1400 }, { northMi: 0.2, ageDays: 20, price: 300_000, sqft: 1500 }, { northMi: 0.3, ageDays: 30, price: 320_000, sqft: 1600 }]));
    const [a, b] = [encodeSubjects([subject()], { maxStep: 3 }), encodeSubjects([subject({ sqft: 1450 })], { maxStep: 3 })];
    const [wantA, wantB] = [Array.from(k.batchPacked(a)), Array.from(k.batchPacked(b))];
    expect(wantA.length).toBe(wantB.length); // the same comps, adjusted to another subject size
    expect(wantA).not.toEqual(wantB);
    const first = k.batchView(a);
    expect(Array.from(first)).toEqual(wantA);
    const second = k.batchView(b);
    expect(second).toBe(first); // no view allocated per query
    expect(Array.from(second)).toEqual(wantB);
    expect(Array.from(k.batchView(a))).toEqual(wantA);
  });

  it('maps bad input to the error taxonomy', () => {
    const c = corpus([{ northMi: 0.1, ageDays: 10, price: 280_000, sqft: 1400 }]);
    expect(() => createKernel({ ...c, sqft: new Float64Array(5) })).toThrow(expect.objectContaining({ code: 'kernel_error' }));
    const k = createKernel(c);
    expect(() => k.queryComps(subject({ lat: NaN }))).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    const batch = k.batch([subject({ lat: 200 }), subject()]);
    expect(batch[0]).toBeInstanceOf(AppError);
    expect((batch[1] as { stats: { n: number } }).stats.n).toBe(1);
    expect(() => createKernel(c, [{ county: 1, months: [5, 4], levels: [1, 1] }])).toThrow(expect.objectContaining({ code: 'kernel_error' }));
  });

  it('visitComps visits exactly the rows of queryComps, accepted then rejected with their reason codes', () => {
    const { columns, timeIndex } = generateCorpus({ n: 3000, seed: 11, region: 'town' });
    const k = createKernel(columns, timeIndex as TimeIndexSeries[]);
    let rejectedSeen = 0;
    for (let i = 0; i < 60; i++) {
      const s: Subject = { lat: 41.9 + (i % 10) * 0.003, lon: -87.7 + Math.floor(i / 10) * 0.006, sqft: 1500, beds: 3, ptype: i % 3 === 2 ? 1 : 0, county: 1, asOfDay: 20_000, stratumMask: i % 2 ? STRATUM.arv : STRATUM.asIs };
      const opts = i % 3 === 0 ? { override: { radiusMi: 1, windowDays: 730 } } : {};
      const want = k.queryComps(s, opts);
      const got: Array<[number, number]> = [];
      k.visitComps(s, opts, (row, code) => got.push([row, code]));
      expect(got).toEqual([...want.accepted.map((a) => [a.row, -1]), ...want.rejected.map((r) => [r.row, REJECTION_REASONS.indexOf(r.reason as never)])]);
      rejectedSeen += want.rejected.length;
    }
    expect(rejectedSeen).toBeGreaterThan(0);
  });

  it('refuses a corpus whose bounding box would need too many grid cells', () => {
    const c = corpus([{ northMi: 0, ageDays: 10, price: 200_000, sqft: 1000 }, { northMi: 0, ageDays: 10, price: 200_000, sqft: 1000 }]);
    c.lat[1] = -60; // 102° of latitude by 1-mile cells and a world-wide longitude span
    c.lon[1] = 170;
    expect(() => createKernel(c)).toThrow(expect.objectContaining({ code: 'kernel_error', details: expect.objectContaining({ kernel: 'grid_too_large' }) }));
  });

  it('batchPacked decodes as the other calls do, at sizes on both sides of the native bulk threshold', () => {
    const k = createKernel(corpus([1, 2, 3, 4, 5, 6].map((i) => ({ northMi: 0.05 * i, ageDays: 10 * i, price: 250_000 + 5_000 * i, sqft: 1500 }))));
    for (const n of [1, 63, 64, 200]) {
      const subjects = Array.from({ length: n }, (_, i) => subject({ lat: 42 + (i % 7) * 0.001, sqft: i % 5 === 0 ? null : 1400 + i }));
      expect(decodeBatch(k.batchPacked(encodeSubjects(subjects)), n)).toEqual(k.batch(subjects));
    }
  });
});

describe('kernel door (front-end independent)', () => {
  it('reads the snapshot columns from an Arrow table by their contract names', () => {
    const { columns } = generateCorpus({ n: 200, seed: 3, region: 'town' });
    const arrays = Object.fromEntries(Object.entries(columns).map(([k, v]) => [SALES_COLUMNS[k as keyof typeof SALES_COLUMNS], v]));
    const table = tableFromArrays(arrays as Record<string, Float64Array>);
    const back = columnsFromArrow(table);
    for (const [k, v] of Object.entries(columns)) expect(Array.from(back[k as keyof KernelColumns]), k).toEqual(Array.from(v));
    const { sqft: _drop, ...rest } = arrays;
    expect(() => columnsFromArrow(tableFromArrays(rest as Record<string, Float64Array>))).toThrow(expect.objectContaining({ code: 'ingest_invalid_file' }));
  });

  it('decodes packed batch output lazily: record offsets, header summaries and comp rows match the decoded batch', () => {
    const k = createAnyKernel(corpus([1, 2, 3, 4, 5, 6].map((i) => ({ northMi: 0.05 * i, ageDays: 10 * i, price: 250_000 + 5_000 * i, sqft: 1500 }))));
    const subjects = [subject(), subject({ lat: 200 }), subject({ sqft: null }), subject({ lat: 43 })];
    const packed = encodeSubjects(subjects);
    const out = k.batchPacked(packed);
    const whole = decodeBatch(out, subjects.length);
    const at = recordOffsets(out, subjects.length);
    whole.forEach((r, i) => {
      const h = decodeSummary(out, at[i]);
      if (r instanceof AppError) return void expect(h.error).not.toBe(0);
      expect(decodeOne(out, at[i]).result).toEqual(r);
      expect([h.nSelected, h.median, h.q25, h.q75]).toEqual([r.accepted.length, r.stats.median, r.stats.q25, r.stats.q75]);
      expect(selectedRows(out, at[i])).toEqual(r.accepted.map((c) => c.row));
    });
    // Repacking the valid subjects under another stratum and step gives what encoding them that way gives.
    const opts = { override: { radiusMi: 1, windowDays: 1460 } };
    const repacked = repackSubjects(packed, [0, 2, 3], STRATUM.asIs, opts);
    expect(Array.from(repacked)).toEqual(Array.from(encodeSubjects([0, 2, 3].map((i) => ({ ...subjects[i], stratumMask: STRATUM.asIs })), opts)));
  });

  it('finds the committed wasm from the repo root', () => {
    expect(kernelWasmPath()).toMatch(/src\/kernel\/avm_kernel\.wasm$/);
    expect(existsSync(kernelWasmPath())).toBe(true);
  });
});
