// Market pulse and tract-signal constants: sale windows, minimum evidence per tract, list lengths.
import { c, defineGroup } from '../define.js';

const CONV = 'convention (location screen; more evidence narrows nothing but the list)';

export const PULSE = defineGroup({
  name: 'pulse',
  version: '1.0.0',
  owner: 'pulse',
  entries: {
    signal_window_days: c(730, 'days', 'tract price and spread signals use the last 24 months of arms-length sales', 'service-spec.md, ARV (24-month ceiling window); convention'),
    recent_window_days: c(365, 'days', 'reassessment shock compares the last 12 months with the reassessment year', CONV),
    min_tract_sales: c(5, 'sales', 'a tract median needs at least 5 arms-length sales', CONV),
    min_stratum_sales: c(3, 'sales', 'renovated and distressed/dated strata each need 3 sales for a flip spread (the comp policy\'s minimum to value)', 'service-spec.md, Comp policy (minimum 3 to value)'),
    top_n: c(10, 'entries', 'length of each market-pulse list', CONV),
  },
});
