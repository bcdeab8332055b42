// What operation handlers may call: the domain functions, bound at start-up (src/http/deps). Typed by the
// operations' own input/output schemas so a binding cannot drift from the contract.
import type { z } from 'zod';
import type { Analytics } from '../auth/audit.js';
import type { Caller } from '../auth/authorize.js';
import type { EventKind, EventRecord } from '../events/kinds.js';
import type { Health } from './health.js';
import type * as I from './inputs.js';
import type { WriteAck } from './common.js';
import type { TractList } from './tracts.js';
import type * as O from './tools.js';

type Out<S extends z.ZodType> = Promise<z.input<S>>;

/**
 * An answer already serialized where it was computed (a worker thread), for a payload of the operation's own output
 * schema: the REST door sends the text as application/json instead of cloning and serializing the object again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}
/** An output that may come pre-serialized (JsonText). */
type OutOrText<S extends z.ZodType> = Promise<z.input<S> | JsonText>;
export type JsonDocument = Record<string, unknown>;

/** Units (and price) already resolved by the door: from the input, else from a matching listing. */
export type ResolvedSubject = { units: number; priceUsd: number | null; listingId: string | null };

/**
 * The valuation side (valuation, underwriting, comps, risk, pulse, registry, scorecard). A binding whose engine
 * has not landed answers AppError `not_implemented` (501), never a made-up result.
 */
export type EngineDeps = {
  underwriteRest(i: I.UnderwriteQuery, s: ResolvedSubject): OutOrText<typeof O.UnderwriteRestOutputSchema>;
  deepUnderwrite(i: I.DeepUnderwriteInput, s: ResolvedSubject): Out<typeof O.UnderwriteAnswerSchema>;
  underwriteAlias(i: I.UnderwriteAliasInput, s: ResolvedSubject): Out<typeof O.UnderwriteAnswerSchema>;
  property(i: I.PropertyQuery, s: ResolvedSubject | null): Out<typeof O.PropertyOutputSchema>;
  comps(i: I.CompsInput): Out<typeof O.CompsOutputSchema>;
  marketPulse(i: { metro: 'chicago' }): Out<typeof O.MarketPulseOutputSchema>;
  riskReport(i: z.output<typeof I.RiskReportInputSchema>): Out<typeof O.RiskReportOutputSchema>;
  modelRegistry(): Promise<JsonDocument>;
  scorecard(): Promise<JsonDocument>;
};

export type DocumentDeps = {
  openapi(): JsonDocument;
  manifest(): z.input<typeof O.ManifestSchema>;
  valuationContract(): JsonDocument;
  scoringContract(): JsonDocument;
  constantsRegistry(): JsonDocument;
  errorTaxonomy(): JsonDocument;
};

export type WriteTool = 'save_favorite_property' | 'update_underwriting_preset' | 'add_note';

export type OperationDeps = {
  now(): Date;
  health(): Health;
  tractList(): TractList;
  publicListings(): Out<typeof O.ListingsOutputSchema>;
  tractReport(geoid: string): Out<typeof O.TractReportOutputSchema>;
  searchInventory(i: I.InventorySearchInput): Out<typeof O.InventorySearchOutputSchema>;
  searchDeals(i: I.SearchDealsInput): Out<typeof O.SearchDealsOutputSchema>;
  /** Resolve units/price (tools: from a matching listing), answer a refusal when unknown, else call the engine. */
  underwriteRest(i: I.UnderwriteQuery): OutOrText<typeof O.UnderwriteRestOutputSchema>;
  deepUnderwrite(i: I.DeepUnderwriteInput): Out<typeof O.UnderwriteAnswerSchema>;
  underwriteAlias(i: I.UnderwriteAliasInput): Out<typeof O.UnderwriteAnswerSchema>;
  /** Units from the query or a matching listing (or prop_type given); else 400 units_required. */
  property(i: I.PropertyQuery): Out<typeof O.PropertyOutputSchema>;
  writeState(tool: WriteTool, input: unknown, caller: Caller): Promise<WriteAck>;
  createProfile(input: unknown, caller: Caller): Out<typeof O.ProfileCreatedSchema>;
  appendEvent(kind: EventKind, payload: unknown, caller: Caller): Promise<EventRecord>;
  analytics(days: number): Analytics;
  documents: DocumentDeps;
  engine: EngineDeps;
};
