#!/usr/bin/env node
// `npm run build`: compiles with tsc only when its inputs changed. The inputs are every file tsconfig.build.json
// compiles (src/, bench/), the browser client under src/web/client (bundled into dist/web by build-client.mjs), the
// three tsconfigs and package-lock.json (the compiler, bundler and type versions); their digest is written to
// dist/.build-stamp after a successful tsc and bundle, so an unchanged tree starts without compiling.
// `--force` compiles regardless. Plain Node (no TypeScript): it runs before anything is compiled.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClient, clientOutputs } from './build-client.mjs';
import { buildNative } from './build-native.mjs';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join('dist', '.build-stamp');
const SOURCE_DIRS = ['src', 'bench'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'tsconfig.client.json', 'package-lock.json'];
/** Outputs whose absence means the stamp lies (dist/ partly deleted): the CLI and the worker task module (and the client bundles, clientOutputs). */
const REQUIRED_OUTPUTS = ['dist/src/cli.js', 'dist/src/workers/tasks/valuation.task.js'];
/** tsconfig.build.json's incremental state: tsc trusts it and does not re-emit outputs deleted since. */
const TS_BUILD_INFO = join('dist', '.tsbuildinfo');

/** Every file under `dir` (relative to `root`; none when absent), sorted, as root-relative paths. */
function filesUnder(root, dir) {
  if (!existsSync(join(root, dir))) return [];
  const out = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(root, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/** sha256 over (path, content) of every input: a rename, an edit, an added or a deleted file all change it. */
export function sourceDigest(root = REPO_ROOT) {
  const hash = createHash('sha256');
  const files = [...SOURCE_DIRS.flatMap((d) => filesUnder(root, d)), ...SOURCE_FILES.filter((f) => existsSync(join(root, f)))];
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const hasOutputs = (root) => [...REQUIRED_OUTPUTS, ...clientOutputs(root)].every((f) => existsSync(join(root, f)));
const isBuilt = (root, digest) => hasOutputs(root) && existsSync(join(root, STAMP)) && readFileSync(join(root, STAMP), 'utf8').trim() === digest;

/**
 * Compiles `root` (default: this repo) when needed; returns true when tsc ran. Throws when compilation or the client
 * bundle fails (tsc's and esbuild's diagnostics are on stdout/stderr).
 */
export function build({ root = REPO_ROOT, force = false } = {}) {
  const digest = sourceDigest(root);
  if (!force && isBuilt(root, digest)) return false;
  rmSync(join(root, STAMP), { force: true }); // a failed or interrupted tsc must not leave an old stamp claiming success
  if (!hasOutputs(root)) rmSync(join(root, TS_BUILD_INFO), { force: true });
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  buildClient(root);
  writeFileSync(join(root, STAMP), `${digest}\n`);
  return true;
}

/**
 * The native kernel addon, when cargo is here (scripts/build-native.mjs; a no-op when its sources are unchanged). Not
 * fatal: without it (no cargo, no network for crates.io, a compile error) the service runs the WASM kernel.
 */
function buildNativeOptional() {
  try {
    const r = buildNative();
    if (r.skipped && r.skipped !== 'up to date') console.error(`build: native kernel addon not built: ${r.skipped}`);
  } catch (e) {
    console.error(`build: native kernel addon build failed (the WASM kernel serves; npm run build:native to retry): ${e?.message ?? e}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    build({ force: process.argv.includes('--force') });
  } catch {
    process.exitCode = 1; // tsc or esbuild has printed its diagnostics
  }
  if (process.env.AVM_BUILD_NATIVE !== '0') buildNativeOptional();
}
