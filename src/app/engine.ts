// The main-thread door to the valuation: a worker pool (started lazily on first use, so a server without requests
// never spawns threads) whose threads answer the valuation operations (workers/answers). Every task carries the stamp
// read for its request, so a promoted calibration or a switched snapshot answers from the next request on, on every
// door alike.
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Valuation } from '../contracts/valuation.js';
import { repoRoot } from '../kernel/wasm.js';
import type { Store } from '../store/store.js';
import { chainOfConfig } from '../valuation/fallback/serve.js';
import type { ValueInput } from '../valuation/value.js';
import type { EngineInputs, EngineOp } from '../workers/answers/index.js';
import { createValuationPool, type PoolStats, type ValuationPool } from '../workers/pool.js';
import { readStamp, type Stamp } from '../workers/stamp.js';
import { ANSWER_TASK, VALUE_TASK, type AnswerPayload, type StampedPayload } from '../workers/tasks/valuation.task.js';

export type Engine = {
  /** One valuation operation's answer, computed in a worker under the current stamp. */
  answer<Op extends EngineOp>(op: Op, input: EngineInputs[Op]): Promise<unknown>;
  /** One served valuation (comp-source chain included). */
  value(input: ValueInput): Promise<Valuation>;
  /** The versions the next answer is computed under. */
  stamp(): Stamp;
  /** The pool's gauges; null until the first valuation starts it. */
  poolStats?(): PoolStats | null;
  close(): Promise<void>;
};

/** Compiled task module the workers load (Piscina threads run JavaScript from dist/). */
export function valuationTaskModulePath(): string {
  return join(repoRoot(), 'dist', 'src', 'workers', 'tasks', 'valuation.task.js');
}

export function createEngine(config: Config, store: Store): Engine {
  let pool: Promise<ValuationPool> | null = null;
  let started: ValuationPool | null = null;
  const ensure = (): Promise<ValuationPool> =>
    (pool ??= createValuationPool({
      workers: config.workers,
      maxQueue: config.poolMaxQueue,
      taskTimeoutMs: config.taskTimeoutMs,
      taskModules: [valuationTaskModulePath()],
    }).then((p) => (started = p)).catch((e) => {
      pool = null; // a failed start is retried by the next request
      throw e;
    }));
  const chain = chainOfConfig(config);
  const stamped = (): StampedPayload => ({ dataDir: config.dataDir, stamp: readStamp(store), chain });
  return {
    answer: async (op, input) => {
      const payload: AnswerPayload = { ...stamped(), op, input };
      return (await ensure()).run(ANSWER_TASK, payload);
    },
    value: async (input) => (await ensure()).run<Valuation>(VALUE_TASK, { ...stamped(), input }),
    stamp: () => readStamp(store),
    poolStats: () => started?.stats() ?? null,
    close: async () => {
      if (pool) await (await pool).close();
    },
  };
}
