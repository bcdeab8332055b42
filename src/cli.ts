// The `avm` command: generate, ingest, serve and the operator jobs. Each command imports its module lazily so
// `avm serve` starts fast and `avm --help` loads nothing heavy.
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from './config.js';

function intArg(name: string, min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
    return n;
  };
}

function scaleArg(v: string): 'default' | 'county' {
  if (v !== 'default' && v !== 'county') throw new InvalidArgumentError("scale must be 'default' or 'county'");
  return v;
}

const program = new Command();
program.name('avm').description('Cook + Lake County 1–4 unit valuation and investment-analysis service').showHelpAfterError();

program
  .command('generate')
  .description('write the deterministic synthetic corpus (real open-data layouts) into <data dir>/raw and its ground truth into <data dir>/truth')
  .option('--seed <n>', 'random seed', intArg('seed', 0))
  .option('--scale <scale>', 'default | county', scaleArg)
  .option('--data-dir <dir>', 'data folder (default AVM_DATA_DIR or data/local)')
  .action(async (opts: { seed?: number; scale?: 'default' | 'county'; dataDir?: string }) => {
    const { runGenerate } = await import('./ingest/corpus.js');
    const config = loadConfig({ ...process.env, ...(opts.dataDir ? { AVM_DATA_DIR: opts.dataDir } : {}) });
    await runGenerate(config, { seed: opts.seed ?? config.seed, scale: opts.scale ?? config.scale });
  });

program
  .command('ingest')
  .description('validate and load <data dir>/raw into LMDB as a new sales snapshot (switched atomically)')
  .option('--data-dir <dir>', 'data folder (default AVM_DATA_DIR or data/local)')
  .option('--raw <dir>', 'folder of raw files (default <data dir>/raw)')
  .action(async (opts: { dataDir?: string; raw?: string }) => {
    const { runIngest } = await import('./ingest/corpus.js');
    const config = loadConfig({ ...process.env, ...(opts.dataDir ? { AVM_DATA_DIR: opts.dataDir } : {}) });
    await runIngest(config, opts.raw);
  });

program
  .command('serve')
  .description('serve the REST API and MCP tool server on HOST:PORT, generating and ingesting the default corpus on first start')
  .action(async () => {
    const { startService } = await import('./server.js');
    await startService(loadConfig());
  });

await program.parseAsync(process.argv);
