// The page's frame and its plain-text pieces: tables and sections whose every cell is escaped here, the inline style
// sheet (no external fonts, scripts or styles: the page is one self-contained file the service can also serve).
import { escapeHtml, el } from './svg.js';

/** A fraction as a percentage with one decimal, or a dash. */
export const pctOr = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
/** A number with `d` decimals, or a dash. */
export const numOr = (x: number | null | undefined, d = 3): string => (x === null || x === undefined ? '—' : x.toFixed(d));

/** A table of plain-text cells (escaped here); the first cell of a row is its header, the rest right-aligned. */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>, caption?: string): string {
  // All-blank headers (a two-column fact list) leave the head out.
  const head = headers.some((h) => h !== '') ? el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', {}, escapeHtml(h))))) : '';
  const body = rows.map((r) => el('tr', {}, ...r.map((c, i) => el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : {}, escapeHtml(String(c))))));
  // Wrapped so a wide table scrolls inside the page instead of widening it.
  return el('div', { class: 'scroll' }, el('table', {}, ...(caption ? [el('caption', {}, escapeHtml(caption))] : []), head, el('tbody', {}, ...body)));
}

/** A paragraph of plain text. */
export const para = (s: string, cls?: string): string => el('p', cls ? { class: cls } : {}, escapeHtml(s));

/** A section with an id (for the table of contents), a heading and built content. */
export const section = (id: string, heading: string, ...content: string[]): string => el('section', { id }, el('h2', {}, escapeHtml(heading)), ...content);

/** What a section says when the report holds nothing for it. */
export const empty = (s: string): string => para(s, 'empty');

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2329;margin:0 auto;max-width:1100px;padding:24px 32px 64px;box-sizing:border-box;background:#fff}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:36px 0 8px;border-bottom:1px solid #d5dbe1;padding-bottom:4px}h3{font-size:15px;margin:20px 0 6px}
p{max-width:860px}.empty{color:#7a4b00;background:#fff6e0;padding:6px 10px;border-left:3px solid #e0a100}
.lead{color:#4a5560}.scroll{max-width:100%;overflow-x:auto}nav a{margin-right:14px}
table{border-collapse:collapse;margin:8px 0 16px;font-variant-numeric:tabular-nums}caption{text-align:left;font-weight:600;padding:4px 0}
th,td{padding:3px 8px;font-size:13px;border-bottom:1px solid #e4e8ec;text-align:right;white-space:nowrap}th[scope=row],thead th:first-child{text-align:left}
thead th{background:#f3f5f7;font-weight:600}
.pass{color:#176a2c;font-weight:600}.fail{color:#b3261e;font-weight:600}
.grid2{display:flex;flex-wrap:wrap;gap:8px 20px}
svg.chart{max-width:100%;height:auto;font-size:11px;fill:#1d2329}
.axis line{stroke:#6b7680}.axis text{fill:#4a5560}.axis-title{font-size:12px;fill:#1d2329}.chart-title{font-weight:600;font-size:12px}
.grid{stroke:#eef1f4}.ideal{stroke:#9aa5b1;stroke-dasharray:4 4}.nominal{stroke:#6b7680;stroke-dasharray:3 3}
.target-band{fill:#e3f1e6}.bar{fill:#4c78a8}.est-1{fill:#b8860b}.est-2{fill:#9c6ade}
.bin-dot{fill:#4c78a8;fill-opacity:.75;stroke:#fff}.ci{stroke:#4c78a8;stroke-width:2}.key-dot{fill:#9aa5b1}
.cov-dot{fill:#4c78a8}.oracle-ring{fill:none;stroke:#b8860b;stroke-width:2}.note{fill:#4a5560;font-size:11px}
.share-valued,.share-point{fill:#4c78a8}.share-range{fill:#a9c1dc}.share-suppressed{fill:#d9822b}
.whisker{stroke:#6b7680}.q-bar{fill:#a9c1dc}.q-box{fill:#4c78a8}.q-median{stroke:#1d2329;stroke-width:2}
`;

/** The whole document around the sections. */
export function page(titleText: string, ...body: string[]): string {
  const head = el('head', {}, '<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">', el('title', {}, escapeHtml(titleText)), el('style', {}, STYLE));
  return `<!DOCTYPE html>\n${el('html', { lang: 'en' }, head, el('body', {}, ...body))}\n`;
}
