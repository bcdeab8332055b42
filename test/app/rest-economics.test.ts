// GET /api/underwrite produces every figure its inputs allow (issue 12): at a point with no parcel record (no living
// area, no condition: the rehab cannot be estimated), the four spec inputs give a point ARV with the hold at the
// purchase price (NOI, DSCR, cash-on-cash) and the rest named as missing; adding sqft or a rehab budget unlocks the
// offers, the chosen strategy's DSCR, the economics factor and the strategy scores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src/server.js';
import { roomyLimiter } from '../mcp/support.js';
import { testConfig } from '../support/corpus.js';
import { parcelPoints, servedCorpusDir } from '../support/served-corpus.js';

type Json = Record<string, any>;

let service: ServiceHandle;
let at: string;
/** A living area among the served comps' that keeps the valuation a point (the ±20% living-area band keeps comps). */
let sqft: number;

const underwrite = async (extra = ''): Promise<Json> => {
  const res = await fetch(`${service.url}/api/underwrite?${at}&price=200000${extra}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
};

beforeAll(async () => {
  const dataDir = await servedCorpusDir();
  const points = await parcelPoints(dataDir);
  service = await startService(testConfig(dataDir), { installSignalHandlers: false, limiter: roomyLimiter() });
  // ~40 m off a parcel (beyond the same-lot match radius): no record there, so only the caller's inputs describe it
  for (const p of points.filter((_, i) => i % 41 === 0)) {
    const q = `lat=${(p.lat + 0.0004).toFixed(6)}&lon=${p.lon.toFixed(6)}&units=2`;
    const body = (await (await fetch(`${service.url}/api/underwrite?${q}&price=200000`)).json()) as Json;
    if (!(body.display?.point_actionable && body.subject.sqft === null)) continue;
    for (const size of new Set((body.arv.comps as Json[]).map((c) => c.sqft).filter((x): x is number => x !== null).map(Math.round))) {
      const withSize = (await (await fetch(`${service.url}/api/underwrite?${q}&price=200000&sqft=${size}`)).json()) as Json;
      if (withSize.display?.point_actionable) {
        at = q;
        sqft = size;
        break;
      }
    }
    if (at) break;
  }
}, 300_000);

afterAll(async () => {
  await service?.close();
});

describe('GET /api/underwrite economics', () => {
  it('the four inputs alone: a point ARV, the hold at the purchase price, and what to pass for the rest', async () => {
    expect(at, 'a point subject without a parcel record').toBeDefined();
    const b = await underwrite();
    expect(b.display.point_actionable).toBe(true);
    expect(b.rehab.estimate).toBeNull();
    expect(b.underwrite).toMatchObject({ unscored_reason: 'rehab_unknown', missing_inputs: ['rehab', 'sqft'], max_offer: null, brrrr_offer: null, dscr: null, economics_factor: null });
    expect(b.underwrite.hold).toMatchObject({ noi: expect.any(Number), dscr: expect.any(Number), cash_on_cash: expect.any(Number), rehab_basis: 'excluded_unknown' });
    expect(b.read).toMatch(/pass rehab or sqft/);
  });

  it('with sqft the rehab is estimated: offers, DSCR, economics factor and strategy scores appear', async () => {
    const b = await underwrite(`&sqft=${sqft}`);
    expect(b.rehab.estimate).toEqual(expect.any(Number));
    expect(b.underwrite.unscored_reason).toBeNull();
    expect(b.underwrite.missing_inputs).toEqual([]);
    expect(b.underwrite.max_offer).toEqual(expect.any(Number));
    // the BRRRR offer is null when no price leaves at most the target cash in the deal: an answer, not a gap
    expect(b.underwrite.brrrr_offer === null || typeof b.underwrite.brrrr_offer === 'number').toBe(true);
    expect(b.underwrite.dscr).toEqual(expect.any(Number));
    expect(b.underwrite.economics_factor).toEqual(expect.any(Number));
    expect(Object.keys(b.underwrite.strategy_scores).sort()).toEqual(['brrrr', 'flip', 'hold', 'house_hack']);
    expect(b.underwrite.hold.rehab_basis).toBe('included');
  });

  it('with a rehab budget the same figures appear, from that budget', async () => {
    const b = await underwrite('&rehab=35000&strategy=hold');
    expect(b.underwrite).toMatchObject({ strategy: 'hold', unscored_reason: null, missing_inputs: [] });
    expect(b.underwrite.assumptions).toMatchObject({ rehab_budget: 35000, rehab_source: 'custom_assumptions' });
    expect(b.underwrite.dscr).toEqual(expect.any(Number));
    expect(b.underwrite.max_offer).toEqual(expect.any(Number));
  });

  it('an optional input out of bounds is a 400 with the taxonomy code, not an unscored answer', async () => {
    for (const bad of ['&rehab=-5', '&sqft=0', '&mgmt_self=yes', '&down_pct=2', '&strategy=moon']) {
      const res = await fetch(`${service.url}/api/underwrite?${at}&price=200000${bad}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as Json).error.code).toBe('validation_failed');
    }
  });
});
