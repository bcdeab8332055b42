// How a caller names the property a tool values, and the rule that at least one way is given, worded with only the
// keys the tool takes: an agent reading the error learns a parameter it can actually pass (risk_report and the v1
// `underwrite` alias take no property_id, so their message must not name it).
import { z } from 'zod';
import { LatSchema, LonSchema, NonEmptySchema } from './common.js';

export type SubjectWay = 'property_id' | 'address' | 'lat_lon';
type SubjectFields = { property_id?: string; address?: string; lat?: number; lon?: number };

export const PropertyIdParam = NonEmptySchema.describe('the property: a listing_id (as search_investment_inventory returns it) or a county parcel PIN (digits; dashes ignored)');
export const AddressParam = NonEmptySchema.describe('street address in Cook or Lake County, IL (e.g. "123 N Main St, Chicago"); matched against listings and parcel records');
export const LatParam = LatSchema.describe('latitude, decimal degrees (WGS 84), -90..90; give with lon');
export const LonParam = LonSchema.describe('longitude, decimal degrees (WGS 84), -180..180; give with lat');

const WORDS: Record<SubjectWay, string> = { property_id: 'property_id', address: 'address', lat_lon: 'both lat and lon' };

function given(v: SubjectFields, way: SubjectWay): boolean {
  return way === 'lat_lon' ? v.lat !== undefined && v.lon !== undefined : v[way] !== undefined;
}

/** "give property_id, address, or both lat and lon" for the ways this tool accepts. */
export function subjectRuleText(ways: readonly SubjectWay[]): string {
  const w = ways.map((x) => WORDS[x]);
  return `give ${w.length > 1 ? `${w.slice(0, -1).join(', ')}, or ${w[w.length - 1]}` : w[0]}`;
}

/** The refinement of a subject input: at least one of `ways`, its message naming only those. */
export function withSubjectRule<S extends z.ZodType<SubjectFields>>(schema: S, ways: readonly SubjectWay[]) {
  return schema.refine((v) => ways.some((w) => given(v, w)), { message: subjectRuleText(ways) });
}
