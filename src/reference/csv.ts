// Minimal RFC 4180 CSV reading and writing for the reference tables (quoted fields, doubled quotes, CRLF or LF).
// Deliberately tiny: the reference files are small and simple; no type inference happens here.

/** Parses CSV text into an array of records keyed by the header row. Throws on a row with the wrong field count. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows = parseRows(text);
  if (rows.length === 0) return [];
  const header = rows[0];
  const out: Record<string, string>[] = [];
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r];
    if (row.length === 1 && row[0] === '') continue;
    if (row.length !== header.length) throw new Error(`csv row ${r + 1}: ${row.length} fields, header has ${header.length}`);
    const rec: Record<string, string> = {};
    header.forEach((h, i) => (rec[h] = row[i]));
    out.push(rec);
  }
  return out;
}

function parseRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') { field += '"'; i++; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(field); rows.push(row); row = []; field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}

function quote(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Serialises rows under the given header, LF line endings, trailing newline. */
export function formatCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>): string {
  const lines = [header.map(quote).join(',')];
  for (const r of rows) lines.push(r.map((v) => quote(v === null ? '' : String(v))).join(','));
  return lines.join('\n') + '\n';
}

/** Number rounded to `decimals` places, printed without trailing zeros; '' for null/NaN/non-finite. */
export function fmtNum(x: number | null | undefined, decimals: number): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '';
  const s = String(Number(x.toFixed(decimals)));
  return s === '-0' ? '0' : s;
}
