// Buffered, synchronous CSV output for the generator: rows stream to disk in large chunks, so the county scale never
// holds a whole file in memory. Headers come from the fixed layouts (required, then the optional columns filled).
import { closeSync, openSync, writeSync } from 'node:fs';
import { AppError } from '../../errors/app-error.js';
import type { Layout } from '../layouts.js';

const FLUSH_CHARS = 1 << 20;

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
  private buf = '';
  rows = 0;

  constructor(readonly path: string, readonly columns: readonly string[]) {
    this.fd = openSync(path, 'w');
    this.buf = columns.map(field).join(',') + '\n';
  }

  /** Appends one row; the field count must match the header. */
  row(values: ReadonlyArray<string | number>): void {
    if (values.length !== this.columns.length) {
      throw new AppError('internal_error', `${this.path}: row has ${values.length} fields, header ${this.columns.length}`);
    }
    let line = field(values[0]);
    for (let i = 1; i < values.length; i++) line += ',' + field(values[i]);
    this.buf += line + '\n';
    this.rows++;
    if (this.buf.length >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    if (this.buf.length > 0) writeSync(this.fd, this.buf);
    this.buf = '';
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
