// The bedroom mix of a building for SAFMR lookup: total bedrooms spread over the units (SAFMR columns stop at 4).
import { RENT } from '../../registry/groups/rent.js';

export const SAFMR_MAX_BEDS = 4;

export type MixedUnit = { beds: number; count: number };

/**
 * Units by bedroom count. Known beds: base = floor(beds/units) each, the remainder one more bedroom on as many
 * units (5 beds / 2 units → one 3BR + one 2BR), clamped to [0, 4]. Unknown beds: default_beds_per_unit (2BR) each.
 */
export function bedroomMix(units: number, beds: number | null): { readonly mix: readonly MixedUnit[]; readonly warnings: readonly string[] } {
  // A pure function of a small key space (1–4 units × bedroom counts), asked once per valued subject: computed once.
  const key = `${units}|${beds}`;
  let hit = mixMemo.get(key);
  if (!hit) {
    const { mix, warnings } = computeMix(units, beds);
    if (mixMemo.size >= MIX_MEMO_MAX) mixMemo.clear();
    mixMemo.set(key, (hit = Object.freeze({ mix: Object.freeze(mix.map((m) => Object.freeze(m))), warnings: Object.freeze(warnings) })));
  }
  return hit;
}

/** Bound on memoized keys (unit counts 1–4 times plausible bedroom counts stay far below it). */
const MIX_MEMO_MAX = 4096;

const mixMemo = new Map<string, { readonly mix: readonly MixedUnit[]; readonly warnings: readonly string[] }>();

function computeMix(units: number, beds: number | null): { mix: MixedUnit[]; warnings: string[] } {
  const warnings: string[] = [];
  let per: number[];
  if (beds === null || !Number.isFinite(beds) || beds < 0) {
    warnings.push('beds_unknown_assumed_2br');
    per = Array(units).fill(RENT.v.default_beds_per_unit);
  } else {
    const total = Math.round(beds);
    const base = Math.floor(total / units);
    per = Array.from({ length: units }, (_, i) => base + (i < total - base * units ? 1 : 0));
  }
  if (per.some((b) => b > SAFMR_MAX_BEDS)) warnings.push('beds_over_4_priced_as_4br');
  const counts = new Map<number, number>();
  for (const b of per) counts.set(Math.min(b, SAFMR_MAX_BEDS), (counts.get(Math.min(b, SAFMR_MAX_BEDS)) ?? 0) + 1);
  return { mix: [...counts.entries()].sort((a, b) => b[0] - a[0]).map(([b, count]) => ({ beds: b, count })), warnings };
}
