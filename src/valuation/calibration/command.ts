// The `avm calibrate` command body: opens the store, runs the job, returns what to print (and writes the HTML page).
import { join } from 'node:path';
import { openPgRegistry } from '../../registry/registry-pg.js';
import { migrate } from '../../store/pg/migrate.js';
import { openPgPool, type PgPool } from '../../store/pg/pool.js';
import type { Config } from '../../config.js';
import { AppError } from '../../errors/app-error.js';
import { openStore } from '../../store/store.js';
import { calibrate, reportMarkdown } from './job.js';
import { renderReportHtml } from './html/report-html.js';
import { reportPath, writeReportFile } from './report-file.js';

/**
 * `--html FILE` needs `--report`: the page is the report's (the side backtests run and bench/results/calibration.json
 * is written only with --report, and the page should not silently do either). Checked before any work.
 */
export function checkCalibrateOptions(opts: { report: boolean; html?: string | null }): string | null {
  if (opts.html == null) return null;
  if (!opts.report) throw new AppError('validation_failed', '--html FILE needs --report (the page renders the report): run `avm calibrate --report --html FILE`');
  return reportPath('html', opts.html);
}

export async function runCalibrateCommand(config: Config, opts: { report: boolean; html?: string | null }): Promise<string> {
  const htmlFile = checkCalibrateOptions(opts);
  const store = openStore(config.dataDir);
  // With AVM_DATABASE_URL the release goes to the registry replicas share (and this store mirrors it).
  const pool = config.databaseUrl ? await openMigratedPool(config.databaseUrl) : null;
  try {
    const { table, entry, report } = await calibrate(store, {
      sharedRegistry: pool ? openPgRegistry(pool) : undefined,
      dataDir: config.dataDir,
      resultsDir: opts.report ? join(config.rootDir, 'bench', 'results') : null,
      onProgress: (m) => process.stderr.write(`${m}\n`),
    });
    const head = `calibration ${table.version}: ${entry.status} (digest ${entry.digest.slice(0, 16)}…, ${report.elapsedMs} ms)`;
    if (htmlFile) writeReportFile('html', htmlFile, renderReportHtml(report));
    const wrote = htmlFile ? `\n\nHTML report written to ${htmlFile}` : '';
    return opts.report ? `${head}\n\n${reportMarkdown(report)}${wrote}` : head;
  } finally {
    await pool?.end();
    await store.close();
  }
}

async function openMigratedPool(url: string): Promise<PgPool> {
  const pool = openPgPool(url, { max: 2, applicationName: 'avm-calibrate' });
  try {
    await migrate(pool);
    return pool;
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
}
