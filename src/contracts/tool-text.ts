// What an agent reads about each MCP tool before calling it: a title, and a description saying what the tool does,
// where it applies, which inputs it needs and what a refusal means; its kind sets the annotations. Per-parameter
// texts live on the zod input schemas (param-text.ts, subject-input.ts); the summary of each operation stays in
// operations.ts (OpenAPI reads it too). The server instructions quote the disclosure and the refusal rule verbatim.
import { REFUSAL_RULE, SCREENING_RULE } from './common.js';
import { DISCLOSURE } from './valuation.js';

/** read: answers only; write: stores the caller's own records; controller: appends a map command to /api/events. */
export type ToolKind = 'read' | 'write' | 'controller';
type ToolText = { title: string; kind: ToolKind; inputs: string; refuses?: boolean; idempotent?: boolean };

export const COVERAGE = 'Covers Cook and Lake County, Illinois (metro "chicago"), residential buildings of 1-4 units.';

const SUBJECT = 'Name the property by one of property_id, address, or lat with lon.';
const SUBJECT_NO_ID = 'Name the property by address, or lat with lon (no property_id).';

const TEXT: Record<string, ToolText> = {
  search_investment_inventory: { title: 'Search investment inventory', kind: 'read', inputs: 'All inputs optional: strategy, bbox or geography, thresholds, fields, cursor and limit. An empty result says why in empty_reason; it is an answer.' },
  search_deals: { title: 'Search deals (deprecated)', kind: 'read', inputs: 'All inputs optional: strategy, min_score, max_price, limit, since_hours.' },
  deep_underwrite_asset: { title: 'Underwrite a property', kind: 'read', refuses: true, inputs: `${SUBJECT} Optional: units (1-4), strategy, horizon_years, custom_assumptions. Needs a key with scope underwrite.` },
  underwrite: { title: 'Underwrite a property (deprecated v1)', kind: 'read', refuses: true, inputs: `${SUBJECT_NO_ID} Optional pro-forma inputs (price, rehab, rent, units, ...). Needs a key with scope underwrite.` },
  get_comps: { title: 'Comparable sales evidence', kind: 'read', refuses: true, inputs: `${SUBJECT} Optional: units (1-4), prop_type. Needs a key with scope underwrite.` },
  get_tract_report: { title: 'Census tract report', kind: 'read', inputs: 'Needs geoid: an 11-digit census tract GEOID of a mapped Cook or Lake tract.' },
  market_pulse: { title: 'County market pulse', kind: 'read', inputs: 'No input needed (metro defaults to chicago). Tract opportunity is a location screen only, never a property score.' },
  risk_report: { title: 'Property risk report', kind: 'read', refuses: true, inputs: `${SUBJECT_NO_ID} Optional: listing_units (1-4), year_built. Crime and demographic inputs are not accepted. When the unit count is unknown the report still answers, with valuation_refusal set.` },
  save_favorite_property: { title: 'Save a favorite property', kind: 'write', inputs: 'Needs property_id or address; optional payload. Needs a key with scope write-state.' },
  update_underwriting_preset: { title: 'Save an underwriting preset', kind: 'write', idempotent: true, inputs: 'Needs name and assumptions; id updates an existing preset. Saving the same preset again changes nothing. Needs a key with scope write-state.' },
  create_strategy_profile: { title: 'Create an alert profile', kind: 'write', inputs: 'Needs name, strategy, min_percentile, max_price, min_confidence, bbox and channels. Needs a key with scope write-state (webhook channels also webhooks).' },
  add_note: { title: 'Add a note', kind: 'write', inputs: 'Needs body; property_id or entity_id says what it is about. Needs a key with scope write-state.' },
  update_map_filters: { title: 'Set the map filters', kind: 'controller', inputs: 'Any of strategy, min_percentile, max_price, min_confidence, statuses. Open to every caller; the open web map (GET /) applies it.' },
  fly_to_location: { title: 'Move the map', kind: 'controller', inputs: 'Needs lat with lon, or address; optional zoom. Open to every caller; the open web map (GET /) applies it.' },
  highlight_properties: { title: 'Highlight properties on the map', kind: 'controller', inputs: 'Needs ids: listing ids or parcel PINs. Open to every caller; the open web map (GET /) applies it.' },
};

export function toolTextOf(opId: string): ToolText {
  const t = TEXT[opId];
  if (!t) throw new Error(`no tool text for operation ${opId}`);
  return t;
}

/** The description a client sees: summary, inputs, the refusal rule where the tool can refuse, coverage. */
export function toolDescription(opId: string, summary: string, replacement?: string): string {
  const t = toolTextOf(opId);
  const parts = [`${summary}.`, t.inputs, t.refuses ? REFUSAL_RULE : '', COVERAGE].filter(Boolean);
  return `${replacement ? `[deprecated: use ${replacement}] ` : ''}${parts.join(' ')}`;
}

/** MCP tool annotations by kind: writes add records and never delete (destructiveHint false); controllers write the stream. */
export function toolAnnotations(opId: string): { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean } {
  const t = toolTextOf(opId);
  return { readOnlyHint: t.kind === 'read', destructiveHint: false, idempotentHint: t.kind === 'read' || t.idempotent === true, openWorldHint: false };
}

/** The MCP server `instructions`: coverage, the disclosure verbatim (it carries the FCRA restriction), the refusal rule. */
export const SERVER_INSTRUCTIONS = [
  `Automated valuation and investment analysis. ${COVERAGE}`,
  `Disclosure, to relay wherever a person sees a number: ${DISCLOSURE}`,
  REFUSAL_RULE,
  SCREENING_RULE,
  'Read tools answer without a key (rate limited); get_comps and the underwriting tools need scope underwrite; write tools need write-state; the UI-controller tools drive the open web map through /api/events.',
].join('\n');

/** Every MCP tool name the service serves under its own operation (v2 names and the deprecated v1 tools). */
export const TOOL_NAMES = Object.keys(TEXT) as [string, ...string[]];
