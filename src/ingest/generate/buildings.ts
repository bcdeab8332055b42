// Building facts of one synthetic parcel: property type, living area, bedrooms, units, year built, stories, CCAO
// class and base condition. Draws from the stock mixes in the generator constants; no location logic here.
import { GENERATOR } from '../../registry/groups/generator.js';
import { COND_DISTRESSED, COND_NEW } from './surface.js';
import type { Rng } from './rng.js';

const G = GENERATOR.v;
export const PT_SFH = 0, PT_MF = 1, PT_CONDO = 2;
export const REGION_CHICAGO = 0, REGION_SUBURB = 1, REGION_LAKE = 2;
/** CCAO char_type_resd codes (vars_dict.csv qu_type_of_res): 1 one story, 2 two story, 3 three story+, 4 split level. */
export const STORIES_ONE = 1, STORIES_TWO = 2, STORIES_THREE = 3, STORIES_SPLIT = 4;

export type Building = { ptype: number; units: number; sqft: number; beds: number; yearBuilt: number; stories: number; cls: number; cond: number };

/** Mean units of a condo building: the parcel mix counts units, so condo buildings are drawn that much less often. */
const MEAN_CONDO_UNITS = (G.condo_building_units[0] + G.condo_building_units[1]) / 2;

/** Property type of the next building, such that parcels (condo units counted one by one) follow the region's mix. */
export function drawPtype(region: number, rng: Rng): number {
  const mix = region === REGION_CHICAGO ? G.ptype_mix_chicago : region === REGION_SUBURB ? G.ptype_mix_suburb : G.ptype_mix_lake;
  return rng.pickWeighted([mix[PT_SFH], mix[PT_MF], mix[PT_CONDO] / MEAN_CONDO_UNITS]);
}

function drawYearBuilt(region: number, asOfYear: number, rng: Rng): number {
  if (rng.chance(G.new_build_share)) return rng.int(G.yrblt_eras[G.yrblt_eras.length - 1], asOfYear - 1);
  const mix = region === REGION_CHICAGO ? G.yrblt_mix_chicago : region === REGION_SUBURB ? G.yrblt_mix_suburb : G.yrblt_mix_lake;
  const era = rng.pickWeighted(mix);
  return rng.int(G.yrblt_eras[era], G.yrblt_eras[era + 1] - 1);
}

function drawSqft(medianSqft: number, rng: Rng): number {
  const x = medianSqft * Math.exp(rng.normal() * G.sqft_sd_log);
  return Math.round(Math.min(Math.max(x, G.sqft_bounds[0]), G.sqft_bounds[1]) / 10) * 10;
}

function bedsForSqft(sqft: number, rng: Rng): number {
  const b = Math.round(sqft / G.sqft_per_bedroom + 0.3 + rng.normal() * G.beds_noise_sd);
  return Math.min(Math.max(b, G.beds_bounds[0]), G.beds_bounds[1]);
}

/** CCAO single-family class from stories, living area and age (ccao.class_dict.csv bounds, in the constants). */
export function sfhClass(stories: number, sqft: number, ageYears: number): number {
  const [b202, b203, b205, b207, b278, b209] = G.class_sqft_bounds;
  if (stories === STORIES_SPLIT) return 234;
  if (stories === STORIES_ONE) return sqft <= b202 ? 202 : sqft <= b203 ? 203 : 204;
  if (sqft >= b209) return 209;
  if (ageYears > G.class_old_age_years) return sqft <= b205 ? 205 : 206;
  return sqft <= b207 ? 207 : sqft <= b278 ? 278 : 208;
}

/**
 * Condition mix (distressed, dated, renovated) of existing buildings in a neighborhood `relLevel` (ln) above the
 * county level: distress concentrates where prices are low (generator 3.0.0); dated and renovated share the rest in
 * their base proportion.
 */
export function conditionMixAt(relLevel: number): number[] {
  const [d, dated, reno] = G.condition_mix;
  const [lo, hi] = G.noise_tier_clamp_log;
  const dist = Math.min(G.distressed_share_max, d * Math.exp(-G.distressed_tier_slope * Math.min(Math.max(relLevel, lo), hi)));
  const rest = (1 - dist) / (dated + reno);
  return [dist, dated * rest, reno * rest];
}

/** Base condition of an existing building; a building put up inside the sale window starts as new. */
function drawCondition(yearBuilt: number, rng: Rng, mix: readonly number[]): number {
  if (yearBuilt >= G.yrblt_eras[G.yrblt_eras.length - 1]) return COND_NEW;
  return COND_DISTRESSED + rng.pickWeighted(mix);
}

export function drawBuilding(ptype: number, region: number, asOfYear: number, rng: Rng, conditionMix: readonly number[] = G.condition_mix): Building {
  const yearBuilt = drawYearBuilt(region, asOfYear, rng);
  const cond = drawCondition(yearBuilt, rng, conditionMix);
  if (ptype === PT_MF) {
    const units = 2 + rng.pickWeighted(G.mf_units_mix);
    const sqft = drawSqft(G.sqft_per_unit_mf * units, rng);
    const beds = units * G.mf_beds_per_unit[rng.int(0, G.mf_beds_per_unit.length - 1)];
    return { ptype, units, sqft, beds, yearBuilt, stories: units > 2 ? STORIES_THREE : STORIES_TWO, cls: 211, cond };
  }
  if (ptype === PT_CONDO) {
    const sqft = drawSqft(G.sqft_median_condo, rng);
    return { ptype, units: 1, sqft, beds: Math.min(bedsForSqft(sqft, rng), 3), yearBuilt, stories: 0, cls: 299, cond };
  }
  const sqft = drawSqft(G.sqft_median_sfh[region], rng);
  const stories = region !== REGION_CHICAGO && rng.chance(G.split_level_share) ? STORIES_SPLIT : rng.chance(G.one_story_share) ? STORIES_ONE : STORIES_TWO;
  return { ptype, units: 1, sqft, beds: bedsForSqft(sqft, rng), yearBuilt, stories, cls: sfhClass(stories, sqft, asOfYear - yearBuilt), cond };
}
