// Descriptions of the parameters several operations share, written once: zod `.describe()` feeds both the MCP tool
// list and the OpenAPI document, so an agent and a REST client read the same units, formats and ranges.
import { z } from 'zod';
import { MetroSchema, StrategySchema } from './common.js';

export const Metro = MetroSchema.describe('the metro covered: only "chicago" (Cook and Lake County, IL)');
export const Strategy = StrategySchema.describe('investment strategy the answer is scored for: flip, brrrr, hold or house_hack');
export const Units = z.number().int().min(1).max(4).describe('number of dwelling units in the building, 1-4 (the service values 1-4 unit residential only)');
export const MinPercentile = z.number().min(0).max(100).describe('lowest per-strategy inventory percentile to include, 0-100');
export const MaxPrice = z.number().min(0).describe('highest list price to include, USD');
export const MinConfidence = z.number().min(0).max(100).describe('lowest valuation confidence to include, 0-100');
export const PROP_TYPE_TEXT = 'building type: sfh (single-family), mf2_4 (2-4 unit multifamily)';

/** Texts of the pro-forma inputs the v1 `underwrite` tool and GET /api/underwrite share. */
export const PROFORMA_TEXT = {
  price: 'purchase (or list) price, USD, > 0',
  rehab: 'rehab budget, USD, >= 0',
  rent: 'monthly rent of the whole building, USD, >= 0 (same as rent_override)',
  rent_override: 'monthly rent of the whole building, USD, >= 0, used instead of the rent estimate',
  prop_type: `${PROP_TYPE_TEXT}, condo (accepted, but its valuation is suppressed until condos are calibrated)`,
  beds: 'bedrooms, whole number >= 0',
  sqft: 'living area, square feet, whole number >= 1; lets the rehab be estimated',
  year_built: 'year the building was built, 1800-2027',
  scope: 'rehab scope: cosmetic, moderate, gut or structural',
  rate: 'loan interest rate, percent per year, > 0 and <= 100 (7.5 means 7.5%)',
  down_pct: 'down payment as a fraction of price, 0-1 (0.25 means 25%)',
  hold_months: 'months held before sale or refinance, whole number >= 0',
  financing_type: 'loan program: conventional_investor, dscr_loan, hard_money, fha_oo or conventional_oo',
  mgmt_self: 'true when the owner manages the property (no management fee)',
  hoa: 'monthly HOA dues, USD, >= 0',
  owner_occupied: 'true when the buyer will live in the building (house hacking, owner-occupied loans)',
} as const;
