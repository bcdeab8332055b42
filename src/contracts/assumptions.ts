// Caller custom_assumptions of the underwriting tools (spec, deep_underwrite_asset): strict, every key optional,
// spec bounds. The underwriting validates calls with it; presets store values of the same shape.
import { z } from 'zod';
import { FINANCING_TYPES } from './common.js';

export const CustomAssumptionsSchema = z
  .strictObject({
    purchase_price: z.number().positive(),
    rehab_budget: z.number().min(0),
    rate: z.number().gt(0).lte(100),
    down_pct: z.number().min(0).max(1),
    rent_override: z.number().min(0),
    financing_type: z.enum(FINANCING_TYPES),
    hold_months: z.number().int().min(0),
  })
  .partial();
