// Worker task module: `value` (one full valuation), `valueBatch` (many; each item its value or its typed error) and
// `getComps` (comp evidence). Each thread builds its valuation context once per data dir and snapshot, over the
// kernel the pool already loaded for it (the pool's snapshotLoader is loadKernelSnapshot, so both agree).
import { AppError } from '../../errors/app-error.js';
import type { Kernel } from '../../kernel/kernel.js';
import { openModelRegistry, type ModelRegistry } from '../../registry/model-registry.js';
import { openStore, type Store } from '../../store/store.js';
import { serveValuation, type ServeFallbackConfig } from '../../valuation/fallback/serve.js';
import { buildValuationContext, type ValuationContext } from '../../valuation/value-context.js';
import { getComps, valueProperty, type ValueInput } from '../../valuation/value.js';
import { asAppError, type TaskHandler } from '../tasks.js';

/** `snapshotId`: the snapshot this pool's kernels were loaded from (default: the current one). */
/** `fallback`: the comp-source chain settings of a served request; absent → corpus only. */
type Payload = { dataDir: string; snapshotId?: string | null; input: ValueInput; fallback?: ServeFallbackConfig | null };
type BatchPayload = { dataDir: string; snapshotId?: string | null; inputs: ValueInput[] };

const stores = new Map<string, { store: Store; registry: ModelRegistry }>();
let cached: { dataDir: string; snapshotId: string; kernel: Kernel; ctx: ValuationContext } | null = null;

function contextFor(dataDir: string, kernel: Kernel, pinned?: string | null): ValuationContext {
  if (typeof dataDir !== 'string' || dataDir.length === 0) throw new AppError('internal_error', 'value task needs the data dir');
  let opened = stores.get(dataDir);
  if (!opened) {
    const store = openStore(dataDir);
    opened = { store, registry: openModelRegistry(store) };
    stores.set(dataDir, opened);
  }
  const { store, registry } = opened;
  const snapshotId = pinned ?? store.currentSnapshotId();
  if (!cached || cached.dataDir !== dataDir || cached.snapshotId !== snapshotId || cached.kernel !== kernel) {
    const ctx = buildValuationContext(store, { kernel, snapshotId: snapshotId ?? undefined });
    cached = { dataDir, snapshotId: ctx.snapshotId, kernel, ctx };
  }
  // A newly promoted calibration serves from the next task on (one small LMDB read per task).
  const champion = registry.document().champion?.calibrationVersion ?? null;
  if (champion !== (cached.ctx.calibration?.version ?? null)) cached.ctx.calibration = registry.championTable();
  return cached.ctx;
}

export type BatchItem = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

export const tasks: Record<string, TaskHandler> = {
  value: (p: Payload, { kernel }) => {
    const ctx = contextFor(p.dataDir, kernel, p.snapshotId);
    return p.fallback ? serveValuation(p.input, ctx, p.fallback) : valueProperty(p.input, ctx);
  },
  // Bulk valuation stays corpus-only: no open-data round trips per row (the chain is for served single requests).
  valueBatch: (p: BatchPayload, { kernel }): BatchItem[] => {
    const ctx = contextFor(p.dataDir, kernel, p.snapshotId);
    return p.inputs.map((input) => {
      try {
        return { ok: true, value: valueProperty(input, ctx) };
      } catch (e) {
        const err = asAppError(e) ?? new AppError('internal_error', (e as Error)?.message ?? String(e));
        return { ok: false, error: { code: err.code, message: err.message } };
      }
    });
  },
  getComps: (p: Payload, { kernel }) => getComps(p.input as never, contextFor(p.dataDir, kernel, p.snapshotId)),
};
