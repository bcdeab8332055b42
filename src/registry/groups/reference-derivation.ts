// Build-time settings of scripts/derive-reference.ts: geometry simplification, rounding, group-size floors and the
// PIN-area crosswalk sampling. Changing one changes data/reference bytes, so bump the version with a re-derive.
import { c, defineGroup } from '../define.js';

const BRIEF = 'issue 2 item 4 (reference data brief)';

export const REFERENCE_DERIVATION = defineGroup({
  name: 'reference_derivation',
  version: '1.0.0',
  owner: 'reference',
  entries: {
    simplify_tolerance_deg: c(0.0004, 'degrees', 'Douglas-Peucker tolerance (~44 m N-S, ~33 m E-W at 41.8N): keeps neighbourhood shapes, cuts vertices ~5x', BRIEF),
    simplify_retry_halvings: c(6, 'halvings', 'a polygon that comes out invalid is re-simplified at half the tolerance, up to this many times, then kept unsimplified', 'derivation design: validity beats size'),
    coord_decimals: c(5, 'decimal places', '1e-5 degree is ~1.1 m, far below the simplification error', BRIEF),
    rate_decimals: c(6, 'decimal places', 'tax rates are fractions; 6 places keep 0.0001 percentage points', 'derivation design: the source muni rates carry 3 places'),
    money_decimals: c(2, 'decimal places', 'dollar amounts to the cent', 'derivation design'),
    stat_decimals: c(6, 'decimal places', 'log-price moments and ratios', 'derivation design'),
    min_group_n: c(30, 'sales', 'price-level groups with fewer sales are dropped: percentiles of tiny groups are noise', BRIEF),
    pin_area_lattice_step_deg: c(0.005, 'degrees', 'lattice spacing (~0.35 mi) sampling Cook to apportion PIN-area cells among townships', 'derivation design: ~20k points over the county'),
    pin_area_min_share: c(0.05, 'fraction of cell area', 'a township is listed for a PIN area when at least 5% of the area cell lies in it', 'derivation design'),
    plss_township_miles: c(6, 'miles', 'a congressional (survey) township is nominally 6 x 6 miles', 'US Public Land Survey System'),
  },
});
