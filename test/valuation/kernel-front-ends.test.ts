// One answer whichever kernel front-end a replica loaded (issue 17): the same valuation — value, interval, comps, every
// evidence number and the inputs hash — from the native addon and from WASM, on a sample of the test corpus's parcels
// under a champion that displays points (and carries prior-sale weights). Unrounded, the comps' distances and
// similarities differed in their last digits between the two (sines and cosines from two libms), and so did the hash.
// Needs the addon (`npm run build:native`; CI builds it).
import { describe, expect, it } from 'vitest';
import { createKernel, nativeAddon } from '../../src/kernel/index.js';
import { kernelColumnsOf } from '../../src/valuation/comps/kernel-columns.js';
import { valueProperty } from '../../src/valuation/value.js';
import { buildValuationContext, type ValuationContext } from '../../src/valuation/value-context.js';
import { pointEverywhere, usePointEverywhere } from '../support/scoring-corpus.js';

const fx = usePointEverywhere();

describe.skipIf(!nativeAddon() && !process.env.CI)('kernel front-ends', () => {
  it('native and WASM give byte-identical valuations, inputs hash included', () => {
    const now = () => new Date('2026-11-21T13:00:00Z');
    const of = (frontEnd: 'wasm' | 'native') =>
      buildValuationContext(fx.store, { now, calibration: pointEverywhere(), kernel: createKernel(kernelColumnsOf(fx.ctx.sales), fx.ctx.timeIndex.series, { frontEnd }) });
    const [wasm, native] = [of('wasm'), of('native')];
    const n = fx.ctx.subjects.parcels!.length;
    let withComps = 0;
    for (let k = 0; k < 400; k++) {
      const input = { parcelRow: Math.floor((k * n) / 400) };
      let a;
      try {
        a = valueProperty(input, wasm);
      } catch (e) {
        expect(() => valueProperty(input, native)).toThrow((e as Error).message);
        continue;
      }
      const b = valueProperty(input, native);
      expect(JSON.stringify(b), `parcel row ${input.parcelRow}`).toBe(JSON.stringify(a));
      if ((a.arv.comps ?? []).length > 0) withComps++;
    }
    expect(withComps).toBeGreaterThan(50);
  });
});
