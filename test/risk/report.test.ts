// riskReport: nine flags, each with a stated reason; score = Σ severity × weight; bands; no evidence is never a flag;
// crime and protected/proxy demographic fields are not inputs.
import { describe, expect, it } from 'vitest';
import { bandOf, RISK_FLAGS, RISK_INPUT_KEYS, riskReport, type RiskInputs } from '../../src/risk/index.js';

const QUIET: RiskInputs = {
  priceUsd: 300_000, taxCurrentAnnualUsd: 6000, taxPredictiveAnnualUsd: 6300, taxShockFlag: false, taxTargetBasis: null, basement: 'slab',
  nearbySales: 40, nearbyDistressedSales: 2, lastDeedType: 'warranty', listingEvents: ['listed'], listingUnits: 2, legalUnits: 2,
  appraisalCeilingFlag: false, maxRenoSale24moUsd: 500_000, yearBuilt: 1995, rentConfidence: 'medium',
};

describe('riskReport', () => {
  it('returns all nine flags, each with a reason, and score 0 / band low when nothing is flagged', () => {
    const r = riskReport(QUIET);
    expect(r.flags.map((f) => f.code)).toEqual([...RISK_FLAGS]);
    for (const f of r.flags) {
      expect(f.reason.length).toBeGreaterThan(10);
      expect(f.flagged).toBe(false);
    }
    expect(r).toMatchObject({ score: 0, band: 'low' });
  });

  it('scores hand-computed severities: tax shock +40%, pre-1920 stock and a low-confidence rent', () => {
    // tax shock: 8400/6000 − 1 = 0.40 → severity 0.5 + 0.5·(0.40 − 0.20)/(0.50 − 0.20) = 5/6 → 5/6 × 15 = 12.5
    // tax trap: 8400/300000 = 2.8% < 3% → not flagged; vintage 1915 ≤ 1920 saturation → 1 × 5 = 5; rent low → 1 × 10 = 10
    const r = riskReport({ ...QUIET, taxPredictiveAnnualUsd: 8400, yearBuilt: 1915, rentConfidence: 'low' });
    const by = Object.fromEntries(r.flags.map((f) => [f.code, f]));
    expect(by.tax_shock).toMatchObject({ flagged: true, points: 12.5 });
    expect(by.tax_shock.severity).toBeCloseTo(5 / 6, 12);
    expect(by.tax_trap.flagged).toBe(false);
    expect(by.vintage_stock).toMatchObject({ flagged: true, severity: 1, points: 5 });
    expect(by.rent_model_uncertainty).toMatchObject({ flagged: true, points: 10 });
    expect(r.score).toBe(27.5); // 12.5 + 5 + 10
    expect(r.band).toBe('moderate');
  });

  it('says "no evidence" instead of inventing a basement, distress share or unit count', () => {
    const r = riskReport({ ...QUIET, basement: null, nearbySales: 3, nearbyDistressedSales: 3, legalUnits: null });
    const by = Object.fromEntries(r.flags.map((f) => [f.code, f]));
    for (const code of ['basement_flood', 'distress_proximity', 'legal_unit_mismatch'] as const) {
      expect(by[code]).toMatchObject({ flagged: false, severity: 0, evidence: 'no_evidence' });
      expect(by[code].reason).toMatch(/^no evidence/);
    }
  });

  it('flags a legal-unit mismatch, a distressed neighbourhood, estate deeds and a full basement with their reasons', () => {
    const r = riskReport({ ...QUIET, listingUnits: 4, legalUnits: 2, nearbyDistressedSales: 20, lastDeedType: 'executor', listingEvents: ['listed', 'back_on_market'], basement: 'full' });
    const by = Object.fromEntries(r.flags.map((f) => [f.code, f]));
    // 2 extra units → severity 0.5 + 0.5·(2 − 1)/(3 − 1) = 0.75; 20/40 = 50% distressed → saturation → 1
    expect(by.legal_unit_mismatch.flagged).toBe(true);
    expect(by.legal_unit_mismatch.severity).toBeCloseTo(0.75, 12);
    expect(by.legal_unit_mismatch.reason).toContain('assessor records 2');
    expect(by.distress_proximity).toMatchObject({ flagged: true, severity: 1 });
    expect(by.closing_friction).toMatchObject({ flagged: true, severity: 1 });
    expect(by.closing_friction.reason).toContain('executor');
    expect(by.basement_flood).toMatchObject({ flagged: true, severity: 1 });
    // 0.75·15 + 1·15 + 1·10 + 1·8 = 44.25 → one decimal
    expect(r.score).toBeCloseTo(44.25, 1);
  });

  it('maps scores to bands at the cut-offs 25 / 50 / 75', () => {
    expect([0, 24.9, 25, 49.9, 50, 74.9, 75, 100].map(bandOf)).toEqual(['low', 'low', 'moderate', 'moderate', 'high', 'high', 'severe', 'severe']);
  });
});

describe('risk inputs', () => {
  it('have no crime, protected-class or proxy demographic field', () => {
    const forbidden = /crime|race|racial|ethnic|religio|national|origin|sex|gender|familial|disab|income|poverty|school|demograph|minority|immigra|language|age_of|population|vot/i;
    expect(RISK_INPUT_KEYS.filter((k) => forbidden.test(k))).toEqual([]);
    expect(RISK_INPUT_KEYS.length).toBe(Object.keys(QUIET).length);
  });
});
