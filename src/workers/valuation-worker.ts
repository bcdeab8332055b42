// Piscina worker entry: instantiates the kernel once per thread from shared columns when the pool was given some
// (SharedArrayBuffer views, copied once into a WASM instance's linear memory, or joined to the process's one native index),
// loads the task modules, then answers {task, payload}. Valuation tasks keep their own context (workers/context.ts) and do not use this kernel.
import { workerData } from 'node:worker_threads';
import { createKernel } from '../kernel/select.js';
import type { KernelFrontEnd } from '../kernel/kernel.js';
import type { KernelColumns, TimeIndexSeries } from '../kernel/types.js';
import type { WasmModule } from '../kernel/wasm.js';
import { BUILTIN_TASKS, dispatch, type TaskHandler, type TaskReply } from './tasks.js';

export type WorkerInit = { columns: KernelColumns | null; timeIndex: TimeIndexSeries[]; module?: WasmModule; taskModules: string[]; frontEnd?: KernelFrontEnd };

async function init(): Promise<(msg: { task: string; payload: unknown }) => Promise<TaskReply>> {
  const data = workerData as WorkerInit;
  const columns = data.columns;
  const load = () => (columns ? createKernel(columns, data.timeIndex, { module: data.module, frontEnd: data.frontEnd }) : null);
  let kernel = load();
  const handlers: Record<string, TaskHandler> = { ...BUILTIN_TASKS };
  for (const url of data.taskModules) {
    const mod = (await import(url)) as { tasks?: Record<string, TaskHandler> };
    Object.assign(handlers, mod.tasks ?? {});
  }
  return (msg) => {
    // A trapped instance is replaced from the shared columns before the next task.
    if (kernel?.poisoned()) kernel = load();
    return dispatch(handlers, msg.task, msg.payload, { kernel });
  };
}

// Piscina awaits a promised default export: the kernel loads before the first task runs.
export default init();
