// The browser client half of `npm run build`: every `src/web/client/<name>-entry.ts` is type-checked with
// tsconfig.client.json (DOM lib; the server's tsconfig excludes src/web/client) and bundled by esbuild into
// `dist/web/<name>.js`, an ES module the service serves under /assets/. MapLibre GL is bundled in; its worker is not
// (the service serves node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs beside the bundle, same origin, so the
// page's worker-src stays 'self'). Then the MCP App page (build-app.mjs). Plain Node: it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { APP_ENTRY, APP_HTML, buildApp } from './build-app.mjs';

export const CLIENT_DIR = join('src', 'web', 'client');
export const CLIENT_TSCONFIG = 'tsconfig.client.json';
export const CLIENT_OUT_DIR = join('dist', 'web');
const ENTRY_SUFFIX = '-entry.ts';

/** `{ name: entry path }` of every client entry under `root` (none when the repo has no client). */
export function clientEntries(root) {
  const dir = join(root, CLIENT_DIR);
  if (!existsSync(join(root, CLIENT_TSCONFIG)) || !existsSync(dir)) return {};
  const entries = {};
  for (const f of readdirSync(dir).sort()) if (f.endsWith(ENTRY_SUFFIX)) entries[f.slice(0, -ENTRY_SUFFIX.length)] = join(dir, f);
  return entries;
}

/** The bundles the service needs: their absence means the stamp lies (dist/web deleted). */
export function clientOutputs(root) {
  if (Object.keys(clientEntries(root)).length === 0) return [];
  const app = existsSync(join(root, APP_ENTRY)) ? [APP_HTML] : [];
  return [...Object.keys(clientEntries(root)).map((name) => join(CLIENT_OUT_DIR, `${name}.js`)), ...app];
}

/** Type-checks and bundles the client; throws when either fails (diagnostics on stdout/stderr). */
export function buildClient(root) {
  const entries = clientEntries(root);
  if (Object.keys(entries).length === 0) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, CLIENT_TSCONFIG), '--noEmit'], { stdio: 'inherit' });
  // esbuild is a dev dependency: loaded only when there is a client to bundle, so `npx avm` on a built tree needs none.
  const { buildSync } = createRequire(import.meta.url)('esbuild');
  buildSync({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: CLIENT_OUT_DIR,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    legalComments: 'eof', // MapLibre's BSD notice stays in the bundle it ships in
    logLevel: 'warning',
  });
  if (existsSync(join(root, APP_ENTRY))) buildApp({ root }); // the MCP App page: one self-contained HTML, MapLibre inlined
}
