// Streaming RFC 4180 CSV reader: quoted fields with "" escapes and embedded newlines, CRLF or LF, UTF-8 BOM.
// Rows are handed to a synchronous callback (one reused array) so a million rows cost no per-row promise; it also
// hashes the raw bytes so an ingest can record exactly which file it read.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { INGEST } from '../registry/groups/ingest.js';

/** Where a record sits in its file: `row` is the 1-based data row (header excluded), `line` the physical line it starts on. */
export type CsvPosition = { row: number; line: number };

export type CsvHandlers = {
  /** Called once with the header fields (trimmed, BOM removed). */
  onHeader: (header: string[]) => void;
  /** Called per data row; `fields` is reused between calls, copy what you keep. Throw to abort the read. */
  onRow: (fields: string[], pos: CsvPosition) => void;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
};

export type CsvReadResult = { rows: number; bytes: number; sha256: string };

/** A structural CSV error (unterminated quote, text after a closing quote), positioned for the caller's message. */
export class CsvSyntaxError extends Error {
  constructor(message: string, readonly pos: CsvPosition) {
    super(message);
  }
}

const QUOTE = 34;
const CR = 13;

type ParserState = { row: number; line: number; header: boolean; fields: string[] };

/** Reads `path` as CSV, calling the handlers; resolves with the row count and the SHA-256 of the bytes. */
export async function readCsv(path: string, h: CsvHandlers): Promise<CsvReadResult> {
  const totalBytes = statSync(path).size;
  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  const st: ParserState = { row: 0, line: 1, header: true, fields: [] };
  let carry = '';
  let bytes = 0;
  const stream = createReadStream(path, { highWaterMark: INGEST.v.csv_chunk_bytes });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    let text = carry + decoder.write(chunk);
    if (bytes === chunk.length && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    carry = text.slice(parseText(text, false, st, h));
    h.onProgress?.(bytes, totalBytes);
  }
  const rest = carry + decoder.end();
  if (rest.length > 0) parseText(rest, true, st, h);
  if (st.header) h.onHeader([]);
  return { rows: st.row, bytes, sha256: hash.digest('hex') };
}

/** Parses every complete record of `text`; returns the offset of the first incomplete one (text.length if none). */
function parseText(text: string, isLast: boolean, st: ParserState, h: CsvHandlers): number {
  const n = text.length;
  let p = 0;
  let nextComma = -2;
  let nextNl = -2;
  while (p < n) {
    const recordStart = p;
    const startLine = st.line;
    const fields = st.fields;
    fields.length = 0;
    let complete = false;
    for (;;) {
      if (p < n && text.charCodeAt(p) === QUOTE) {
        const q = readQuoted(text, p, isLast, st);
        if (q === null) return rewind(st, startLine, recordStart);
        fields.push(q.value);
        p = q.end;
        if (p >= n) { complete = isLast; if (!isLast) return rewind(st, startLine, recordStart); break; }
        const ch = text.charCodeAt(p);
        if (ch === 44) { p++; continue; }
        if (ch === 10) { p++; st.line++; complete = true; break; }
        if (ch === CR && text.charCodeAt(p + 1) === 10) { p += 2; st.line++; complete = true; break; }
        if (ch === CR && p + 1 >= n) { if (!isLast) return rewind(st, startLine, recordStart); p++; complete = true; break; }
        throw new CsvSyntaxError('unexpected text after a closing quote', { row: st.row + (st.header ? 0 : 1), line: st.line });
      }
      if (nextComma !== -1 && nextComma < p) nextComma = text.indexOf(',', p);
      if (nextNl !== -1 && nextNl < p) nextNl = text.indexOf('\n', p);
      const end = nextComma !== -1 && (nextNl === -1 || nextComma < nextNl) ? nextComma : nextNl;
      if (end === -1) {
        if (!isLast) return rewind(st, startLine, recordStart);
        fields.push(stripCr(text.slice(p)));
        p = n;
        complete = true;
        break;
      }
      if (end === nextComma) { fields.push(text.slice(p, end)); p = end + 1; continue; }
      fields.push(stripCr(text.slice(p, end)));
      p = end + 1;
      st.line++;
      complete = true;
      break;
    }
    if (complete) emit(st, h, startLine);
  }
  return p;
}

function rewind(st: ParserState, startLine: number, recordStart: number): number {
  st.line = startLine;
  return recordStart;
}

function stripCr(s: string): string {
  return s.length > 0 && s.charCodeAt(s.length - 1) === CR ? s.slice(0, -1) : s;
}

/** A quoted field starting at `p`; null when the closing quote is not in this text yet. */
function readQuoted(text: string, p: number, isLast: boolean, st: ParserState): { value: string; end: number } | null {
  let from = p + 1;
  let value = '';
  for (;;) {
    const q = text.indexOf('"', from);
    if (q === -1) {
      if (!isLast) return null;
      throw new CsvSyntaxError('unterminated quoted field', { row: st.row + (st.header ? 0 : 1), line: st.line });
    }
    if (q + 1 >= text.length && !isLast) return null;
    if (text.charCodeAt(q + 1) === QUOTE) {
      value += text.slice(from, q + 1);
      from = q + 2;
      continue;
    }
    value += text.slice(from, q);
    st.line += countNewlines(text, p, q);
    return { value, end: q + 1 };
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let k = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) k++;
  return k;
}

function emit(st: ParserState, h: CsvHandlers, startLine: number): void {
  const f = st.fields;
  if (f.length === 1 && f[0] === '') return; // blank line
  if (st.header) {
    st.header = false;
    h.onHeader(f.map((x) => x.trim()));
    return;
  }
  st.row++;
  h.onRow(f, { row: st.row, line: startLine });
}
