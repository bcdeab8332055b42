// A private copy of the small test corpus, for tests that damage or rewrite a store; removed by cleanupCopies().
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { smallCorpusDir } from './corpus.js';

const copies: string[] = [];

export async function copyOfSmallCorpus(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'avm-copy-'));
  cpSync(await smallCorpusDir(), dir, { recursive: true });
  copies.push(dir);
  return dir;
}

export function cleanupCopies(): void {
  for (const d of copies.splice(0)) rmSync(d, { recursive: true, force: true });
}
