// Buffered, synchronous CSV output for the generator: rows stream to disk in large chunks, so the county scale never
// holds a whole file in memory. Headers come from the fixed layouts (required, then the optional columns filled).
import { closeSync, openSync, writeSync } from 'node:fs';
import { AppError } from '../../errors/app-error.js';
import type { Layout } from '../layouts.js';

const FLUSH_BYTES = 1 << 20;

/** Header of a layout: required columns, then the filled optional ones in the layout's order. */
export function headerFor(layout: Layout, filledOptional: readonly string[]): string[] {
  const unknown = filledOptional.filter((c) => !layout.optional.includes(c));
  if (unknown.length > 0) throw new AppError('internal_error', `${layout.file}: columns not in the layout: ${unknown.join(', ')}`);
  return [...layout.required, ...layout.optional.filter((c) => filledOptional.includes(c))];
}

/** RFC 4180 quoting for a field that holds a comma, quote or line break. */
function field(v: string | number): string {
  if (typeof v === 'number') return String(v);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export class CsvOut {
  private readonly fd: number;
  // Rows are encoded straight into one reused buffer: building megabyte strings per flush churns the garbage
  // collector more than the generation itself.
  private readonly buf = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;
  rows = 0;

  constructor(readonly path: string, readonly columns: readonly string[]) {
    this.fd = openSync(path, 'w');
    this.put(columns.map(field).join(','));
  }

  /** Appends one row; the field count must match the header. */
  row(values: ReadonlyArray<string | number>): void {
    if (values.length !== this.columns.length) {
      throw new AppError('internal_error', `${this.path}: row has ${values.length} fields, header ${this.columns.length}`);
    }
    let line = field(values[0]);
    for (let i = 1; i < values.length; i++) line += ',' + field(values[i]);
    this.put(line);
    this.rows++;
  }

  private put(line: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 unit; +1 for the newline.
    if (this.used + 3 * line.length + 1 > this.buf.length) this.flush();
    if (3 * line.length + 1 > this.buf.length) throw new AppError('internal_error', `${this.path}: row longer than the write buffer`);
    this.used += this.buf.write(line, this.used, 'utf8');
    this.buf[this.used++] = 0x0a;
  }

  private flush(): void {
    let off = 0;
    while (off < this.used) off += writeSync(this.fd, this.buf, off, this.used - off);
    this.used = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
