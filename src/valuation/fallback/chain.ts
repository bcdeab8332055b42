// The comp-source fallback chain (artifact.fallback_chain): `corpus`, then the open-data client (`opendata_fallback`,
// or `opendata_forced` when config forces it) for Cook, then `lake_gis` for Lake, then `none`. Every attempt is
// recorded {source, served, fields_missing?, note}; the chain stops at the first source that serves.
import type { FallbackAttempt, FallbackSource } from '../../contracts/artifact.js';
import { isAppError } from '../../errors/app-error.js';
import { FALLBACK } from '../../registry/groups/fallback.js';
import { fetchOpendataComps, type OpendataComps, type OpendataConfig } from './opendata.js';

/** What a source's valuation step reports (the caller runs the kernel; the chain only orders and records). */
export type SourceOutcome = { served: boolean; note: string; fieldsMissing?: string[] };

export type ChainSubject = { county: 'cook' | 'lake' | 'unknown'; lat: number; lon: number; asOfDay: number };
export type ChainConfig = OpendataConfig & { forceOpendata: boolean };
export type ChainSteps = {
  /** Values the subject from the ingested corpus (kernel over the current snapshot). */
  corpus: () => SourceOutcome | Promise<SourceOutcome>;
  /** Values the subject from open-data comps (same kernel over the fetched columns). */
  opendata: (comps: OpendataComps) => SourceOutcome | Promise<SourceOutcome>;
  /** Values a Lake subject from Lake County GIS comps; absent when no such source is wired. */
  lakeGis?: () => SourceOutcome | Promise<SourceOutcome>;
};

export type ChainResult = { chain: FallbackAttempt[]; served: FallbackSource | null; opendata: OpendataComps | null };

const attempt = (source: FallbackSource, o: SourceOutcome): FallbackAttempt =>
  o.fieldsMissing && o.fieldsMissing.length > 0 ? { source, served: o.served, fields_missing: o.fieldsMissing, note: o.note } : { source, served: o.served, note: o.note };

async function tryOpendata(s: ChainSubject, cfg: ChainConfig, steps: ChainSteps): Promise<{ a: FallbackAttempt; comps: OpendataComps | null }> {
  const source: FallbackSource = cfg.forceOpendata ? 'opendata_forced' : 'opendata_fallback';
  let comps: OpendataComps;
  try {
    comps = await fetchOpendataComps(s, cfg);
  } catch (e) {
    if (!isAppError(e) || e.code !== 'opendata_unreachable') throw e;
    const reason = (e.details as { reason?: string } | null)?.reason ?? e.message;
    const ms = cfg.connectTimeoutMs ?? FALLBACK.v.connect_timeout_ms;
    return { a: { source, served: false, note: `open-data portal unreachable (${reason}); failed fast (connect timeout ${ms} ms, no network assumed)` }, comps: null };
  }
  if (comps.columns.length === 0) {
    return { a: attempt(source, { served: false, note: `open-data returned no usable sales (${comps.parcelsInRadius} parcels in radius, ${comps.requests} requests)`, fieldsMissing: comps.fieldsMissing }), comps };
  }
  const o = await steps.opendata(comps);
  const fieldsMissing = [...new Set([...comps.fieldsMissing, ...(o.fieldsMissing ?? [])])].sort();
  return { a: attempt(source, { ...o, note: `${o.note} (${comps.columns.length} open-data sales, ${comps.requests} requests)`, fieldsMissing }), comps };
}

/** Runs the chain for a subject. Expected outcomes (unreachable, nothing served) are recorded, never thrown. */
export async function runFallbackChain(s: ChainSubject, cfg: ChainConfig, steps: ChainSteps): Promise<ChainResult> {
  const chain: FallbackAttempt[] = [];
  let opendata: OpendataComps | null = null;
  const finish = (served: FallbackSource | null): ChainResult => {
    if (served === null) chain.push({ source: 'none', served: false, note: 'no comp source served this subject' });
    return { chain, served, opendata };
  };
  if (cfg.forceOpendata) chain.push({ source: 'corpus', served: false, note: 'skipped: open-data path forced by configuration (AVM_FORCE_OPENDATA)' });
  else {
    const o = await steps.corpus();
    chain.push(attempt('corpus', o));
    if (o.served) return finish('corpus');
  }
  if (s.county === 'cook' || cfg.forceOpendata) {
    if (s.county !== 'cook') chain.push({ source: 'opendata_forced', served: false, note: `Cook County open data does not cover county ${s.county}` });
    else {
      const r = await tryOpendata(s, cfg, steps);
      chain.push(r.a);
      opendata = r.comps;
      if (r.a.served) return finish(r.a.source);
    }
  }
  if (s.county === 'lake') {
    const o = steps.lakeGis ? await steps.lakeGis() : { served: false, note: 'no Lake County GIS comp source is configured' };
    chain.push(attempt('lake_gis', o));
    if (o.served) return finish('lake_gis');
  }
  return finish(null);
}
