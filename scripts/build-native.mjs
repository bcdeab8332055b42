#!/usr/bin/env node
// Builds the native kernel addon (crates/avm-native, napi-rs) into native/avm-native.<platform>.node with `napi build`
// and rustup's cargo, only when its sources (crates/avm-native, crates/avm-kernel) changed since the last build
// (digest in native/.build-stamp). Nothing is committed: `npm run build` calls this when cargo is on PATH and goes on
// without the addon otherwise (the WASM kernel serves); `npm run build:native` and CI (.ci/run) require it to build.
// On an x64 Linux machine with every x86-64-v3 feature it builds for that level (targetCpu) and records what the build
// needs of a CPU in native/target-cpu.json, which the loader checks (src/kernel/native.ts).
// Plain Node: it runs before anything is compiled.
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CRATE = join('crates', 'avm-native');
const INPUTS = [CRATE, join('crates', 'avm-kernel')];
const STAMP = join('native', '.build-stamp');
/** What the built addon needs of a CPU: { target_cpu, requires: cpuinfo flags }, read by the loader before it loads. */
export const TARGET_CPU_FILE = join('native', 'target-cpu.json');

/**
 * The x86-64-v3 features as Linux's /proc/cpuinfo names them: level 3's AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT
 * (`abm`), MOVBE and XSAVE, and level 2's CMPXCHG16B, LAHF/SAHF, POPCNT, SSE3 (`pni`), SSSE3, SSE4.1 and SSE4.2.
 * Built for them the addon answers a query ~5% faster from Node, with the same bits: Rust fuses no multiply-add by
 * itself, and the `libm` functions the kernel links take no other path with these features on x86-64.
 */
export const X86_64_V3_FLAGS = ['avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', 'abm', 'movbe', 'xsave', 'cx16', 'lahf_lm', 'popcnt', 'pni', 'ssse3', 'sse4_1', 'sse4_2'];

/** The flags of the first processor in a /proc/cpuinfo text (none when it lists no flags). */
export function cpuinfoFlags(text) {
  return new Set(/^flags\s*:(.*)$/m.exec(text)?.[1].trim().split(/\s+/) ?? []);
}

function machineCpuinfo() {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return null; // not Linux: the default target
  }
}

/**
 * The CPU the addon is built for on this machine: x86-64-v3 on x64 with every one of its features, else the
 * toolchain's default (portable); AVM_NATIVE_PORTABLE=1 asks for the default (a tree built to be copied elsewhere).
 */
export function targetCpu({ cpuinfo = machineCpuinfo(), arch = process.arch, portable = process.env.AVM_NATIVE_PORTABLE === '1' } = {}) {
  const flags = cpuinfo === null ? new Set() : cpuinfoFlags(cpuinfo);
  if (!portable && arch === 'x64' && X86_64_V3_FLAGS.every((f) => flags.has(f))) return { target_cpu: 'x86-64-v3', requires: X86_64_V3_FLAGS };
  return { target_cpu: 'default', requires: [] };
}

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
 * Builds the addon when needed. Returns { built, skipped?, target? }: skipped names why nothing was built (up to date,
 * no cargo); target is the CPU level it is (or was already) built for. Throws when cargo is present and the build fails.
 */
export function buildNative({ root = REPO_ROOT, force = false } = {}) {
  const cargo = cargoVersion();
  if (!cargo) return { built: false, skipped: 'cargo not found (install rustup); the WASM kernel serves' };
  const cpu = targetCpu();
  const target = cpu.target_cpu;
  const digest = `${nativeDigest(root)} ${cpu.target_cpu}`;
  const stamp = join(root, STAMP);
  const hasBinary = existsSync(join(root, 'native')) && readdirSync(join(root, 'native')).some((f) => f.endsWith('.node'));
  if (!force && hasBinary && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === digest) return { built: false, skipped: 'up to date', target };
  rmSync(stamp, { force: true });
  recordTargetCpu(root, stricterTargetCpu(recordedTargetCpu(root), cpu));
  const napi = join(root, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js');
  execFileSync(process.execPath, [
    napi, 'build', '--manifest-path', join(root, CRATE, 'Cargo.toml'), '--package-json-path', join(root, CRATE, 'package.json'),
    '--platform', '--release', '--no-js', '--output-dir', join(root, 'native'), '--target-dir', join(root, 'target', 'native'),
    '--', '--locked',
  ], { stdio: 'inherit', cwd: root, env: { ...process.env, RUSTFLAGS: rustflags(cpu) } });
  recordTargetCpu(root, cpu);
  writeFileSync(stamp, `${digest}\n`);
  return { built: true, target };
}

/** Writes native/target-cpu.json under `root` (creating native/: a fresh clone has none yet). */
export function recordTargetCpu(root, cpu) {
  mkdirSync(join(root, 'native'), { recursive: true });
  writeFileSync(join(root, TARGET_CPU_FILE), `${JSON.stringify(cpu)}\n`);
}

/**
 * What to record while a build runs: should it fail, an addon left from an earlier build stays held to the stricter of
 * its own record (`earlier`, null when none) and this build's (the two levels: the default needs nothing, x86-64-v3
 * its flags).
 */
export function stricterTargetCpu(earlier, cpu) {
  return Array.isArray(earlier?.requires) && earlier.requires.length > cpu.requires.length ? earlier : cpu;
}

/** The record under `root`, or null when there is none (or it is unreadable). */
function recordedTargetCpu(root) {
  try {
    return JSON.parse(readFileSync(join(root, TARGET_CPU_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/** The caller's RUSTFLAGS with the target CPU's. */
function rustflags(cpu) {
  const own = process.env.RUSTFLAGS ?? '';
  return cpu.target_cpu === 'default' ? own : `${own} -C target-cpu=${cpu.target_cpu}`.trim();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const r = buildNative({ force: process.argv.includes('--force') });
    if (r.skipped && r.skipped !== 'up to date') {
      console.error(`build-native: ${r.skipped}`);
      process.exitCode = 1; // asked for explicitly: no addon is a failure here
    } else console.error(`build-native: ${r.built ? 'built' : 'up to date'} (native/, target CPU ${r.target})`);
  } catch (e) {
    // A failed cargo run has printed its diagnostics (execFileSync's error carries its exit status); anything else has not.
    if (e?.status === undefined) console.error(`build-native: ${e?.message ?? e}`);
    process.exitCode = 1;
  }
}
