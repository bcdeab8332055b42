// Synthetic corpus generation time at the default and county scales: wall and CPU time (the machine is shared, so CPU
// time is the steadier number), peak resident memory, rows and bytes written. Writes bench/results/generate.json.
// One run per scale: a county run takes minutes, so repeated sampling (tinybench) would add nothing but time.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dayOfIso } from '../src/store/days.js';
import { DEFAULT_AS_OF, GENERATOR_VERSION, generateCorpus, type Scale } from '../src/ingest/generate/generate.js';
import { GENERATOR } from '../src/registry/groups/generator.js';
import { compDensity } from './generate-density.js';
import { writeBenchResult } from './results-file.js';

export type GenerateBenchOptions = { scales?: Scale[]; seed?: number; keep?: boolean };

function bytesUnder(dir: string): number {
  let total = 0;
  for (const sub of readdirSync(dir)) for (const f of readdirSync(join(dir, sub))) total += statSync(join(dir, sub, f)).size;
  return total;
}

async function timeScale(scale: Scale, seed: number, keep: boolean): Promise<Record<string, unknown>> {
  const outDir = mkdtempSync(join(tmpdir(), `avm-bench-gen-${scale}-`));
  let peakRss = process.memoryUsage().rss;
  const stageMs: Record<string, number> = {};
  const t0 = performance.now(), cpu0 = process.cpuUsage();
  let last = t0, lastStage = '';
  try {
    const out = await generateCorpus({
      seed, scale, outDir,
      onProgress: (_d, _t, stage) => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        if (stage !== lastStage) {
          const now = performance.now();
          if (lastStage) stageMs[lastStage] = Math.round((stageMs[lastStage] ?? 0) + now - last);
          last = now;
          lastStage = stage;
        }
      },
    });
    const cpu = process.cpuUsage(cpu0);
    const wallMs = Math.round(performance.now() - t0);
    if (lastStage) stageMs[lastStage] = Math.round((stageMs[lastStage] ?? 0) + performance.now() - last);
    // The comp-density check reads the whole corpus back: only at the default scale, outside the timed span.
    const density = scale === 'default' ? compDensity(outDir, dayOfIso(DEFAULT_AS_OF)) : null;
    return {
      scale, seed, wall_ms: wallMs, cpu_ms: Math.round((cpu.user + cpu.system) / 1000), stage_wall_ms: stageMs,
      peak_rss_mib: Math.round(peakRss / 2 ** 20), bytes_written: bytesUnder(outDir), counts: out.counts, vintage: out.vintage, comp_density: density,
      out_dir: keep ? outDir : null,
    };
  } finally {
    if (!keep) rmSync(outDir, { recursive: true, force: true });
  }
}

export async function run(opts: GenerateBenchOptions = {}): Promise<Record<string, unknown>> {
  const scales = opts.scales ?? ['default', 'county'];
  const runs: Record<string, unknown>[] = [];
  for (const scale of scales) {
    process.stderr.write(`generate bench: ${scale} scale...\n`);
    runs.push(await timeScale(scale, opts.seed ?? 20261121, opts.keep ?? false));
  }
  const result = { command: 'npm run bench -- generate', generator_version: GENERATOR_VERSION, noise_sigma_log: GENERATOR.v.noise_sigma_log, runs };
  writeBenchResult('generate', result);
  return result;
}
