// scripts/build.mjs (`npm run build`, `npm start`'s prestart): tsc runs only when an input changed since the last
// successful build. Exercised on a tiny repo-shaped folder with the real tsc (node_modules linked to this repo's),
// incremental like tsconfig.build.json.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build, sourceDigest } from '../../scripts/build.mjs';
import { ROOT_DIR } from '../../src/config.js';

const root = mkdtempSync(join(tmpdir(), 'avm-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeRepo(): void {
  mkdirSync(join(root, 'src', 'workers', 'tasks'), { recursive: true });
  symlinkSync(join(ROOT_DIR, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', rootDir: '.', types: [] } }));
  writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { incremental: true, tsBuildInfoFile: 'dist/.tsbuildinfo' }, include: ['src/**/*.ts'] }));
  writeFileSync(join(root, 'package-lock.json'), '{}');
  writeFileSync(join(root, 'src', 'cli.ts'), 'export const answer: number = 42;\n');
  writeFileSync(join(root, 'src', 'workers', 'tasks', 'valuation.task.ts'), 'export default (): number => 1;\n');
}

describe('build({ root })', () => {
  it('compiles the first time, skips an unchanged tree, and compiles again after an edit or a lost output', () => {
    writeRepo();
    expect(build({ root })).toBe(true);
    expect(build({ root })).toBe(false);

    const before = sourceDigest(root);
    writeFileSync(join(root, 'src', 'extra.ts'), 'export const extra = 1;\n'); // an added file is an input too
    expect(sourceDigest(root)).not.toBe(before);
    writeFileSync(join(root, 'src', 'cli.ts'), 'export const answer: number = 43;\n');
    expect(build({ root })).toBe(true);
    expect(build({ root })).toBe(false);

    rmSync(join(root, 'dist', 'src', 'cli.js'));
    expect(build({ root })).toBe(true);
    expect(existsSync(join(root, 'dist', 'src', 'cli.js'))).toBe(true); // re-emitted although tsc's incremental state said up to date
  }, 60_000);

  it('leaves no stamp after a failed compile, so the next call compiles again', () => {
    const before = sourceDigest(root);
    writeFileSync(join(root, 'src', 'broken.ts'), 'export const broken: number = "not a number";\n');
    expect(sourceDigest(root)).not.toBe(before);
    expect(() => build({ root })).toThrow();
    rmSync(join(root, 'src', 'broken.ts'));
    expect(sourceDigest(root)).toBe(before);
    expect(build({ root })).toBe(true); // the stamp was removed by the failed attempt
  }, 60_000);

  it('type-checks and bundles the browser client into dist/web, and rebuilds when a client file changes or a bundle is lost', () => {
    mkdirSync(join(root, 'src', 'web', 'client'), { recursive: true });
    // The server's tsconfig must not compile browser code: the client has its own (DOM lib).
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', rootDir: '.', types: [] }, exclude: ['src/web/client/**'] }));
    writeFileSync(join(root, 'tsconfig.client.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, types: [] }, include: ['src/web/client/**/*.ts'] }));
    writeFileSync(join(root, 'src', 'web', 'client', 'util.ts'), 'export const title = (): string => document.title;\n');
    writeFileSync(join(root, 'src', 'web', 'client', 'page-entry.ts'), "import { title } from './util.js';\nconsole.log(title());\n");
    expect(build({ root })).toBe(true);
    expect(readFileSync(join(root, 'dist', 'web', 'page.js'), 'utf8')).toContain('document.title');
    expect(build({ root })).toBe(false);

    writeFileSync(join(root, 'src', 'web', 'client', 'util.ts'), 'export const title = (): string => document.URL;\n');
    expect(build({ root })).toBe(true);
    expect(readFileSync(join(root, 'dist', 'web', 'page.js'), 'utf8')).toContain('document.URL');

    rmSync(join(root, 'dist', 'web'), { recursive: true });
    expect(build({ root })).toBe(true);
    expect(existsSync(join(root, 'dist', 'web', 'page.js'))).toBe(true);

    writeFileSync(join(root, 'src', 'web', 'client', 'util.ts'), 'export const title = (): number => document.title;\n'); // a client type error fails the build
    expect(() => build({ root })).toThrow();
    expect(existsSync(join(root, 'dist', '.build-stamp'))).toBe(false);
  }, 120_000);
});
