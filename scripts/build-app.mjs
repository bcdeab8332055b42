#!/usr/bin/env node
// Builds the MCP App page: src/web/client/mcp-app.ts bundled by esbuild (MapLibre GL JS and the ext-apps App class
// from node_modules) into ONE self-contained HTML, dist/web/app.html, that src/mcp/app/map-app.ts serves as the
// `ui://avm/map.html` resource. Script, styles (MapLibre's CSS and ours) and MapLibre's worker are inlined: a host
// renders the page in a sandbox that may load nothing from outside. `npm run build` calls `buildApp()` through
// build-client.mjs; run alone, this file rebuilds only the page.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The page, relative to the repo root. */
export const APP_HTML = join('dist', 'web', 'app.html');
/** Its entry, relative to the repo root. */
export const APP_ENTRY = join('src', 'web', 'client', 'mcp-app.ts');

/** Bundles one entry to a minified IIFE string (no file written). esbuild is a dev dependency: loaded on use. */
function bundle(root, entry, define = {}) {
  const { buildSync } = createRequire(join(root, 'package.json'))('esbuild');
  const out = buildSync({ entryPoints: [entry], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: true, write: false, define, legalComments: 'inline', logLevel: 'warning' });
  return out.outputFiles[0].text;
}

/** Inline text must not close its element early: `</script` or `</style` inside it would. */
const inlineSafe = (text, tag) => text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');

export function appHtml({ js, css }) {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Cook and Lake County valuation map</title>',
    `<style>${inlineSafe(css, 'style')}</style>`,
    '</head><body><div id="root"><div id="map" role="region" aria-label="map"></div><aside id="panel" aria-live="polite"></aside></div>',
    `<script>${inlineSafe(js, 'script')}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** Builds dist/web/app.html under `root`; returns its path and size in bytes. */
export function buildApp({ root = REPO_ROOT } = {}) {
  const require = createRequire(join(root, 'package.json'));
  const worker = bundle(root, require.resolve('maplibre-gl/dist/maplibre-gl-worker.mjs'));
  const js = bundle(root, join(root, APP_ENTRY), { __MAPLIBRE_WORKER_SOURCE__: JSON.stringify(worker) });
  const css = readFileSync(require.resolve('maplibre-gl/dist/maplibre-gl.css'), 'utf8') + readFileSync(join(root, 'src', 'web', 'client', 'app.css'), 'utf8');
  const html = appHtml({ js, css });
  const file = join(root, APP_HTML);
  mkdirSync(dirname(file), { recursive: true });
  // Written aside then renamed: a server (or a parallel test) reading the page never sees half of it.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, html);
  renameSync(partial, file);
  return { file, bytes: Buffer.byteLength(html) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { file, bytes } = buildApp();
    console.log(`${file}: ${bytes} bytes`);
  } catch (e) {
    console.error(e.message);
    process.exitCode = 1;
  }
}
