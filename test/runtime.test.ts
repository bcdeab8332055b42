// The supported runtime (issue 13): the suite, worker threads, the child processes the service starts and the `node`
// that npm scripts, the `avm` shim and `npx avm` find first on PATH are all Node 24, the major pinned by the `node`
// dependency that `npm ci` links into node_modules/.bin (on a machine whose own node is older).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/kernel/wasm.js';

const SUPPORTED_MAJOR = 24;

function majorOf(version: string): number {
  const m = /^v?(\d+)\./.exec(version);
  if (!m) throw new Error(`not a Node version: ${version}`);
  return Number(m[1]);
}

const pkg = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
};

describe('the Node runtime', () => {
  it('runs the test suite on Node 24', () => {
    expect(majorOf(process.version)).toBe(SUPPORTED_MAJOR);
  });

  it('is the major that package.json pins (exact `node` dependency) and names in engines', () => {
    expect(pkg.dependencies.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(majorOf(pkg.dependencies.node)).toBe(SUPPORTED_MAJOR);
    expect(pkg.engines.node).toBe(`${SUPPORTED_MAJOR}.x`);
  });

  it('gives worker threads (the Piscina pool) the same runtime', async () => {
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage(process.version)", { eval: true });
    const version = await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(version).toBe(process.version);
  });

  it('gives child processes started from process.execPath (first-start fit-hedonic and calibrate) the same runtime', () => {
    const version = execFileSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(process.version);
  });

  it('links the pinned Node into node_modules/.bin, which npm scripts and npx put first on PATH', () => {
    const bin = join(repoRoot(), 'node_modules', '.bin', 'node');
    // Absent when the `node` package's preinstall was skipped: its approval lives in package.json#allowScripts.
    expect(existsSync(bin), `${bin} is missing: the node package's install script did not run`).toBe(true);
    const version = execFileSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    expect(version).toBe(pkg.dependencies.node);
  });
});
