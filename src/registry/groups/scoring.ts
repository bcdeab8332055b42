// Strategy scoring constants: hard economic gates (INV-4), factor saturation points, default weights, area cap.
import { c, defineGroup } from '../define.js';

const DOMAIN = 'DOMAIN.md, Underwriting conventions';

export const SCORING = defineGroup({
  name: 'scoring',
  version: '1.1.0',
  owner: 'scoring',
  entries: {
    flip_min_margin_frac: c(0.1, 'profit / ARV', 'flip gate: profit at the asking price is at least 10% of ARV', 'convention (10-15% target margin)'),
    brrrr_min_dscr: c(1.2, 'ratio', 'BRRRR gate: post-refinance rent covers debt service 1.2x', DOMAIN),
    brrrr_max_cash_left_frac: c(0.2, 'cash left / all-in cost', 'BRRRR gate: the refinance returns at least 80% of the cash in', DOMAIN),
    hold_min_coc: c(0.06, 'fraction per year', 'hold gate: cash-on-cash at least 6%', 'convention (6-10% investor rule of thumb)'),
    hold_min_dscr: c(1.0, 'ratio', 'hold gate: NOI covers debt service', DOMAIN),
    house_hack_max_cost_to_rent: c(1.0, 'net housing cost / one unit rent', 'house hack gate: living there costs no more than renting a comparable unit', 'convention'),
    house_hack_min_noi_usd: c(
      0,
      'USD per year (NOI of the rented units after the whole building\'s operating costs)',
      'house hack gate: the rented units at least carry the building\'s operating costs (taxes, insurance, vacancy, repairs, reserves), so the owner\'s cost is at most the mortgage. ' +
        'Added in 1.1.0: on the default corpus (seed 20261121, scripts/gate-report.ts) the only 5 scored listings were house hacks; 4 were single-family (no rented unit, so NOI = −(taxes + insurance), e.g. −$4,435 with DSCR −0.52) that passed on owner cost alone, the fifth a 2-flat with NOI +$2,335. ' +
        'Explicit allowance: DSCR is not gated for house_hack. The owner\'s own unit pays no rent, so a DSCR below 1 is the normal case; the share of the mortgage the owner carries is what owner_cost_to_rent gates.',
      `${DOMAIN} (house hack = owner-occupied 2-4 units; operating costs to model); a negative NOI is an owner-occupant's housing cost, not an investment`,
    ),
    economics_factor_saturation: c(1.0, 'relative clearance', 'economics_factor reaches 1 when the tightest gate is cleared by 100% of its threshold', 'convention'),
    margin_saturation_frac: c(0.3, 'profit / ARV', 'flip margin factor reaches 1 at a 30% margin', 'convention'),
    flip_velocity_months_max: c(12, 'months', 'velocity factor: 1 at 0 months hold, 0 at 12', 'convention'),
    dscr_factor_range: c([1.0, 2.0], 'ratio', 'DSCR factor rises linearly from 0 at 1.0 to 1 at 2.0', 'convention'),
    coc_saturation: c(0.15, 'fraction per year', 'hold CoC factor reaches 1 at 15%', 'convention'),
    weights_flip: c([0.6, 0.2, 0.2], 'weights margin, velocity, trend', 'default flip blend', 'convention; caller weights override'),
    weights_brrrr: c([0.5, 0.5], 'weights ratio, dscr', 'default BRRRR blend', 'convention; caller weights override'),
    weights_hold: c([0.7, 0.3], 'weights coc, risk', 'default hold blend', 'convention; caller weights override'),
    area_estimate_score_cap: c(65, 'percentile points', 'rows scored on an area estimate carry deal_score at most 65', 'service-spec.md, Area context'),
  },
});
