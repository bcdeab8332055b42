// Tract signals, tract report and market pulse on the test-scale corpus: every tract gets a record, scores are county
// percentiles in (0, 100), a known geoid reports every labeled signal, bad and unknown geoids are typed errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TractListSchema } from '../../src/contracts/tracts.js';
import { MarketPulseOutputSchema, TractReportOutputSchema } from '../../src/contracts/tools.js';
import { AppError } from '../../src/errors/app-error.js';
import { getTractReport, marketPulse, tractListWithSignals, tractSignalsFor } from '../../src/pulse/index.js';
import { openStore, type Store } from '../../src/store/store.js';
import { STRATEGIES } from '../../src/underwriting/types.js';
import { smallCorpusDir } from '../support/corpus.js';

let store: Store;
beforeAll(async () => {
  store = openStore(await smallCorpusDir());
}, 300_000);
afterAll(async () => {
  await store?.close();
});

const codeOf = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof AppError ? e.code : 'not_app_error';
  }
};

describe('tractSignalsFor', () => {
  it('scores tracts with evidence as county percentiles strictly inside (0, 100), and caches per snapshot', () => {
    const set = tractSignalsFor(store);
    expect(set.signals.length).toBe(store.getTracts().length);
    const scored = set.signals.filter((s) => s.scores.flip !== null || s.scores.brrrr !== null);
    expect(scored.length).toBeGreaterThan(0);
    for (const s of set.signals) for (const st of STRATEGIES) {
      const v = s.scores[st];
      if (v !== null) expect(v > 0 && v < 100).toBe(true);
      if (s.economics[st] === null) expect(v).toBeNull();
    }
    expect(tractSignalsFor(store)).toBe(set);
  });
});

describe('tractListWithSignals', () => {
  it('fills the public tract fields and still matches the tract contract', () => {
    const list = tractListWithSignals(store);
    expect(TractListSchema.parse(list).count).toBe(list.tracts.length);
    expect(list.tracts.some((t) => t.flip_score !== null)).toBe(true);
    expect(list.tracts.some((t) => t.effective_tax_rate !== null && t.reassessment_status !== null)).toBe(true);
    expect(list.tracts.some((t) => t.safmr_2br !== null && t.section8_gap !== null)).toBe(true);
  });
});

describe('getTractReport', () => {
  it('reports every labeled signal of a known tract', () => {
    const known = tractSignalsFor(store).signals.find((s) => s.scores.brrrr !== null) ?? tractSignalsFor(store).signals[0];
    const r = getTractReport(store, known.geoid);
    expect(r.geoid).toBe(known.geoid);
    const keys = r.signals.map((s) => s.name);
    expect(r.tract.geoid).toBe(known.geoid);
    expect(TractReportOutputSchema.parse(r).signals.length).toBe(r.signals.length);
    for (const k of ['flip_score', 'brrrr_score', 'effective_tax_rate', 'reassessment_shock', 'reassessment_status', 'section8_gap', 'safmr_2br']) expect(keys).toContain(k);
    for (const s of r.signals) expect(s.label.length).toBeGreaterThan(0);
    expect(r.note).toMatch(/never a property score/);
  });

  it('rejects a malformed geoid with invalid_geoid and an unmapped one with tract_not_found', () => {
    expect(codeOf(() => getTractReport(store, '1703'))).toBe('invalid_geoid');
    expect(codeOf(() => getTractReport(store, 17031010100))).toBe('invalid_geoid');
    expect(codeOf(() => getTractReport(store, '17031999999'))).toBe('tract_not_found');
  });
});

describe('marketPulse', () => {
  it('lists top tracts per strategy best first, Section 8 ZIPs, shock leaders and vintages', () => {
    const p = marketPulse(store);
    for (const st of STRATEGIES) {
      const scores = p.top_tracts[st].map((t) => t.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    }
    expect(p.section8_zips.every((z) => z.section8_gap !== null)).toBe(true);
    expect(p.vintages.sales_snapshot).toBe(store.currentSnapshotId());
    expect(MarketPulseOutputSchema.safeParse(p).success).toBe(true);
    expect(codeOf(() => marketPulse(store, 'nyc'))).toBe('validation_failed');
  });
});
