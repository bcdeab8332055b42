#!/usr/bin/env node
// Entry for `npx avm`: compiles first when the sources changed since the last build (scripts/build.mjs), then runs
// the compiled CLI.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from '../scripts/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
try {
  build();
} catch {
  process.stderr.write('avm: the TypeScript build failed (tsc output above)\n');
  process.exit(1);
}
await import(pathToFileURL(join(root, 'dist', 'src', 'cli.js')).href);
