// The `avm backtest --raw DIR` command body: runs the raw backtest into the data folder and writes the JSON report to
// a file or stdout; progress lines go to stderr.
import type { Config } from '../../config.js';
import { runRawBacktest } from './raw-backtest.js';
import { reportPath, writeReportFile } from './report-file.js';

export async function runRawBacktestCommand(config: Config, opts: { rawDir: string; reportFile: string | null }): Promise<void> {
  const reportFile = opts.reportFile === null ? null : reportPath('report', opts.reportFile);
  const report = await runRawBacktest({ rawDir: opts.rawDir, dataDir: config.dataDir, onProgress: (m) => process.stderr.write(`${m}\n`) });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (reportFile === null) {
    process.stdout.write(json);
    return;
  }
  writeReportFile('report', reportFile, json);
  process.stderr.write(`backtest report written to ${reportFile} (${report.rows.find((r) => r.kind === 'overall' && r.group === 'all')?.n ?? 0} sales, ${report.elapsedMs.total} ms)\n`);
}
