// cookTriadAt from the real township polygons, and the tax estimate's county-average fallback for places that have
// no published municipal rate (suburban Cook parcels whose tax municipality is a township name).
import { describe, expect, it } from 'vitest';
import { estimateTax, type TaxInput, type TaxReference } from '../../../src/valuation/economics/tax.js';
import { cookTriadAt } from '../../../src/valuation/economics/triad.js';

describe('cookTriadAt(lat, lon)', () => {
  it('places the Loop in the City triad, Evanston in the North and Orland Park in the South/West', () => {
    expect(cookTriadAt(41.8819, -87.6278)).toBe('city');
    expect(cookTriadAt(42.0451, -87.6877)).toBe('north');
    expect(cookTriadAt(41.6303, -87.8539)).toBe('south_west');
  });

  it('is null outside Cook (Waukegan, Lake County)', () => {
    expect(cookTriadAt(42.3636, -87.8448)).toBeNull();
  });
});

describe('estimateTax with no municipal rate', () => {
  // Reference with no rate for the municipality, a county-wide average of 0.10, equalizer 3.0, level of assessment 0.10.
  const ref: TaxReference = {
    rate: () => null,
    countyRate: () => ({ rate: 0.1, yearUsed: 2023 }),
    equalizer: () => ({ factor: 3, yearUsed: 2023 }),
    loa: () => ({ loa: 0.1, yearUsed: 2023 }),
  };
  const input: TaxInput = {
    county: 'cook', municipality: 'Maine', triad: 'north', classCode: null, priceUsd: 300_000, asIsValueUsd: null,
    arvUsd: null, arvPointActionable: false, areaEstimateUsd: null, ownerOccupied: false, asOf: '2026-11-21',
  };

  it('falls back to the county average rate with low confidence and says so', () => {
    const { tax, basis } = estimateTax(input, ref);
    // 300,000 × 0.10 (level of assessment) × 3.0 (equalizer) × 0.10 (rate), no homeowner exemption = 9,000.
    expect(tax.current_annual).toBeCloseTo(9000, 6);
    expect(tax.confidence).toBe('low');
    expect(basis.note).toMatch(/county-wide average/);
    // North triad reassesses in 2025 + 3k: the next one at or after 2026 is 2028.
    expect(tax.next_reassess_year).toBe(2028);
  });

  it('uses the municipal rate with medium confidence when one is published', () => {
    const { tax } = estimateTax(input, { ...ref, rate: () => ({ rate: 0.08, yearUsed: 2023 }) });
    // 300,000 × 0.10 × 3.0 × 0.08 = 7,200.
    expect(tax.current_annual).toBeCloseTo(7200, 6);
    expect(tax.confidence).toBe('medium');
  });
});
