// The import lint (eslint.config.js) on a throwaway repo-shaped tree: each boundary and the cycle rule fire on a
// fixture that breaks them, and the allowed imports of every layer pass. Each fixture import sits on its own line,
// so a report is named by its rule and the specifier on the reported line.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const CYCLE = 'import-x/no-cycle';
const ZONE = 'import-x/no-restricted-paths';

/** Files that obey every rule: each layer importing what it may. */
const CLEAN: Record<string, string> = {
  'src/errors/codes.ts': `export const CODES = ['bad_input'];\n`,
  'src/registry/define.ts': `export const define = <T>(v: T): T => v;\n`,
  'src/registry/groups/doors.ts': `import { define } from '../define.js';\nexport const DOORS = define({ limit: 1 });\n`,
  'src/contracts/common.ts': `export const ID = 'id';\n`,
  'src/contracts/ok.ts': [
    `import { z } from 'zod';`,
    `import { inspect } from 'node:util';`,
    `import { CODES } from '../errors/codes.js';`,
    `import { define } from '../registry/define.js';`,
    `import { DOORS } from '../registry/groups/doors.js';`,
    `import { ID } from './common.js';`,
    `export const Input = z.object({ id: z.string() });`,
    `export const all = [inspect, CODES, define, DOORS, ID];`,
  ].join('\n'),
  'src/store/ok.ts': `export const open = (): number => 1;\n`,
  'src/valuation/ok.ts': [
    `import { open } from '../store/ok.js';`,
    `import { Input } from '../contracts/ok.js';`,
    `import { Table } from 'apache-arrow';`,
    `export const value = (): unknown => [open(), Input, Table];`,
  ].join('\n'),
  'src/workers/ok.ts': `import { value } from '../valuation/ok.js';\nexport const task = (): unknown => value();\n`,
  'src/app/ok.ts': [
    `import { value } from '../valuation/ok.js';`,
    `import { task } from '../workers/ok.js';`,
    `export const operation = (): unknown => [value(), task()];`,
  ].join('\n'),
  'src/http/ok.ts': [
    `import type { Context } from 'koa';`,
    `import Router from '@koa/router';`,
    `import { operation } from '../app/ok.js';`,
    `export const route = (ctx: Context): unknown => [Router, operation(), ctx];`,
  ].join('\n'),
  'src/mcp/ok.ts': [
    `import { operation } from '../app/ok.js';`,
    `import { Input } from '../contracts/ok.js';`,
    `export const tool = (): unknown => [operation(), Input];`,
  ].join('\n'),
  'src/server.ts': `import { route } from './http/ok.js';\nimport { tool } from './mcp/ok.js';\nexport const serve = [route, tool];\n`,
  'src/cli.ts': `import { serve } from './server.js';\nexport const main = serve;\n`,
  // A cycle whose back edge is `import type` (erased at run time) is not a cycle.
  'src/risk/type-a.ts': `import type { B } from './type-b.js';\nexport type A = { b?: B };\nexport const A_NAME = 'a';\n`,
  'src/risk/type-b.ts': `import { A_NAME, type A } from './type-a.js';\nexport type B = { a?: A };\nexport const B_NAME = A_NAME;\n`,
};

/** Files that break one rule each (the expected reports are in the tests below). */
const BROKEN: Record<string, string> = {
  'src/scoring/cycle-a.ts': `import { b } from './cycle-b.js';\nexport const a = (): number => b;\n`,
  'src/scoring/cycle-b.ts': `import { a } from './cycle-a.js';\nexport const b = 1;\nexport const useA = a;\n`,
  'src/scoring/lazy-a.ts': `export const run = async (): Promise<number> =>\n  (await import('./lazy-b.js')).lazyB;\nexport const lazyA = 1;\n`,
  'src/scoring/lazy-b.ts': `import { lazyA } from './lazy-a.js';\nexport const lazyB = lazyA;\n`,
  'src/contracts/leaky.ts': [
    `import { value } from '../valuation/ok.js';`,
    `import { Table } from 'apache-arrow';`,
    `import { CODES } from '../errors/codes.js';`,
    `export const leak = [value, Table, CODES];`,
  ].join('\n'),
  'src/http/uses-mcp.ts': `import { tool } from '../mcp/ok.js';\nexport const x = tool;\n`,
  'src/mcp/uses-http.ts': `import { route } from '../http/ok.js';\nexport const x = route;\n`,
  'src/valuation/uses-app.ts': [
    `import { operation } from '../app/ok.js';`,
    `import { serve } from '../server.js';`,
    `import { main } from '../cli.js';`,
    `import { route } from '../http/ok.js';`,
    `import type { Context } from 'koa';`,
    `import Router from '@koa/router';`,
    `export const x = (ctx: Context): unknown => [operation, serve, main, route, Router, ctx];`,
  ].join('\n'),
  'src/store/uses-mcp.ts': `import { tool } from '../mcp/ok.js';\nexport const x = tool;\n`,
  'src/workers/uses-app.ts': [
    `import { operation } from '../app/ok.js';`,
    `import { route } from '../http/ok.js';`,
    `import { tool } from '../mcp/ok.js';`,
    `export const x = [operation, route, tool];`,
  ].join('\n'),
  'src/app/uses-doors.ts': [
    `import { route } from '../http/ok.js';`,
    `import { tool } from '../mcp/ok.js';`,
    `export const x = [route, tool];`,
  ].join('\n'),
};

const FILES = { ...CLEAN, ...BROKEN };

let root = '';
/** Reports per fixture file: `rule specifier`, in line order. */
let reports: Record<string, string[]> = {};

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'avm-import-lint-')));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  // Packages resolve from the repo's node_modules; the tsconfig is what the resolver reads, as in the repo.
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src/**/*.ts'] }));

  // A computed URL: tsc does not type the plain-JavaScript config, the shape is declared here.
  const configUrl = new URL('../../eslint.config.js', import.meta.url).href;
  const { importLintConfig } = (await import(configUrl)) as { importLintConfig: (rootDir: string) => Linter.Config[] };
  const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: importLintConfig(root) });
  const results = await eslint.lintFiles(['src']);
  reports = Object.fromEntries(results.map((r) => {
    const lines = FILES[relative(root, r.filePath)].split('\n');
    const named = r.messages.map((m) => `${m.ruleId} ${/'([^']+)'/.exec(lines[m.line - 1])?.[1] ?? `line ${m.line}`}`);
    return [relative(root, r.filePath), named];
  }));
}, 30_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('eslint.config.js importLintConfig(rootDir)', () => {
  it('lints every fixture file', () => {
    expect(Object.keys(reports).sort()).toEqual(Object.keys(FILES).sort());
  });

  it('passes the allowed imports of every layer, packages included', () => {
    const clean = Object.fromEntries(Object.keys(CLEAN).map((f) => [f, reports[f]]));
    expect(clean).toEqual(Object.fromEntries(Object.keys(CLEAN).map((f) => [f, []])));
  });

  it('reports an import cycle on both of its ends', () => {
    expect(reports['src/scoring/cycle-a.ts']).toEqual([`${CYCLE} ./cycle-b.js`]);
    expect(reports['src/scoring/cycle-b.ts']).toEqual([`${CYCLE} ./cycle-a.js`]);
  });

  it('counts a dynamic import() as an edge of a cycle', () => {
    expect(reports['src/scoring/lazy-a.ts']).toEqual([`${CYCLE} ./lazy-b.js`]);
    expect(reports['src/scoring/lazy-b.ts']).toEqual([`${CYCLE} ./lazy-a.js`]);
  });

  it('reports contracts importing a domain folder or a package other than zod', () => {
    expect(reports['src/contracts/leaky.ts']).toEqual([`${ZONE} ../valuation/ok.js`, `${ZONE} apache-arrow`]);
  });

  it('reports http importing mcp and mcp importing http', () => {
    expect(reports['src/http/uses-mcp.ts']).toEqual([`${ZONE} ../mcp/ok.js`]);
    expect(reports['src/mcp/uses-http.ts']).toEqual([`${ZONE} ../http/ok.js`]);
  });

  it('reports a domain folder importing app, server, cli, a door or Koa (type-only imports included)', () => {
    expect(reports['src/valuation/uses-app.ts']).toEqual([
      `${ZONE} ../app/ok.js`, `${ZONE} ../server.js`, `${ZONE} ../cli.js`, `${ZONE} ../http/ok.js`, `${ZONE} koa`, `${ZONE} @koa/router`,
    ]);
    expect(reports['src/store/uses-mcp.ts']).toEqual([`${ZONE} ../mcp/ok.js`]);
  });

  it('reports workers importing app or a door', () => {
    expect(reports['src/workers/uses-app.ts']).toEqual([`${ZONE} ../app/ok.js`, `${ZONE} ../http/ok.js`, `${ZONE} ../mcp/ok.js`]);
  });

  it('reports app importing a door', () => {
    expect(reports['src/app/uses-doors.ts']).toEqual([`${ZONE} ../http/ok.js`, `${ZONE} ../mcp/ok.js`]);
  });
});
