// The `avm calibrate` command body: opens the store, runs the job, returns what to print.
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { openStore } from '../../store/store.js';
import { calibrate, reportMarkdown } from './job.js';

export async function runCalibrateCommand(config: Config, opts: { report: boolean }): Promise<string> {
  const store = openStore(config.dataDir);
  try {
    const { table, entry, report } = await calibrate(store, {
      dataDir: config.dataDir,
      resultsDir: opts.report ? join(config.rootDir, 'bench', 'results') : null,
      onProgress: (m) => process.stderr.write(`${m}\n`),
    });
    const head = `calibration ${table.version}: ${entry.status} (digest ${entry.digest.slice(0, 16)}…, ${report.elapsedMs} ms)`;
    return opts.report ? `${head}\n\n${reportMarkdown(report)}` : head;
  } finally {
    await store.close();
  }
}
