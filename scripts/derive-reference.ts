// Derives data/reference from the raw public files: `npx tsx scripts/derive-reference.ts [--raw DIR] [--out DIR]`.
// Default raw folder is <repo>/../shared/data/raw; output is deterministic (same input, same bytes).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE_DIR } from '../src/config.js';
import { deriveReference } from '../src/reference/derive/index.js';

const REPO_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Parses `--raw DIR` and `--out DIR`; anything else is an error. */
function parseArgs(args: string[]): { raw?: string; out?: string } {
  const opts: { raw?: string; out?: string } = {};
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i], value = args[i + 1];
    if (flag !== '--raw' && flag !== '--out') throw new Error(`unknown argument '${flag}' (use --raw DIR, --out DIR)`);
    if (!value || value.startsWith('--')) throw new Error(`${flag} needs a folder argument`);
    opts[flag === '--raw' ? 'raw' : 'out'] = value;
  }
  return opts;
}

function main(args: string[]): void {
  const opts = parseArgs(args);
  const rawDir = resolve(opts.raw ?? resolve(REPO_DIR, '../shared/data/raw'));
  const outDir = resolve(opts.out ?? REFERENCE_DIR);
  const t0 = Date.now();
  const summary = deriveReference(rawDir, outDir);
  const total = Object.values(summary.files).reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({ rawDir, outDir, ms: Date.now() - t0, totalBytes: total, ...summary }, null, 2));
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error(`derive-reference: ${(e as Error).message}`);
  process.exit(1);
}
