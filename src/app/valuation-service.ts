// The main-thread door to valuations: a worker pool (started lazily on first use, so a server without requests never
// spawns threads) whose threads run the `value` task module and the listings `score` task module (underwrite
// bundle, risk report). Routes and the MCP door call these functions.
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Valuation } from '../contracts/valuation.js';
import { repoRoot } from '../kernel/wasm.js';
import type { BundleRequest, UnderwriteBundle } from '../workers/answers/bundle.js';
import { scoreTaskModulePath } from '../scoring/scorer.js';
import { BUNDLE_TASK, RISK_TASK, UNDERWRITE_JSON_TASK, type BundlePayload } from '../workers/tasks/score.task.js';
import type { RiskReportResponse } from '../risk/index.js';
import type { Store } from '../store/store.js';
import { createValuationPool, type ValuationPool } from '../workers/pool.js';
import type { getComps, ValueInput } from '../valuation/value.js';
import { loadKernelSnapshot } from '../valuation/value-context.js';

export type CompsInput = { address?: string | null; lat?: number | null; lon?: number | null; propType?: 'mf2_4' | 'sfh' | null };

export type ValuationService = {
  value(input: ValueInput): Promise<Valuation>;
  getComps(input: CompsInput): Promise<ReturnType<typeof getComps>>;
  /** One subject's valuation with its underwriting and risk report (worker task `underwriteBundle`). */
  underwriteBundle(req: BundleRequest): Promise<UnderwriteBundle>;
  /** GET /api/underwrite's body as JSON text, assembled and serialized in the worker (task `underwriteResponseJson`). */
  underwriteResponseJson(req: BundleRequest): Promise<string>;
  /** The risk_report tool answer; raw params are validated strictly in the worker (risk/index.ts). */
  riskReport(params: unknown): Promise<RiskReportResponse>;
  close(): Promise<void>;
};

/** Compiled task module the workers load (Piscina threads run JavaScript from dist/). */
export function valueTaskModulePath(): string {
  return join(repoRoot(), 'dist', 'src', 'workers', 'tasks', 'value.task.js');
}

export function createValuationService(config: Config, store: Store): ValuationService {
  let pool: Promise<ValuationPool> | null = null;
  // The snapshot the workers' kernels hold: every task names it, so a worker never pairs those rows with another snapshot.
  let snapshotId: string | null = null;
  const ensure = (): Promise<ValuationPool> =>
    (pool ??= createValuationPool({
      workers: config.workers,
      maxQueue: config.poolMaxQueue,
      taskTimeoutMs: config.taskTimeoutMs,
      snapshotLoader: () => {
        const snap = loadKernelSnapshot(store);
        snapshotId = snap.snapshotId;
        return snap;
      },
      taskModules: [valueTaskModulePath(), scoreTaskModulePath()],
    }).catch((e) => {
      pool = null; // a failed start (e.g. no corpus yet) is retried by the next request
      throw e;
    }));
  const payload = (input: unknown) => ({ dataDir: config.dataDir, snapshotId, input });
  return {
    // A served single valuation runs the comp-source fallback chain (corpus, then open data when thin or forced).
    value: async (input) => (await ensure()).run<Valuation>('value', { ...payload(input), fallback: { opendataBaseUrl: config.opendataBaseUrl, forceOpendata: config.forceOpendata } }),
    getComps: async (input) => (await ensure()).run('getComps', payload(input)),
    underwriteBundle: async (req) => (await ensure()).run<UnderwriteBundle>(BUNDLE_TASK, { ...req, dataDir: config.dataDir } satisfies BundlePayload),
    underwriteResponseJson: async (req) => (await ensure()).run<string>(UNDERWRITE_JSON_TASK, { ...req, dataDir: config.dataDir } satisfies BundlePayload),
    riskReport: async (params) => (await ensure()).run<RiskReportResponse>(RISK_TASK, { dataDir: config.dataDir, params }),
    close: async () => {
      if (pool) await (await pool).close();
    },
  };
}
