// Piscina worker entry: instantiates the kernel once per thread from the shared snapshot columns (SharedArrayBuffer
// views, copied once into this instance's linear memory), loads extra task modules, then answers {task, payload}.
import { workerData } from 'node:worker_threads';
import { createKernel } from '../kernel/kernel.js';
import type { KernelColumns, TimeIndexSeries } from '../kernel/types.js';
import type { WasmModule } from '../kernel/wasm.js';
import { BUILTIN_TASKS, dispatch, type TaskHandler, type TaskReply } from './tasks.js';

export type WorkerInit = { columns: KernelColumns; timeIndex: TimeIndexSeries[]; module?: WasmModule; taskModules: string[] };

async function init(): Promise<(msg: { task: string; payload: unknown }) => Promise<TaskReply>> {
  const data = workerData as WorkerInit;
  const load = () => createKernel(data.columns, data.timeIndex, { module: data.module });
  let kernel = load();
  const handlers: Record<string, TaskHandler> = { ...BUILTIN_TASKS };
  for (const url of data.taskModules) {
    const mod = (await import(url)) as { tasks?: Record<string, TaskHandler> };
    Object.assign(handlers, mod.tasks ?? {});
  }
  return (msg) => {
    // A trapped instance is replaced from the shared columns before the next task.
    if (kernel.poisoned()) kernel = load();
    return dispatch(handlers, msg.task, msg.payload, { kernel });
  };
}

// Piscina awaits a promised default export: the kernel loads before the first task runs.
export default init();
