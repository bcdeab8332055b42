// The `avm backtest --raw DIR` command body: runs the raw backtest into the data folder and writes the JSON report to
// a file or stdout; progress lines go to stderr.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../../config.js';
import { runRawBacktest } from './raw-backtest.js';

export async function runRawBacktestCommand(config: Config, opts: { rawDir: string; reportFile: string | null }): Promise<void> {
  const report = await runRawBacktest({ rawDir: opts.rawDir, dataDir: config.dataDir, onProgress: (m) => process.stderr.write(`${m}\n`) });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (opts.reportFile === null) {
    process.stdout.write(json);
    return;
  }
  mkdirSync(dirname(opts.reportFile), { recursive: true });
  writeFileSync(opts.reportFile, json);
  process.stderr.write(`backtest report written to ${opts.reportFile} (${report.rows.find((r) => r.kind === 'overall' && r.group === 'all')?.n ?? 0} sales, ${report.elapsedMs.total} ms)\n`);
}
