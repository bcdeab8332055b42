import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvSyntaxError, readCsv, type CsvPosition } from '../../../src/ingest/csv.js';
import { INGEST } from '../../../src/registry/groups/ingest.js';

const dir = mkdtempSync(join(tmpdir(), 'avm-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function parse(text: string | Buffer): Promise<{ header: string[]; rows: string[][]; pos: CsvPosition[] }> {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, text);
  const out = { header: [] as string[], rows: [] as string[][], pos: [] as CsvPosition[] };
  await readCsv(path, { onHeader: (h) => (out.header = h), onRow: (f, p) => { out.rows.push([...f]); out.pos.push({ ...p }); } });
  return out;
}

describe('readCsv(path, handlers)', () => {
  it('parses RFC 4180 quoting: commas, doubled quotes and newlines inside quotes', async () => {
    const r = await parse('a,b,c\n1,"x, y","say ""hi"""\n2,"two\nlines",z\n');
    expect(r.header).toEqual(['a', 'b', 'c']);
    expect(r.rows).toEqual([['1', 'x, y', 'say "hi"'], ['2', 'two\nlines', 'z']]);
  });

  it('numbers rows from 1 after the header and reports the physical line each starts on', async () => {
    const r = await parse('a,b\n1,"multi\nline"\n2,x\n');
    expect(r.pos).toEqual([{ row: 1, line: 2 }, { row: 2, line: 4 }]);
  });

  it('accepts CRLF line ends, a UTF-8 BOM, a missing final newline and skips blank lines', async () => {
    const r = await parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('pin,v\r\n1,a\r\n\r\n2,"b"')]));
    expect(r.header).toEqual(['pin', 'v']);
    expect(r.rows).toEqual([['1', 'a'], ['2', 'b']]);
  });

  it('accepts a quoted last field ending in a lone CR at the end of the file', async () => {
    expect((await parse('a,b\r\n1,"x"\r')).rows).toEqual([['1', 'x']]);
  });

  it('keeps empty fields', async () => {
    expect((await parse('a,b,c\n,,\n')).rows).toEqual([['', '', '']]);
  });

  it('parses records that straddle read-chunk boundaries, quoted or not', async () => {
    const n = Math.ceil((INGEST.v.csv_chunk_bytes * 2.5) / 40);
    const lines = ['id,text,n'];
    for (let i = 0; i < n; i++) lines.push(i % 3 === 0 ? `${i},"q,""${i}""\nz",${i * 2}` : `${i},plain${i},${i * 2}`);
    const r = await parse(lines.join('\r\n'));
    const expected = Array.from({ length: n }, (_, i) => [String(i), i % 3 === 0 ? `q,"${i}"\nz` : `plain${i}`, String(i * 2)]);
    expect(r.rows).toEqual(expected);
  });

  it('rejects an unterminated quote with its row and line', async () => {
    await expect(parse('a,b\n1,x\n2,"open\n')).rejects.toMatchObject({ constructor: CsvSyntaxError, pos: { row: 2, line: 3 } });
  });

  it('rejects text after a closing quote', async () => {
    await expect(parse('a,b\n1,"x"y\n')).rejects.toThrow(/after a closing quote/);
  });
});
