// Release versions stamped on every valuation, score and alert (spec: model_version, model_versions).
// Bump MODEL_VERSION whenever valuation output can change: rows scored under an older one count as stale.

export const MODEL_VERSION = 'avm-2026.11.3';
export const UNDERWRITE_VERSION = 'uw-2026.11.1';
export const SERVING_VERSION = 'svc-0.1.0';

export const MODEL_VERSIONS = { model: MODEL_VERSION, underwrite: UNDERWRITE_VERSION, serving: SERVING_VERSION } as const;
