#!/usr/bin/env node
// Builds the native kernel addon (crates/avm-native, napi-rs) into native/avm-native.<platform>.node with `napi build`
// and rustup's cargo, only when its sources (crates/avm-native, crates/avm-kernel) changed since the last build
// (digest in native/.build-stamp). Nothing is committed: `npm run build` calls this when cargo is on PATH and goes on
// without the addon otherwise (the WASM kernel serves); `npm run build:native` and CI (.ci/run) require it to build.
// Plain Node: it runs before anything is compiled.
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CRATE = join('crates', 'avm-native');
const INPUTS = [CRATE, join('crates', 'avm-kernel')];
const STAMP = join('native', '.build-stamp');

function filesUnder(root, dir) {
  const out = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'target') out.push(...filesUnder(root, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

/** sha256 over (path, content) of the addon's sources and the kernel crate it links. */
export function nativeDigest(root = REPO_ROOT) {
  const hash = createHash('sha256');
  for (const f of INPUTS.flatMap((d) => filesUnder(root, d))) hash.update(`${f}\0`).update(readFileSync(join(root, f))).update('\0');
  return hash.digest('hex');
}

/** The cargo on PATH (rustup's first), or null. */
function cargoVersion() {
  const r = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * Builds the addon when needed. Returns { built, skipped? }: skipped names why nothing was built (up to date, no
 * cargo). Throws when cargo is present and the build fails.
 */
export function buildNative({ root = REPO_ROOT, force = false } = {}) {
  const cargo = cargoVersion();
  if (!cargo) return { built: false, skipped: 'cargo not found (install rustup); the WASM kernel serves' };
  const digest = nativeDigest(root);
  const stamp = join(root, STAMP);
  const hasBinary = existsSync(join(root, 'native')) && readdirSync(join(root, 'native')).some((f) => f.endsWith('.node'));
  if (!force && hasBinary && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === digest) return { built: false, skipped: 'up to date' };
  rmSync(stamp, { force: true });
  const napi = join(root, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js');
  execFileSync(process.execPath, [
    napi, 'build', '--manifest-path', join(root, CRATE, 'Cargo.toml'), '--package-json-path', join(root, CRATE, 'package.json'),
    '--platform', '--release', '--no-js', '--output-dir', join(root, 'native'), '--target-dir', join(root, 'target', 'native'),
    '--', '--locked',
  ], { stdio: 'inherit', cwd: root });
  writeFileSync(stamp, `${digest}\n`);
  return { built: true };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const r = buildNative({ force: process.argv.includes('--force') });
    if (r.skipped && r.skipped !== 'up to date') {
      console.error(`build-native: ${r.skipped}`);
      process.exitCode = 1; // asked for explicitly: no addon is a failure here
    } else console.error(`build-native: ${r.built ? 'built' : 'up to date'} (native/)`);
  } catch {
    process.exitCode = 1; // cargo has printed its diagnostics
  }
}
