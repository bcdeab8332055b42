// Public surface of the comp-source fallback chain and the open-data client.
export { runFallbackChain, type ChainConfig, type ChainResult, type ChainSteps, type ChainSubject, type SourceOutcome } from './chain.js';
export { fetchOpendataComps, opendataSalesIpc, type OpendataComps, type OpendataConfig, type OpendataSubject } from './opendata.js';
export { normalizeOpendata, type SodaRow } from './normalize.js';
export { sodaUrl, universeQuery, salesQuery, charsQuery, type SodaParams } from './soda.js';
export { getJson } from './http-get.js';
export { serveValuation, opendataContext, type ServeFallbackConfig } from './serve.js';
