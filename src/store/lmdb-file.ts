// The LMDB data file checked against its own header with plain file reads, before anything maps it: LMDB maps the
// whole file and trusts its meta page, so a file shorter than the meta's last page kills the process with SIGBUS
// ("Bus error") on the first read past the end. Here that becomes one clear error instead.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { AppError } from '../errors/app-error.js';

// Layout of the two meta pages (lmdb-js's liblmdb, mdb.c, 64-bit): a 24-byte page header (pgno u64, txnid u64,
// pad u16, flags u16, lower/upper u32) then MDB_meta: magic u32, version u32, address u64, mapsize u64, two MDB_db
// of 48 bytes (the first one's md_pad is the page size), last_pg u64, txnid u64. Meta 0 is at offset 0, meta 1 at
// one page size.
const META_PAGE_FLAG = 0x08;
const MDB_MAGIC = 0xbeefc0de;
const MDB_DATA_VERSION = 2;
const OFFSET = { flags: 18, magic: 24, version: 28, pageSize: 48, lastPage: 144, txnId: 152 } as const;
const META_BYTES = 160;
const MAX_PAGE_SIZE = 65_536;

type Meta = { pageSize: number; lastPage: number; txnId: number };

export type LmdbFileCheck =
  | { ok: true; fileBytes: number; pageSize: number; lastPage: number; detail: string }
  | { ok: false; fileBytes: number; reason: string };

function metaAt(buf: Buffer, at: number, bytesRead: number): Meta | null {
  if (bytesRead < at + META_BYTES) return null;
  if ((buf.readUInt16LE(at + OFFSET.flags) & META_PAGE_FLAG) === 0) return null;
  if (buf.readUInt32LE(at + OFFSET.magic) !== MDB_MAGIC) return null;
  if ((buf.readUInt32LE(at + OFFSET.version) & 0xffff) !== MDB_DATA_VERSION) return null;
  const pageSize = buf.readUInt32LE(at + OFFSET.pageSize);
  if (pageSize < 512 || pageSize > MAX_PAGE_SIZE || (pageSize & (pageSize - 1)) !== 0) return null;
  return { pageSize, lastPage: Number(buf.readBigUInt64LE(at + OFFSET.lastPage)), txnId: Number(buf.readBigUInt64LE(at + OFFSET.txnId)) };
}

/**
 * Reads the two meta pages of `file` (an LMDB data.mdb) and checks the file holds every page the newer one records
 * (LMDB opens the meta with the higher txnid). An empty file is fine: LMDB initialises it.
 */
export function checkLmdbFile(file: string): LmdbFileCheck {
  const fd = openSync(file, 'r');
  try {
    const fileBytes = fstatSync(fd).size;
    if (fileBytes === 0) return { ok: true, fileBytes, pageSize: 0, lastPage: 0, detail: `${file} is empty (a new store)` };
    const buf = Buffer.alloc(MAX_PAGE_SIZE + META_BYTES);
    const bytesRead = readSync(fd, buf, 0, buf.length, 0);
    const first = metaAt(buf, 0, bytesRead);
    const second = first ? metaAt(buf, first.pageSize, bytesRead) : null;
    const metas = [first, second].filter((m): m is Meta => m !== null);
    if (metas.length === 0) return { ok: false, fileBytes, reason: `${file} is not an LMDB data file (no valid meta page at its start)` };
    const meta = metas.reduce((a, b) => (b.txnId > a.txnId ? b : a));
    const neededBytes = (meta.lastPage + 1) * meta.pageSize;
    if (fileBytes < neededBytes) {
      return { ok: false, fileBytes, reason: `${file} is truncated: ${fileBytes} bytes, its header records ${meta.lastPage + 1} pages of ${meta.pageSize} B (${neededBytes} bytes)` };
    }
    return { ok: true, fileBytes, pageSize: meta.pageSize, lastPage: meta.lastPage, detail: `${file}: ${fileBytes} bytes, ${meta.lastPage + 1} pages of ${meta.pageSize} B in use` };
  } finally {
    closeSync(fd);
  }
}

/** Throws store_damaged when `file` exists and fails checkLmdbFile; a missing file is left to LMDB to create. */
export function assertLmdbFileIntact(file: string): void {
  let check: LmdbFileCheck;
  try {
    check = checkLmdbFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new AppError('store_damaged', `${file} cannot be read: ${(e as Error).message}`, { cause: e });
  }
  if (!check.ok) throw new AppError('store_damaged', check.reason);
}
