// The import lint (`npm run lint`): no import cycles (src/, bench/, scripts/, test/) and, in src/, the layer boundaries
// of DESIGN.md as import-x/no-restricted-paths zones. Imports resolve as tsc resolves them (NodeNext: `./x.js` is
// `./x.ts`). `importLintConfig(rootDir)` builds the same config for any folder shaped like the repo (test/lint uses it).
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readdirSync } from 'node:fs';
import tsParser from '@typescript-eslint/parser';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** The domain folders: they never reach up into the application layer, the doors, the entry points or Koa. */
export const DOMAIN_FOLDERS = [
  'valuation', 'underwriting', 'scoring', 'risk', 'pulse', 'listings', 'alerts', 'auth', 'events', 'ingest', 'store',
  'kernel', 'reference', 'registry', 'analytics',
];

const DOORS = ['src/http', 'src/mcp'];

/** Everything under src/ but the browser client's folder (src/web), as repo-relative paths. */
const SERVER_PATHS = readdirSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'src')).filter((e) => e !== 'web').map((e) => `src/${e}`);

// Resolved paths of the Koa packages (their own files or their @types), wherever node_modules really lives (it may be
// a symlink): absolute globs, so basePath does not prefix them.
const KOA_PACKAGES = '/**/node_modules/{koa,@types/koa,@koa/router,@types/koa__router}/**';

/** The boundary zones (paths relative to the repo root; `except` is relative to `from`). */
export const BOUNDARY_ZONES = [
  {
    target: 'src/contracts',
    from: 'src',
    except: ['contracts', 'errors', 'registry/groups', 'registry/define.ts', 'registry/versions.ts'],
    message: 'contracts/ is the leaf: it may import only contracts/, errors/, registry/groups/, registry/define.ts and registry/versions.ts.',
  },
  {
    target: 'src/contracts',
    from: ['/**/node_modules/**'],
    except: ['/**/node_modules/zod/**'],
    message: 'contracts/ is the leaf: zod is its only package.',
  },
  { target: 'src/http', from: 'src/mcp', message: 'The two doors never import each other (http ↛ mcp).' },
  { target: 'src/mcp', from: 'src/http', message: 'The two doors never import each other (mcp ↛ http).' },
  {
    target: DOMAIN_FOLDERS.map((d) => `src/${d}`),
    from: ['src/app', ...DOORS, 'src/server.ts', 'src/cli.ts'],
    message: 'Domain folders never import the app layer, the doors, the server or the CLI.',
  },
  {
    target: DOMAIN_FOLDERS.map((d) => `src/${d}`),
    from: [KOA_PACKAGES],
    message: 'Domain folders never import Koa.',
  },
  { target: 'src/workers', from: ['src/app', ...DOORS], message: 'Workers never import the app layer or the doors.' },
  { target: 'src/app', from: DOORS, message: 'The app layer never imports the doors.' },
  // The browser client (src/web/client, built by esbuild, tsconfig.client.json) and the server share only contracts
  // (types: the client imports them `import type`, so no zod ships to the browser).
  {
    target: 'src/web/client',
    from: 'src',
    // display-money.ts: the ladder's money rounding, DOM-free and schema-free, so the panel rounds as the ladder does.
    except: ['web/client', 'contracts', 'valuation/decide/display-money.ts'],
    message: 'The browser client imports only its own folder, contracts/ (types) and the ladder\'s money rounding.',
  },
  { target: SERVER_PATHS, from: 'src/web/client', message: 'Server code never imports the browser client.' },
];

// `import type` (and an import whose every specifier is `type`) is erased at run time: import-x always skips it, there
// is no option. A dynamic import() still counts: it defers a cycle, it does not remove it.
const NO_CYCLE = ['error', { ignoreExternal: true }];

/** The flat config for a repo-shaped folder at `rootDir` (its tsconfig.json drives resolution). */
export function importLintConfig(rootDir) {
  const typescriptImports = {
    languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      // Without .ts here import-x would not read the imports of .ts files and no-cycle would see no edges.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(rootDir, 'tsconfig.json') })],
    },
    // No inline `eslint-disable` of a boundary: a rule is changed here or not at all.
    linterOptions: { noInlineConfig: true },
  };
  return [
    { ignores: ['dist/**', 'node_modules/**', 'data/**', 'crates/**', 'test-results/**'] },
    {
      ...typescriptImports,
      files: ['src/**/*.ts'],
      rules: {
        'import-x/no-cycle': NO_CYCLE,
        'import-x/no-restricted-paths': ['error', { basePath: rootDir, zones: BOUNDARY_ZONES }],
      },
    },
    // Benches, scripts and tests: cycles only (a few seconds more; they sit outside the layers).
    { ...typescriptImports, files: ['{bench,scripts,test}/**/*.ts'], rules: { 'import-x/no-cycle': NO_CYCLE } },
  ];
}

export default importLintConfig(path.dirname(fileURLToPath(import.meta.url)));
