// The `avm` command: generate, ingest, serve and the operator jobs. Each command imports its module lazily so
// `avm serve` starts fast and `avm --help` loads nothing heavy.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Command, InvalidArgumentError } from 'commander';
import { describeCliFailure } from './cli-failure.js';
import { loadConfig, ROOT_DIR, type Config } from './config.js';
import { MODEL_VERSION } from './registry/versions.js';

function intArg(name: string, min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
    return n;
  };
}

/** The environment's config, with `--data-dir` (when given, relative to the working directory) in place of AVM_DATA_DIR. */
function configFor(opts: { dataDir?: string }): Config {
  return loadConfig({ ...process.env, ...(opts.dataDir ? { AVM_DATA_DIR: resolve(opts.dataDir) } : {}) });
}

function scaleArg(v: string): 'default' | 'county' {
  if (v !== 'default' && v !== 'county') throw new InvalidArgumentError("scale must be 'default' or 'county'");
  return v;
}

/** Every command takes it: the data folder, in place of AVM_DATA_DIR. */
const DATA_DIR_OPTION = ['--data-dir <dir>', 'data folder (default AVM_DATA_DIR or data/local)'] as const;

const packageVersion = (JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string }).version;

const program = new Command();
program
  .name('avm')
  .description('Cook + Lake County 1–4 unit valuation and investment-analysis service')
  .version(`avm ${packageVersion} (model ${MODEL_VERSION})`, '-V, --version', 'print the package and model versions')
  .showHelpAfterError();

program
  .command('generate')
  .description('write the deterministic synthetic corpus (real open-data layouts) into <data dir>/raw and its ground truth into <data dir>/truth')
  .option('--seed <n>', 'random seed', intArg('seed', 0))
  .option('--scale <scale>', 'default | county', scaleArg)
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { seed?: number; scale?: 'default' | 'county'; dataDir?: string }) => {
    const { runGenerate } = await import('./ingest/corpus.js');
    const config = configFor(opts);
    await runGenerate(config, { seed: opts.seed ?? config.seed, scale: opts.scale ?? config.scale });
  });

program
  .command('ingest')
  .description('validate and load <data dir>/raw into LMDB as a new sales snapshot (switched atomically)')
  .option(...DATA_DIR_OPTION)
  .option('--raw <dir>', 'folder of raw files (default <data dir>/raw)')
  .option('--publish', 'then publish the snapshot to the replicas (as `avm publish-snapshot`; AVM_DATABASE_URL, AVM_SNAPSHOT_DIR)')
  .action(async (opts: { dataDir?: string; raw?: string; publish?: boolean }) => {
    const { runIngest } = await import('./ingest/corpus.js');
    const config = configFor(opts);
    if (opts.publish) (await import('./store/shared/command.js')).assertShared(config, 'ingest --publish'); // before the work
    await runIngest(config, opts.raw);
    if (opts.publish) {
      const m = await (await import('./store/shared/command.js')).runPublishSnapshot(config);
      process.stderr.write(`published snapshot ${m.snapshot.id} to ${config.snapshotDir}\n`);
    }
  });

program
  .command('run-listings')
  .description('run the listings job now: dedupe the feed, value and score up to 200 active listings, store them, send alerts')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { dataDir?: string }) => {
    const { runListings, formatRunSummary } = await import('./listings/index.js');
    const config = configFor(opts);
    if (!config.databaseUrl) {
      process.stdout.write(`${formatRunSummary(await runListings({ config, kind: 'manual' }))}\n`);
      return;
    }
    // Replicas: the profiles, the outbox and the digest's marks are the shared ones, as in the service's own runs.
    const [{ openStore }, { openStateBackend }, { pgOpsBackend }] = await Promise.all([import('./store/store.js'), import('./store/backend.js'), import('./store/ops-backend.js')]);
    const store = openStore(config.dataDir);
    try {
      const backend = await openStateBackend(config, store.env);
      try {
        const ops = pgOpsBackend(backend.pool!);
        const r = await runListings({ config, store, kind: 'manual', alertStore: backend.alerts, alertObservers: { outbox: ops.outbox, digest: ops.digest } });
        process.stdout.write(`${formatRunSummary(r)}\n`);
      } finally {
        await backend.close();
      }
    } finally {
      await store.close();
    }
  });

program
  .command('score-all')
  .description('value and score every parcel of the corpus through the worker pool; writes Arrow results to the store')
  .option(...DATA_DIR_OPTION)
  .option('--limit <n>', 'score only an evenly spaced sample of n parcels (measurement runs)', intArg('limit', 1))
  .option('--distributed', 'queue partitions for `avm worker` processes (AVM_DATABASE_URL, AVM_SNAPSHOT_DIR); writes Arrow partitions and one manifest beside the snapshot')
  .option('--partition-rows <n>', 'with --distributed: parcels per partition (default: registry distributed.partition_rows)', intArg('partition-rows', 1))
  .option('--resume <run id>', 'with --distributed: wait for and finalize a run whose coordinator stopped (the workers went on)')
  .action(async (opts: { dataDir?: string; limit?: number; distributed?: boolean; partitionRows?: number; resume?: string }) => {
    const config = configFor(opts);
    if (opts.distributed) {
      const { AppError } = await import('./errors/app-error.js');
      if (opts.limit !== undefined) throw new AppError('validation_failed', '--limit and --distributed do not combine (a distributed run scores every parcel)');
      const { runDistributedCommand } = await import('./scoring/distributed/command.js');
      const m = await runDistributedCommand(config, { partitionRows: opts.partitionRows, resume: opts.resume });
      const { partitions, ...summary } = m;
      return void process.stdout.write(`${JSON.stringify({ ...summary, partitions: partitions.length, manifest: `${config.snapshotDir}/${m.snapshot_id}/score-all/${m.run_id}/manifest.json` })}\n`);
    }
    const { runScoreAll } = await import('./scoring/bulk/score-all.js');
    const t0 = performance.now();
    const s = await runScoreAll(config, { limit: opts.limit });
    const { kernelChoice } = await import('./kernel/select.js');
    process.stdout.write(`${JSON.stringify({ ...s, wall_ms_with_startup: Math.round(performance.now() - t0), kernel: kernelChoice().frontEnd })}\n`);
  });

program
  .command('worker')
  .description('claim partitions of `avm score-all --distributed` runs from the job queue and score them with this machine\'s kernel, until SIGINT/SIGTERM')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { dataDir?: string }) => {
    const { runWorkerCommand } = await import('./scoring/distributed/command.js');
    await runWorkerCommand(configFor(opts));
  });

program
  .command('publish-snapshot')
  .description('publish the current snapshot to the replicas: its Arrow files and sha256 manifest into AVM_SNAPSHOT_DIR, then the pointer in PostgreSQL (AVM_DATABASE_URL)')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { dataDir?: string }) => {
    const { runPublishSnapshot } = await import('./store/shared/command.js');
    const m = await runPublishSnapshot(configFor(opts));
    process.stdout.write(`${JSON.stringify({ published: m.snapshot.id, sales_sha256: m.snapshot.sales_sha256, parcels_sha256: m.snapshot.parcels_sha256 })}\n`);
  });

program
  .command('calibrate')
  .description('out-of-time backtest → versioned calibration table, submitted to the model registry (promoted only through its gates)')
  .option(...DATA_DIR_OPTION)
  .option('--report', 'print the per-segment report (markdown) and write bench/results/calibration.json')
  .option('--html <file>', 'with --report: also write the report as one self-contained HTML page (charts inline) to FILE')
  .action(async (opts: { dataDir?: string; report?: boolean; html?: string }) => {
    const { runCalibrateCommand } = await import('./valuation/calibration/command.js');
    const config = configFor(opts);
    process.stdout.write(`${await runCalibrateCommand(config, { report: opts.report === true, html: opts.html })}\n`);
  });

program
  .command('backtest')
  .description('ingest a folder of real-layout CCAO sales, characteristics and parcel universe files into <data dir> and value every arms-length sale from earlier sales; JSON per segment and overall, beside the naive comps estimator')
  .requiredOption('--raw <dir>', `folder holding ccao_parcel_sales.csv, ccao_res_characteristics.csv and ccao_parcel_universe.csv`)
  .option(...DATA_DIR_OPTION)
  .option('--report <file>', 'write the JSON report here (default: stdout)')
  .action(async (opts: { raw: string; dataDir?: string; report?: string }) => {
    const { runRawBacktestCommand } = await import('./valuation/calibration/raw-backtest-command.js');
    await runRawBacktestCommand(configFor(opts), { rawDir: resolve(opts.raw), reportFile: opts.report ? resolve(opts.report) : null });
  });

program
  .command('fit-hedonic')
  .description('fit the Tier-2 hedonic_v1 model per segment on the current snapshot and store its versioned coefficients')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { dataDir?: string }) => {
    const { runFitHedonic } = await import('./valuation/hedonic/job.js');
    const config = configFor(opts);
    process.stdout.write(`${JSON.stringify(await runFitHedonic({ dataDir: config.dataDir }), null, 2)}\n`);
  });

program
  .command('serve')
  .description('serve the REST API and MCP tool server on HOST:PORT, generating and ingesting the default corpus on first start')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { dataDir?: string }) => {
    // No allocation-site pretenuring in a serving process (V8 flags are process-wide: the workers too). Sites whose
    // objects outlived a young GC while the service warmed up were switched to allocate in the old generation for
    // good, so each request's short-lived objects went there: at 500 requests/s the main thread's young GCs paused
    // 8-16 ms every ~0.7 s (15 MB promoted each) and a full GC followed every ~7 s; without it they pause 1.6-2.9 ms
    // every ~1 s (0.7 MB promoted) and one full GC came in 30 s (--trace-gc, Vegeta at 500/s on loopback).
    setFlagsFromString('--no-allocation-site-pretenuring');
    const { startService } = await import('./server.js');
    await startService(configFor(opts));
  });

program
  .command('verify')
  .description('check the store: the data file against its header, every snapshot against its recorded sha256, every sub-database readable')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { dataDir?: string }) => {
    const { verifyStore } = await import('./store/verify.js');
    const report = await verifyStore(configFor(opts).dataDir);
    if (report.ok) process.stdout.write(`avm verify: ok — ${report.summary}\n`);
    for (const failure of report.failures) process.stderr.write(`avm verify: FAIL ${failure}\n`);
    if (!report.ok) process.exitCode = 1;
  });

const alerts = program.command('alerts').description('alert outbox: dead letters and replay');
alerts
  .command('dead-letters')
  .description('list alerts that failed 3 delivery attempts, with their last diagnostic')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { dataDir?: string }) => {
    const [{ listDeadLetters, formatDeadLetters }, { sharedOutboxOpener }] = await Promise.all([import('./alerts/cli.js'), import('./store/ops-backend.js')]);
    const config = configFor(opts);
    process.stdout.write(`${formatDeadLetters(await listDeadLetters(config.dataDir, sharedOutboxOpener(config)))}\n`);
  });
alerts
  .command('replay')
  .description('move one dead letter back to pending and run a delivery round')
  .argument('<id>', 'alert id (from dead-letters)')
  .option(...DATA_DIR_OPTION)
  .action(async (id: string, opts: { dataDir?: string }) => {
    const [{ replayDeadLetter }, { sharedOutboxOpener }] = await Promise.all([import('./alerts/cli.js'), import('./store/ops-backend.js')]);
    const config = configFor(opts);
    const out = await replayDeadLetter(config.dataDir, id, { config }, sharedOutboxOpener(config));
    process.stdout.write(`${JSON.stringify(out)}\n`);
    if (out.state !== 'delivered') process.exitCode = 1;
  });

// API keys: the plaintext is printed once at create/rotate; only a hash is stored (src/auth/keys.ts).
const keys = program.command('keys').description('API keys: create, rotate, revoke, list');
const keysAt = (opts: { dataDir?: string }): { dataDir: string; databaseUrl: string | null } => {
  const config = configFor(opts);
  return { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
};
keys
  .command('create')
  .description('create a key with the given scopes (read, underwrite, write-state, webhooks; alerts:write is the same as webhooks); prints it once')
  .requiredOption('--scopes <list>', 'comma-separated scopes')
  .option('--rpm <n>', 'token-bucket rpm_limit', intArg('rpm', 1))
  .option('--label <text>', 'a label to recognise the key by')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { scopes: string; rpm?: number; label?: string; dataDir?: string }) => {
    const { createKeyCommand } = await import('./auth/cli.js');
    await createKeyCommand({ ...keysAt(opts), scopes: opts.scopes, rpm: opts.rpm, label: opts.label });
  });
for (const [name, what] of [['rotate', 'replace a key with a new secret (same scopes); the old one is revoked'], ['revoke', 'revoke a key']] as const) {
  keys
    .command(name)
    .description(what)
    .argument('<id>', 'key id (from `avm keys list`)')
    .option(...DATA_DIR_OPTION)
    .action(async (id: string, opts: { dataDir?: string }) => {
      const { rotateKeyCommand, revokeKeyCommand } = await import('./auth/cli.js');
      await (name === 'rotate' ? rotateKeyCommand : revokeKeyCommand)({ ...keysAt(opts), id });
    });
}
keys
  .command('list')
  .description('list keys (ids, scopes, state; never secrets)')
  .option(...DATA_DIR_OPTION)
  .action(async (opts: { dataDir?: string }) => {
    const { listKeysCommand } = await import('./auth/cli.js');
    await listKeysCommand(keysAt(opts));
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`avm: ${describeCliFailure(err)}\n`);
  // Exit now: a command that failed half-way (a serve whose port was taken) may hold an open store or timers.
  process.exit(1);
}
