// Calibration report page constants: how the figures bin the backtest's test sales. Presentation only: nothing here
// reaches the calibration table, the registry's gates or serving.
import { c, defineGroup } from '../define.js';

const CONV = 'convention (report figures; issue 14 item 6)';

export const REPORT_FIGURES = defineGroup({
  name: 'report_figures',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    reliability_bin_points: c(5, 'confidence points', 'the reliability plot bins test sales by their confidence_p10 in 5-point bins (0-5, ..., 95-100): the calibration rows of one corpus promise within a few points of each other (default corpus: 55-62), so 10-point bins would merge them', CONV),
    reliability_ci_z: c(1.96, 'standard normal quantile', 'observed hit rates carry a 95% Wilson score interval (z = 1.96), so a bin of a few sales shows how little it says', 'Wilson (1927), Probable inference, JASA 22:209-212'),
    log_error_limit: c(0.6, 'log ratio', 'error histograms span ln(estimate / price) in [-0.6, 0.6] (about -45% .. +82%); sales beyond fall in the two end counts', CONV),
    log_error_step: c(0.05, 'log ratio', 'histogram bin width of ln(estimate / price), half the 10% PPE band', CONV),
    error_quantiles: c([0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95], 'probability', 'quantiles of the signed log error drawn as strips (5-95 whiskers, 10-90 bar, 25-75 box, median)', CONV),
  },
});
