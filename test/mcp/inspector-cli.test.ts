// The official MCP Inspector's CLI (@modelcontextprotocol/inspector, `--cli <url> --method tools/list`) against the
// service on 127.0.0.1: it lists every tool with a title and every parameter described, and its --strict schema
// portability check finds no error (warnings, about output schemas, are printed as a count only).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toolEntries } from '../../src/contracts/operations.js';
import type { ServiceHandle } from '../../src/server.js';
import { startDoors } from './support.js';

const INSPECTOR = join(process.cwd(), 'node_modules/.bin/mcp-inspector');
let service: ServiceHandle;
let home: string;

beforeAll(async () => {
  service = await startDoors();
  // The CLI keeps a catalog under $HOME/.mcp-inspector; a temporary home keeps the run from touching the user's.
  home = await mkdtemp(join(tmpdir(), 'avm-inspector-'));
});
afterAll(async () => {
  await service?.close();
  await rm(home, { recursive: true, force: true });
});

type Listed = { name: string; title?: string; inputSchema: { properties?: Record<string, { description?: string }> } };

it('tools/list through the Inspector CLI: every tool titled, every parameter described, no portability error', async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [INSPECTOR, '--cli', `${service.url}/mcp`, '--transport', 'http', '--method', 'tools/list', '--strict'], {
    env: { ...process.env, HOME: home },
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const { tools } = JSON.parse(stdout) as { tools: Listed[] };
  expect(tools.map((t) => t.name)).toEqual(toolEntries().map((t) => t.name));
  expect(tools.filter((t) => !t.title?.trim()).map((t) => t.name)).toEqual([]);
  const undescribed = tools.flatMap((t) => Object.entries(t.inputSchema.properties ?? {}).filter(([, p]) => !p.description?.trim()).map(([k]) => `${t.name}.${k}`));
  expect(undescribed).toEqual([]);
  expect(stderr).not.toMatch(/^Error: tool/m);
}, 90_000);
