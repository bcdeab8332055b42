// Writes one benchmark's machine-readable result to bench/results/<name>.json with the machine facts beside it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT_DIR } from '../src/config.js';

export const RESULTS_DIR = join(ROOT_DIR, 'bench', 'results');

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
