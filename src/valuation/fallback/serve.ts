// The comp-source fallback chain on a served single valuation: value from the corpus first; only when the corpus
// stratum holds fewer than 3 comps (or config forces open data) ask the open-data portal, value the subject with the
// same kernel over those comps, then record every attempt in artifact.fallback_chain. Bulk scoring never comes here.
import type { FallbackAttempt } from '../../contracts/artifact.js';
import type { Valuation } from '../../contracts/valuation.js';
import { createKernel } from '../../kernel/index.js';
import { kernelColumnsOf } from '../comps/kernel-columns.js';
import { buildParcelSalesIndex } from '../comps/flip-pairs.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import { resolveSubject, type ResolvedSubject } from '../subject/subject.js';
import { salesDigest, type ValuationContext } from '../value-context.js';
import { asOfOf, valueWithEvidence, type Valued, type ValueInput } from '../value.js';
import { runFallbackChain, type ChainResult } from './chain.js';
import type { OpendataComps } from './opendata.js';

export type ServeFallbackConfig = { opendataBaseUrl: string; forceOpendata: boolean; connectTimeoutMs?: number; requestTimeoutMs?: number };

/** The chain settings of the service's configuration (AVM_OPENDATA_BASE_URL, AVM_FORCE_OPENDATA). */
export function chainOfConfig(c: { opendataBaseUrl: string; forceOpendata: boolean }): ServeFallbackConfig {
  return { opendataBaseUrl: c.opendataBaseUrl, forceOpendata: c.forceOpendata };
}

/**
 * Ladder reasons that mean the corpus stratum yielded fewer than 3 comps: too few renovated comps, or a tract with no
 * ingested sale at all. Dispersion or luxury suppression has comps (open data would bring the same market).
 */
const CORPUS_SHORT_REASONS = new Set(['insufficient_renovated_comps', 'tract_not_ingested']);

const OPENDATA_SOURCES = new Set(['opendata_fallback', 'opendata_forced']);

/**
 * A valuation context whose comp source is the open-data sales. Their parcel indices are moved past the corpus
 * parcel rows (the subject's own parcel row, which the kernel excludes, must not hit a stranger's sale), except the
 * subject's own PIN, which takes the subject's row so its own sales are never its comps. Calibration, time index,
 * units premium and the Tier-2/area/rent hooks stay the corpus's.
 */
export function opendataContext(ctx: ValuationContext, comps: OpendataComps | null, r: ResolvedSubject): ValuationContext {
  const src = comps?.columns ?? null;
  const n = src?.length ?? 0;
  const offset = ctx.subjects.parcels?.length ?? ctx.sales.length;
  const parcelIdx = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const pin = (src as SalesColumns).pin(i);
    parcelIdx[i] = r.parcelPin !== null && r.parcelRow !== null && pin === r.parcelPin ? r.parcelRow : offset + (src as SalesColumns).parcelIdx[i];
  }
  const sales: SalesColumns = src ? { ...src, parcelIdx } : { ...ctx.sales, ...emptyColumns(ctx.sales) };
  const ingested = new Set(ctx.ingestedTracts);
  for (let i = 0; i < sales.length; i++) if (sales.tractIdx[i] < sales.tracts.length) ingested.add(sales.tracts[sales.tractIdx[i]]);
  return { ...ctx, kernel: createKernel(kernelColumnsOf(sales), ctx.timeIndex.series), sales, compSalesDigest: salesDigest(sales), parcelSales: buildParcelSalesIndex(sales), ingestedTracts: ingested };
}

/** Zero-row columns of the same shape (a forced open-data path that got no comps values from nothing). */
function emptyColumns(c: SalesColumns): Partial<SalesColumns> {
  const out: Record<string, unknown> = { length: 0 };
  for (const [k, v] of Object.entries(c)) if (ArrayBuffer.isView(v)) out[k] = new (v.constructor as new (n: number) => ArrayBufferView)(0);
  return out as Partial<SalesColumns>;
}

const noteOf = (v: Valuation): string => (v.artifact?.arv ? `${v.artifact.arv.n_comps} renovated/new comps` : `no Tier-1 value: ${v.artifact?.arv_null_reason ?? 'unknown'}`);

/**
 * One served valuation with its comp-source chain and the comp evidence of the source that served it. Without network
 * the open-data client fails fast (connect timeout) and the chain records it; the corpus valuation is then served with
 * that record. Every door (REST, MCP, the listings run) values a single subject through here.
 */
export async function serveValuation(input: ValueInput, ctx: ValuationContext, cfg: ServeFallbackConfig): Promise<Valued> {
  const corpus = valueWithEvidence(input, ctx);
  const art = corpus.valuation.artifact;
  const reason = art?.arv_null_reason ?? null;
  if (!cfg.forceOpendata && (art?.arv || reason === null || !CORPUS_SHORT_REASONS.has(reason))) return corpus;
  const r = resolveSubject(input, ctx.subjects);
  const corpusAttempt: FallbackAttempt = art?.fallback_chain[0] ?? { source: 'corpus', served: false, note: noteOf(corpus.valuation) };
  const odCtx: { ctx: ValuationContext | null } = { ctx: null };
  const result: ChainResult = await runFallbackChain(
    { county: r.subject.county, lat: r.subject.lat, lon: r.subject.lon, asOfDay: asOfOf(input, ctx).asOfDay },
    { ...cfg, tracts: ctx.sales.tracts },
    {
      corpus: () => ({ served: corpusAttempt.served, note: corpusAttempt.note }),
      opendata: (comps) => {
        const c = opendataContext(ctx, comps, r);
        const v = valueWithEvidence(input, c).valuation;
        odCtx.ctx = c;
        return { served: v.artifact?.arv != null, note: `open-data comps: ${noteOf(v)}` };
      },
    },
  );
  if (result.served !== null && OPENDATA_SOURCES.has(result.served)) return valueWithEvidence(input, odCtx.ctx as ValuationContext, { fallbackChain: result.chain });
  // Forced and not served: the corpus was skipped, so the answer must not carry its value; value from what open data gave.
  const from = cfg.forceOpendata ? (odCtx.ctx ?? opendataContext(ctx, result.opendata, r)) : ctx;
  return valueWithEvidence(input, from, { fallbackChain: result.chain });
}
