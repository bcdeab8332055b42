// Files other machines read while they are being replaced: written to a temporary name in the same folder, flushed,
// then renamed over the final name (rename is atomic within one file system), so a reader sees the old file or the
// whole new one, never a torn one.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Writes `bytes` to `path` atomically (temp + fsync + rename + fsync of the folder). */
export async function writeFileAtomic(path: string, bytes: Uint8Array | string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  // The rename itself must survive a crash: flush the folder's entry too (not supported on every platform).
  const d = await open(dir, 'r');
  try {
    await d.sync().catch(() => undefined);
  } finally {
    await d.close();
  }
}
