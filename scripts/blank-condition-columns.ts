// Makes a generated raw folder look like a real export for condition: empties the synthetic condition columns of the
// sales files (Cook sale_condition, Lake CONDITION) and, with --flags, the CCAO char_renovation / char_repair_cnd
// flags (which the 2.x generator sets from the true condition, unlike the real 4-in-70 / 0-in-70 rates).
//   npx tsx scripts/blank-condition-columns.ts RAW_DIR [--flags]
// Generated files hold no quoted fields, so a line split is exact for them (checked: a quote refuses the file).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Empties `columns` (by header name) in every row of a generated CSV file; returns how many cells were emptied. */
export function blankCsvColumns(file: string, columns: readonly string[]): number {
  const text = readFileSync(file, 'utf8');
  if (text.includes('"')) throw new Error(`${file}: quoted fields; this tool only rewrites generated files`);
  const lines = text.split('\n');
  const header = lines[0].split(',');
  const idx = columns.map((c) => header.indexOf(c)).filter((i) => i >= 0);
  let n = 0;
  for (let k = 1; k < lines.length; k++) {
    if (lines[k] === '') continue;
    const f = lines[k].split(',');
    for (const i of idx) if (f[i] !== '') { f[i] = ''; n++; }
    lines[k] = f.join(',');
  }
  writeFileSync(file, lines.join('\n'));
  return n;
}

/** Blanks the condition columns of a raw folder (and the CCAO flags when `flags`). */
export function blankConditionColumns(rawDir: string, flags: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  const todo: Array<[string, string[]]> = [['ccao_parcel_sales.csv', ['sale_condition']], ['lake_gis_sales.csv', ['CONDITION']]];
  if (flags) todo.push(['ccao_res_characteristics.csv', ['char_renovation', 'char_repair_cnd']]);
  for (const [file, cols] of todo) if (existsSync(join(rawDir, file))) out[file] = blankCsvColumns(join(rawDir, file), cols);
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [rawDir, ...rest] = process.argv.slice(2);
  if (!rawDir) { process.stderr.write('usage: tsx scripts/blank-condition-columns.ts RAW_DIR [--flags]\n'); process.exit(1); }
  process.stdout.write(`${JSON.stringify(blankConditionColumns(rawDir, rest.includes('--flags')))}\n`);
}
