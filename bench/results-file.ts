// Writes one benchmark's machine-readable result to bench/results/<name>.json with the machine facts beside it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

export const RESULTS_DIR = resolve(new URL('.', import.meta.url).pathname, import.meta.url.includes('/dist/') ? '../../bench/results' : 'results');

export function writeBenchResult(name: string, result: Record<string, unknown>): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}.json`);
  const doc = {
    name,
    recorded_at: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, mem_gib: Math.round(totalmem() / 1024 ** 3), node: process.version },
    ...result,
  };
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}
