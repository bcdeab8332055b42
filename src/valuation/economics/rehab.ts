// Rehab estimate (valuation.rehab): scope from condition or a caller override, $/sf per scope, multipliers.
// Never invents square footage: the estimate is null when sqft is unknown. Numbers come from the rehab group.
import { REHAB } from '../../registry/groups/rehab.js';

export const REHAB_SCOPES = ['cosmetic', 'moderate', 'gut', 'structural'] as const;
export type RehabScope = (typeof REHAB_SCOPES)[number];
export type Condition = 'distressed' | 'dated' | 'renovated' | 'new';

export type RehabInput = {
  condition: Condition | null;
  sqft: number | null;
  yearBuilt: number | null;
  /** Count of open building-code violations; null when unknown (no multiplier applied). */
  openViolations: number | null;
  /** True when furnace/electrical/plumbing are known to need replacement; null when unknown. */
  mechanicalsNeedReplacement: boolean | null;
  /** Caller override (the `scope` parameter); the only way to get `structural`. */
  scopeOverride?: RehabScope | null;
};

/** The spec's Rehab object. */
export type Rehab = {
  estimate: number | null;
  scope: RehabScope;
  psf_base: number;
  multipliers: { violations: number; age: number; mechanicals: number };
  scope_source: 'caller_override' | 'derived_from_condition' | 'default_condition_unknown';
  registry_version: string;
};

const SCOPE_BY_CONDITION: Record<Condition, RehabScope> = {
  distressed: 'gut',
  dated: 'moderate',
  renovated: 'cosmetic',
  new: 'cosmetic',
};

export function psfBaseFor(scope: RehabScope): number {
  const v = REHAB.v;
  const table: Record<RehabScope, number> = {
    cosmetic: v.psf_cosmetic_usd,
    moderate: v.psf_moderate_usd,
    gut: v.psf_gut_usd,
    structural: v.psf_structural_usd,
  };
  return table[scope];
}

export function resolveScope(condition: Condition | null, override: RehabScope | null | undefined): { scope: RehabScope; source: Rehab['scope_source'] } {
  if (override) return { scope: override, source: 'caller_override' };
  if (condition) return { scope: SCOPE_BY_CONDITION[condition], source: 'derived_from_condition' };
  return { scope: REHAB.v.default_scope_unknown_condition as RehabScope, source: 'default_condition_unknown' };
}

/** Age multiplier by year built; unknown age gets 1 (no evidence of old stock is not evidence of new stock, but we add nothing we cannot see). */
export function ageMultiplier(yearBuilt: number | null): number {
  const v = REHAB.v;
  if (yearBuilt === null || !Number.isFinite(yearBuilt)) return 1;
  if (yearBuilt < v.age_pre1940_year) return v.age_pre1940_multiplier;
  if (yearBuilt < v.age_rrp_year) return v.age_1940_1977_multiplier;
  return 1;
}

export function estimateRehab(input: RehabInput): Rehab {
  const { scope, source } = resolveScope(input.condition, input.scopeOverride);
  const psfBase = psfBaseFor(scope);
  const multipliers = {
    violations: (input.openViolations ?? 0) > 0 ? REHAB.v.violations_multiplier : 1,
    age: ageMultiplier(input.yearBuilt),
    mechanicals: input.mechanicalsNeedReplacement === true ? REHAB.v.mechanicals_multiplier : 1,
  };
  const sqftKnown = input.sqft !== null && Number.isFinite(input.sqft) && input.sqft > 0;
  const estimate = sqftKnown ? (input.sqft as number) * psfBase * multipliers.violations * multipliers.age * multipliers.mechanicals : null;
  return {
    estimate,
    scope,
    psf_base: psfBase,
    multipliers,
    scope_source: source,
    registry_version: `${REHAB.name}@${REHAB.version}`,
  };
}
