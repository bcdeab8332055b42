// Loader for HUD Small Area Fair Market Rents: gross rent (40th percentile) per ZIP and bedroom count.
import { HUD_SAFMR } from '../layouts.js';
import { invalidFile, parseInteger, parseZip, requireNumber } from './fields.js';
import { loadCsv, newStats, type FileStats, type ProgressFn } from './run.js';

export type SafmrRow = { zip: string; hud_area_code: string; area_name: string | null; rent_by_beds_usd: [number, number, number, number, number] };
export type SafmrTable = { fiscal_year: number | null; rows: Record<string, SafmrRow> };

const BED_COLUMNS = ['SAFMR 0BR', 'SAFMR 1BR', 'SAFMR 2BR', 'SAFMR 3BR', 'SAFMR 4BR'] as const;

export async function loadSafmr(path: string, onProgress?: ProgressFn): Promise<{ safmr: SafmrTable; stats: FileStats }> {
  const stats = newStats(HUD_SAFMR.file);
  const rows: Record<string, SafmrRow> = {};
  let fiscalYear: number | null = null;
  await loadCsv(path, HUD_SAFMR, stats, (cols) => {
    const ix = (k: string): number => cols.get(k)!;
    return (f, ref) => {
      const zip = parseZip(ref, 'ZIP Code', f[ix('ZIP Code')]);
      if (zip === '') throw invalidFile(ref.file, ref.pos, 'ZIP Code', 'ZIP is missing');
      if (rows[zip]) throw invalidFile(ref.file, ref.pos, 'ZIP Code', 'duplicate ZIP', zip);
      const rents = BED_COLUMNS.map((k) => {
        const v = requireNumber(ref, k, f[ix(k)], { money: true });
        if (v <= 0) throw invalidFile(ref.file, ref.pos, k, 'rent must be positive', f[ix(k)]);
        return v;
      }) as SafmrRow['rent_by_beds_usd'];
      const fy = ix('fiscal_year') < 0 ? NaN : parseInteger(ref, 'fiscal_year', f[ix('fiscal_year')]);
      if (!Number.isNaN(fy)) fiscalYear = Math.max(fiscalYear ?? fy, fy);
      const nameIdx = ix('HUD Metro Fair Market Rent Area Name');
      rows[zip] = { zip, hud_area_code: f[ix('HUD Area Code')].trim(), area_name: nameIdx < 0 ? null : f[nameIdx].trim() || null, rent_by_beds_usd: rents };
      stats.rowsKept++;
    };
  }, onProgress);
  return { safmr: { fiscal_year: fiscalYear, rows }, stats };
}
