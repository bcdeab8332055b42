// Worker task module: `value` (one full valuation), `valueBatch` (many; each item its value or its typed error) and
// `getComps` (comp evidence). Each thread builds its valuation context once per data dir and snapshot, over the
// kernel the pool already loaded for it (the pool's snapshotLoader is loadKernelSnapshot, so both agree).
import { AppError } from '../errors/app-error.js';
import type { Kernel } from '../kernel/kernel.js';
import { openStore, type Store } from '../store/store.js';
import { buildValuationContext, type ValuationContext } from '../valuation/value-context.js';
import { getComps, valueProperty, type ValueInput } from '../valuation/value.js';
import type { TaskHandler } from './tasks.js';

type Payload = { dataDir: string; input: ValueInput };
type BatchPayload = { dataDir: string; inputs: ValueInput[] };

const stores = new Map<string, Store>();
let cached: { dataDir: string; snapshotId: string; kernel: Kernel; ctx: ValuationContext } | null = null;

function contextFor(dataDir: string, kernel: Kernel): ValuationContext {
  if (typeof dataDir !== 'string' || dataDir.length === 0) throw new AppError('internal_error', 'value task needs the data dir');
  let store = stores.get(dataDir);
  if (!store) {
    store = openStore(dataDir);
    stores.set(dataDir, store);
  }
  const snapshotId = store.currentSnapshotId();
  if (!cached || cached.dataDir !== dataDir || cached.snapshotId !== snapshotId || cached.kernel !== kernel) {
    const ctx = buildValuationContext(store, { kernel });
    cached = { dataDir, snapshotId: ctx.snapshotId, kernel, ctx };
  }
  return cached.ctx;
}

export type BatchItem = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

export const tasks: Record<string, TaskHandler> = {
  value: (p: Payload, { kernel }) => valueProperty(p.input, contextFor(p.dataDir, kernel)),
  valueBatch: (p: BatchPayload, { kernel }): BatchItem[] => {
    const ctx = contextFor(p.dataDir, kernel);
    return p.inputs.map((input) => {
      try {
        return { ok: true, value: valueProperty(input, ctx) };
      } catch (e) {
        const err = e instanceof AppError ? e : new AppError('internal_error', (e as Error)?.message ?? String(e));
        return { ok: false, error: { code: err.code, message: err.message } };
      }
    });
  },
  getComps: (p: Payload, { kernel }) => getComps(p.input as never, contextFor(p.dataDir, kernel)),
};
