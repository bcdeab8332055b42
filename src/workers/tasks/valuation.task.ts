// Worker task module of the service's pool: `answer` runs one operation's worker side (workers/answers) under the
// stamp the main thread read for the request; `value` is one served valuation (tests and tools). Both value through
// the thread's one context (workers/context.ts) and the comp-source chain of the service's configuration.
import type { Valuation } from '../../contracts/valuation.js';
import { serveValuation, type ServeFallbackConfig } from '../../valuation/fallback/serve.js';
import type { ValueInput } from '../../valuation/value.js';
import { answerOf, type EngineInputs, type EngineOp } from '../answers/index.js';
import { contextFor } from '../context.js';
import type { Stamp } from '../stamp.js';
import type { TaskHandler } from '../tasks.js';

/** What every valuation task carries: where the store is, the versions to answer under, the comp-source chain. */
export type StampedPayload = { dataDir: string; stamp: Stamp; chain: ServeFallbackConfig };
export type AnswerPayload<Op extends EngineOp = EngineOp> = StampedPayload & { op: Op; input: EngineInputs[Op] };

export const ANSWER_TASK = 'answer';
export const VALUE_TASK = 'value';

export const tasks: Record<string, TaskHandler> = {
  [ANSWER_TASK]: (p: AnswerPayload) => {
    const w = contextFor(p.dataDir, p.stamp);
    return answerOf(p.op, p.input, { store: w.store, ctx: w.ctx, chain: p.chain, listingsRun: p.stamp.listingsRun });
  },
  [VALUE_TASK]: async (p: StampedPayload & { input: ValueInput }): Promise<Valuation> => (await serveValuation(p.input, contextFor(p.dataDir, p.stamp).ctx, p.chain)).valuation,
};
