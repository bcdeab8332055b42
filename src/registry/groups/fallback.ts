// Comp-source fallback chain and the Cook County open-data (Socrata SODA) client: datasets, timeouts, query sizes.
import { c, defineGroup } from '../define.js';

const PORTAL = 'Cook County open data portal (datacatalog.cookcountyil.gov) dataset ids';

export const FALLBACK = defineGroup({
  name: 'fallback',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    dataset_sales: c('wvhk-k5uv', 'dataset id', 'Assessor - Parcel Sales', PORTAL),
    dataset_universe: c('nj4t-kc8j', 'dataset id', 'Assessor - Parcel Universe (lat/lon of every PIN)', PORTAL),
    dataset_chars: c('x54s-btds', 'dataset id', 'Assessor - Single and Multi-Family Improvement Characteristics', PORTAL),
    connect_timeout_ms: c(1500, 'ms', 'fail fast without network: a TCP connect that takes longer is treated as unreachable', 'house rule: a valuation request must not hang on an offline portal (p99 budget of a request is seconds)'),
    request_timeout_ms: c(8000, 'ms', 'whole-request budget per open-data call', 'house rule'),
    radius_mi: c(1.0, 'miles', 'parcel search radius: the comp ladder step-3 radius', 'service-spec.md Comp policy step 3'),
    lookback_days: c(365, 'days', 'sales window: the comp ladder step-3 window', 'service-spec.md Comp policy step 3'),
    page_limit: c(5000, 'rows', '$limit per SODA request', 'Socrata SODA 2.x allows up to 50,000 per page; 5,000 keeps a reply small'),
    pins_per_request: c(150, 'PINs', "PINs per `pin in (...)` clause, keeping the URL under ~4 kB", 'common HTTP URL limits (8 kB servers); 14-digit PIN + quotes ~18 chars'),
  },
});
