// The `avm calibrate` command body: opens the store, runs the job, returns what to print (and writes the HTML page).
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import { AppError } from '../../errors/app-error.js';
import { openStore } from '../../store/store.js';
import { calibrate, reportMarkdown } from './job.js';
import { renderReportHtml } from './html/report-html.js';

/**
 * `--html FILE` needs `--report`: the page is the report's (the side backtests run and bench/results/calibration.json
 * is written only with --report, and the page should not silently do either). Checked before any work.
 */
export function checkCalibrateOptions(opts: { report: boolean; html?: string | null }): string | null {
  if (opts.html == null) return null;
  if (!opts.report) throw new AppError('validation_failed', '--html FILE needs --report (the page renders the report): run `avm calibrate --report --html FILE`');
  const file = resolve(opts.html);
  if (existsSync(file) && statSync(file).isDirectory()) throw new AppError('validation_failed', `--html ${file} is a directory; give a file path`);
  return file;
}

function writeHtml(file: string, html: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
  } catch (e) {
    throw new AppError('validation_failed', `cannot write the HTML report to ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export async function runCalibrateCommand(config: Config, opts: { report: boolean; html?: string | null }): Promise<string> {
  const htmlFile = checkCalibrateOptions(opts);
  const store = openStore(config.dataDir);
  try {
    const { table, entry, report } = await calibrate(store, {
      dataDir: config.dataDir,
      resultsDir: opts.report ? join(config.rootDir, 'bench', 'results') : null,
      onProgress: (m) => process.stderr.write(`${m}\n`),
    });
    const head = `calibration ${table.version}: ${entry.status} (digest ${entry.digest.slice(0, 16)}…, ${report.elapsedMs} ms)`;
    if (htmlFile) writeHtml(htmlFile, renderReportHtml(report));
    const wrote = htmlFile ? `\n\nHTML report written to ${htmlFile}` : '';
    return opts.report ? `${head}\n\n${reportMarkdown(report)}${wrote}` : head;
  } finally {
    await store.close();
  }
}
