// The oracle line of the backtest report: the synthetic generator's true value against the sale price, read from
// <dataDir>/truth/sales_truth.csv. This is the ONLY reader of that file, and only for that report line: nothing it
// returns reaches the calibration table, the registry or serving.
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { GROUND_TRUTH_DIR, GROUND_TRUTH_FILE } from '../../ingest/layouts.js';

/** Key of a sale in both the snapshot and the truth file. */
export const saleKey = (pin: string, isoDate: string, priceUsd: number): string => `${pin}|${isoDate}|${Math.round(priceUsd)}`;

/** true_value by saleKey for the wanted keys; null when the data dir has no truth file (a real corpus). */
export async function readOracleValues(dataDir: string, wanted: ReadonlySet<string>): Promise<Map<string, number> | null> {
  const file = join(dataDir, GROUND_TRUTH_DIR, GROUND_TRUTH_FILE);
  if (!existsSync(file)) return null;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const out = new Map<string, number>();
  let col: Record<string, number> | null = null;
  for await (const line of lines) {
    const f = line.split(',');
    if (col === null) {
      col = Object.fromEntries(f.map((name, i) => [name.trim(), i]));
      continue;
    }
    const key = saleKey(f[col.pin], f[col.sale_date], Number(f[col.sale_price]));
    if (wanted.has(key)) out.set(key, Number(f[col.true_value]));
  }
  return out;
}
