// Persists hedonic_v1 models in the LMDB `calibration` sub-db: `hedonic:<version>` (immutable) and the
// `hedonic:current` pointer; lists them for the model registry.
import type { RootDatabase } from 'lmdb';
import { AppError } from '../../errors/app-error.js';
import { DB_NAMES, openSubDb } from '../../store/env.js';
import type { HedonicModel } from './types.js';

const PREFIX = 'hedonic:';
export const HEDONIC_CURRENT_KEY = 'hedonic:current';

export type HedonicModelSummary = {
  version: string; cutoff: string; constants_version: string;
  segments: Array<{ segment: string; n: number; sigma: number; r2: number; display_eligible: boolean; calib_n: number | null; calib_mdape: number | null }>;
};

/** Writes the model under its version and points `hedonic:current` at it; resolves once durable. */
export async function saveHedonicModel(env: RootDatabase, model: HedonicModel): Promise<void> {
  const db = openSubDb(env, DB_NAMES.calibration);
  await env.transaction(() => {
    db.put(`${PREFIX}${model.version}`, model);
    db.put(HEDONIC_CURRENT_KEY, model.version);
  });
}

/** The model `version` (default: current), or null when none was fit. */
export function loadHedonicModel(env: RootDatabase, version?: string): HedonicModel | null {
  const db = openSubDb(env, DB_NAMES.calibration);
  const v = version ?? (db.get(HEDONIC_CURRENT_KEY) as string | undefined);
  if (v === undefined) return null;
  const m = db.get(`${PREFIX}${v}`) as HedonicModel | undefined;
  if (!m) {
    if (version !== undefined) throw new AppError('not_found', `no hedonic model ${version}`);
    return null;
  }
  return m;
}

export function summarizeHedonicModel(m: HedonicModel): HedonicModelSummary {
  return {
    version: m.version, cutoff: m.cutoff, constants_version: m.constantsVersion,
    segments: Object.values(m.segments).map((s) => ({
      segment: s.segment, n: s.n, sigma: s.sigma, r2: s.r2, display_eligible: s.displayEligible,
      calib_n: s.calibration?.n ?? null, calib_mdape: s.calibration?.mdape ?? null,
    })),
  };
}

/** Every stored hedonic model, oldest key first, as summaries (for the model registry). */
export function listHedonicModels(env: RootDatabase): HedonicModelSummary[] {
  const db = openSubDb(env, DB_NAMES.calibration);
  const out: HedonicModelSummary[] = [];
  for (const { key, value } of db.getRange({ start: PREFIX, end: `${PREFIX}\uffff` })) {
    if (key === HEDONIC_CURRENT_KEY) continue;
    out.push(summarizeHedonicModel(value as HedonicModel));
  }
  return out;
}

/** Version of the current hedonic model (the `hedonic:current` pointer), or null when none was fit. One small read. */
export function currentHedonicVersion(env: RootDatabase): string | null {
  return (openSubDb(env, DB_NAMES.calibration).get(HEDONIC_CURRENT_KEY) as string | undefined) ?? null;
}
