// Redocly CLI (`redocly lint`, recommended ruleset via redocly.yaml) on the document GET /api/openapi.json serves:
// no error. Its warnings are printed so the run shows what is left.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { startDoors } from '../mcp/support.js';

let service: ServiceHandle;
let dir: string;

beforeAll(async () => {
  service = await startDoors();
  dir = await mkdtemp(join(tmpdir(), 'avm-redocly-'));
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

type Problem = { ruleId: string; severity: 'error' | 'warn'; message: string; location: Array<{ pointer: string }> };

it('redocly lint (recommended) finds no error in the served /api/openapi.json', async () => {
  const file = join(dir, 'openapi.json');
  await writeFile(file, await (await fetch(`${service.url}/api/openapi.json`)).text());
  const run = promisify(execFile)(process.execPath, [join(process.cwd(), 'node_modules/.bin/redocly'), 'lint', file, '--config', join(process.cwd(), 'redocly.yaml'), '--format', 'json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', HOME: dir },
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  // Exit status 1 means errors were found; the JSON report on stdout says which either way.
  const stdout = await run.then((r) => r.stdout, (e: { stdout?: string }) => e.stdout ?? '');
  const { problems } = JSON.parse(stdout) as { problems: Problem[] };
  const show = (p: Problem) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`;
  const warnings = problems.filter((p) => p.severity === 'warn');
  if (warnings.length) console.log(`redocly: ${warnings.length} warnings\n${warnings.map(show).join('\n')}`);
  expect(problems.filter((p) => p.severity === 'error').map(show)).toEqual([]);
}, 90_000);
