// Rehab estimator constants: $/sf per scope and the multipliers. All are conventions, not quotes.
import { c, defineGroup } from '../define.js';

const GUIDES = 'convention from public cost guides (Angi/HomeAdvisor whole-house remodel cost pages, RSMeans residential square-foot costs), Chicago-area upper half';

export const REHAB = defineGroup({
  name: 'rehab',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    psf_cosmetic_usd: c(20, 'USD per sqft', 'paint, floors refinish, fixtures: cosmetic refresh', GUIDES),
    psf_moderate_usd: c(45, 'USD per sqft', 'kitchen and bath update plus cosmetic work', GUIDES),
    psf_gut_usd: c(100, 'USD per sqft', 'full interior gut to studs, new systems', GUIDES),
    psf_structural_usd: c(150, 'USD per sqft', 'gut plus structural/foundation/roof framing work; only by caller override', GUIDES),
    default_scope_unknown_condition: c('moderate', 'scope', 'when condition is unknown, assume a moderate scope rather than the cheapest', 'convention (conservative middle scope)'),
    violations_multiplier: c(1.1, 'factor', 'open building-code violations add permit, inspection and correction work', 'convention; City of Chicago building-violation remediation adds scope'),
    age_pre1940_multiplier: c(1.15, 'factor', 'pre-1940 stock: lead paint, knob-and-tube wiring, plaster, balloon framing', 'convention; EPA RRP rule applies to pre-1978 housing'),
    age_1940_1977_multiplier: c(1.07, 'factor', 'pre-1978 stock: lead-safe work practices (EPA RRP) and dated systems', 'EPA Renovation, Repair and Painting rule (pre-1978 housing); convention for the factor'),
    age_pre1940_year: c(1940, 'year built', 'upper bound (exclusive) of the oldest age band', 'convention (pre-war stock)'),
    age_rrp_year: c(1978, 'year built', 'upper bound (exclusive) of the lead-paint age band', 'EPA RRP rule: housing built before 1978'),
    mechanicals_multiplier: c(1.15, 'factor', 'furnace/boiler, electrical service or plumbing known to need replacement', 'convention'),
  },
});
