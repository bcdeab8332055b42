// premiumForIndexed (flip pairs indexed once per snapshot) gives exactly premiumFor's answer (a scan of every pair)
// for random pairs and subjects: same pairs in the window and radius, same medians, same shrinkage.
import { describe, expect, it } from 'vitest';
import { AREA_CONTEXT } from '../../src/registry/groups/area.js';
import { rng } from '../../bench/kernel-corpus.js';
import { indexFlipPairs, premiumFor, premiumForIndexed, type FlipPair } from '../../src/valuation/area/area-premium.js';


const AS_OF = 20_000;

describe('premiumForIndexed', () => {
  it('equals premiumFor for 300 random subjects over 2,000 random pairs in two counties', () => {
    const r = rng(20261121);
    // pairs spread over ~0.5° around Chicago, completed within ±900 days of the as-of day (some after it: excluded)
    const pairs: FlipPair[] = Array.from({ length: 2000 }, () => {
      const day2 = AS_OF - 900 + Math.floor(r() * 1000);
      return { county: r() < 0.8 ? 1 : 2, lat: 41.6 + r() * 0.5, lon: -88 + r() * 0.5, day1: day2 - 200, day2, upliftLog: Math.log(1 + r()) };
    });
    const radius = AREA_CONTEXT.v.neighbor_radius_mi;
    const ix = indexFlipPairs(pairs, radius);
    let withArea = 0;
    for (let k = 0; k < 300; k++) {
      const s = { lat: 41.55 + r() * 0.6, lon: -88.05 + r() * 0.6, county: r() < 0.8 ? 1 : 2, asOfDay: AS_OF - Math.floor(r() * 400) };
      const want = premiumFor(pairs, s, radius);
      expect(premiumForIndexed(ix, s)).toEqual(want);
      if (want && want.n_pairs > 0) withArea++;
    }
    expect(withArea).toBeGreaterThan(100); // the sample exercises the area median, not only the county fallback
  });

  it('is null without a county pair in the window, like premiumFor', () => {
    const pairs: FlipPair[] = [{ county: 1, lat: 41.85, lon: -87.65, day1: AS_OF - 300, day2: AS_OF + 5, upliftLog: 0.2 }];
    const s = { lat: 41.85, lon: -87.65, county: 1, asOfDay: AS_OF };
    expect(premiumFor(pairs, s, 1.5)).toBeNull();
    expect(premiumForIndexed(indexFlipPairs(pairs, 1.5), s)).toBeNull();
  });
});
