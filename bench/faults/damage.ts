// Damage done to a store's data file on disk, the way a failing disk or an interrupted copy does it: bytes garbled in
// place, or the file cut short. Deterministic, so a test that fails fails the same way every time.
import { closeSync, openSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const GARBLE_BYTES = 256 * 1024;

/** `<dataDir>/lmdb/data.mdb`. */
export const dataFileOf = (dataDir: string): string => join(dataDir, 'lmdb', 'data.mdb');

/** Overwrites `bytes` bytes centred on the middle of `file` with pseudo-random bytes (xorshift32 from `seed`). */
export function garbleMiddle(file: string, bytes = GARBLE_BYTES, seed = 0x9e3779b9): { offset: number; bytes: number } {
  const size = statSync(file).size;
  const offset = Math.max(0, Math.floor(size / 2 - bytes / 2));
  const junk = Buffer.alloc(Math.min(bytes, size - offset));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < junk.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    junk[i] = x & 0xff;
  }
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, junk, 0, junk.length, offset);
  } finally {
    closeSync(fd);
  }
  return { offset, bytes: junk.length };
}

/** Cuts `file` to half its size (what an interrupted copy or a full disk leaves). */
export function truncateHalf(file: string): number {
  const half = Math.floor(statSync(file).size / 2);
  truncateSync(file, half);
  return half;
}
