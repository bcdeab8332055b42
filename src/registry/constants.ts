// The constants registry: every hand-set number of the service, grouped, versioned, with owner, reason and source.
// Published as /api/spec/constants-registry.json. Add a group by importing it into ALL_GROUPS.
import { COMP_POLICY } from './groups/comp-policy.js';
import { UNDERWRITING } from './groups/underwriting.js';
import { SCORING } from './groups/scoring.js';
import { TAX } from './groups/tax.js';
import { REHAB } from './groups/rehab.js';
import { ALERTS } from './groups/alerts.js';
import { AUTH_LIMITS } from './groups/auth.js';
import { INGEST } from './groups/ingest.js';
import { REFERENCE_DERIVATION } from './groups/reference-derivation.js';
import { GENERATOR } from './groups/generator.js';
import { VALUATION_DISPLAY, RATIO_STUDY } from './groups/valuation.js';
import { HEDONIC } from './groups/hedonic.js';
import { AREA_CONTEXT } from './groups/area.js';
import { RENT, INCOME } from './groups/rent.js';
import { FALLBACK } from './groups/fallback.js';
import { TIER1 } from './groups/tier1.js';
import { DOORS } from './groups/doors.js';
import { LISTINGS_RUN } from './groups/listings.js';
import { RISK } from './groups/risk.js';
import { PULSE } from './groups/pulse.js';
import { REPORT_FIGURES } from './groups/report.js';
import { BACKTEST_REPORT } from './groups/accuracy-report.js';
import { CONDITION_INFERENCE } from './groups/condition.js';
import { WEB_MAP } from './groups/web-map.js';
import { APP_ANALYTICS } from './groups/app-analytics.js';
import { OAUTH } from './groups/oauth.js';
import { SHARED_STATE } from './groups/shared-state.js';

export { COMP_POLICY };

export const ALL_GROUPS = [COMP_POLICY, AUTH_LIMITS, INGEST, REFERENCE_DERIVATION, ALERTS, UNDERWRITING, SCORING, TAX, REHAB, GENERATOR, VALUATION_DISPLAY, RATIO_STUDY, HEDONIC, AREA_CONTEXT, RENT, INCOME, FALLBACK, TIER1, DOORS, LISTINGS_RUN, RISK, PULSE, REPORT_FIGURES, BACKTEST_REPORT, CONDITION_INFERENCE, WEB_MAP, OAUTH, APP_ANALYTICS, SHARED_STATE] as const;

const versionOf = (groups: readonly { name: string; version: string }[]): string => groups.map((g) => `${g.name}@${g.version}`).join(',');

/** Version of the whole registry (the published document). */
export const REGISTRY_VERSION = versionOf(ALL_GROUPS);

/**
 * Version of the groups a valuation's numbers depend on: the inputs hash, the calibration digest and the hedonic fit
 * carry this one, so bumping an unrelated group (alerts, auth, listings…) does not invalidate calibrations.
 */
export const VALUATION_REGISTRY_VERSION = versionOf([COMP_POLICY, TIER1, VALUATION_DISPLAY, HEDONIC, AREA_CONTEXT, RENT, INCOME, TAX, REHAB, FALLBACK]);

/** The published document: groups with their entries (values, units, reasons, sources). */
export function constantsRegistryDocument(): { version: string; groups: Array<{ name: string; version: string; owner: string; entries: Record<string, unknown> }> } {
  return {
    version: REGISTRY_VERSION,
    groups: ALL_GROUPS.map((g) => ({ name: g.name, version: g.version, owner: g.owner, entries: g.entries })),
  };
}
