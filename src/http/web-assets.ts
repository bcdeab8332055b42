// GET /assets/<name>: the browser client's files. The bundles esbuild wrote to dist/web (scripts/build-client.mjs:
// <name>.js, <name>.css and their source maps) and MapLibre's worker module, served from the installed maplibre-gl
// package (same origin, so the map page's worker-src stays 'self'); nothing is copied into git. A closed set: a name
// is served only when it matches ASSET_NAME and the file exists. Revalidated on each load by a strong ETag (a 304 when
// unchanged), since a rebuild changes the bytes behind the same name.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { strongEtag } from '../app/etag.js';
import { AppError } from '../errors/app-error.js';

export const ASSETS_PREFIX = '/assets/';
/** Lower case (the canonical path is), no separators, one of the served kinds. */
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(js|css|mjs|js\.map|css\.map)$/;
const WORKER_NAME = 'maplibre-gl-worker.mjs';
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8', mjs: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8',
  'js.map': 'application/json', 'css.map': 'application/json',
};

export const isAssetPath = (path: string): boolean => path.startsWith(ASSETS_PREFIX) && ASSET_NAME.test(path.slice(ASSETS_PREFIX.length));

type Cached = { mtimeMs: number; size: number; bytes: Buffer; etag: string };

/** Where each asset name lives: MapLibre's worker in its package, everything else in `<rootDir>/dist/web`. */
function assetFile(rootDir: string, name: string): string {
  if (name === WORKER_NAME) return createRequire(import.meta.url).resolve(`maplibre-gl/dist/${WORKER_NAME}`);
  return join(rootDir, 'dist', 'web', name);
}

export function registerWebAssetRoutes(router: Router, rootDir: string): void {
  const cache = new Map<string, Cached>();
  const read = (file: string): Cached | null => {
    let st;
    try {
      st = statSync(file);
    } catch {
      return null;
    }
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
    const bytes = readFileSync(file);
    const entry = { mtimeMs: st.mtimeMs, size: st.size, bytes, etag: strongEtag(bytes) };
    cache.set(file, entry);
    return entry;
  };
  router.get(`${ASSETS_PREFIX}:name`, async (ctx: Context) => {
    const name = String(ctx.params.name);
    const kind = ASSET_NAME.exec(name)?.[1];
    const asset = kind ? read(assetFile(rootDir, name)) : null;
    if (!kind || !asset) throw new AppError('not_found', `no asset ${ctx.path}${kind ? ' (the client is built by npm run build)' : ''}`);
    ctx.set({ ETag: asset.etag, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    ctx.type = TYPES[kind];
    ctx.body = asset.bytes;
  });
}
