// Caller custom_assumptions of the underwriting tools (spec, deep_underwrite_asset): strict, every key optional,
// spec bounds. The underwriting validates calls with it; presets store values of the same shape.
import { z } from 'zod';
import { FINANCING_TYPES } from './common.js';

export const CustomAssumptionsSchema = z
  .strictObject({
    purchase_price: z.number().positive().describe('purchase price, USD, > 0 (default: the list price of a matching listing)'),
    rehab_budget: z.number().min(0).describe('rehab budget, USD, >= 0 (default: the rehab estimate)'),
    rate: z.number().gt(0).lte(100).describe('loan interest rate, percent per year, > 0 and <= 100 (7.5 means 7.5%)'),
    down_pct: z.number().min(0).max(1).describe('down payment as a fraction of price, 0-1 (0.25 means 25%)'),
    rent_override: z.number().min(0).describe('monthly rent of the whole building, USD, >= 0, used instead of the rent estimate'),
    financing_type: z.enum(FINANCING_TYPES).describe('loan program: conventional_investor, dscr_loan, hard_money, fha_oo or conventional_oo'),
    hold_months: z.number().int().min(0).describe('months held before sale or refinance, whole number >= 0'),
  })
  .partial()
  .describe('pro-forma assumptions that replace the defaults; only these keys, each optional');
