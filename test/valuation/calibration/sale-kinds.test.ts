// Which value a sale is scored against: its TRUE condition when the data folder has ground truth (renovated/new →
// arv, distressed/dated → as_is), its snapshot condition when the truth file does not know it or there is none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isoOfDay } from '../../../src/store/days.js';
import { saleKinds } from '../../../src/valuation/calibration/all-sales-report.js';
import { salesOf } from '../tier1-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'avm-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Rows 0-3: snapshot says renovated, renovated, dated, distressed.
const sales = salesOf([
  { price: 300_000, cond: 'renovated' }, { price: 310_000, cond: 'renovated' }, { price: 200_000, cond: 'dated' }, { price: 150_000, cond: 'distressed' },
]);
const end = sales.saleDay[0] + 1;

describe('sale kinds', () => {
  it('follow the truth file: true dated → as_is although the snapshot says renovated; true new → arv; unknown rows fall back', async () => {
    mkdirSync(join(dir, 'truth'));
    const line = (row: number, cond: string) => `${sales.pin(row)},${isoOfDay(sales.saleDay[row])},${sales.priceUsd[row]},${sales.priceUsd[row]},${cond}`;
    writeFileSync(join(dir, 'truth', 'sales_truth.csv'), ['pin,sale_date,sale_price,true_value,condition', line(0, 'dated'), line(2, 'new'), line(3, 'distressed')].join('\n') + '\n');
    const k = await saleKinds(sales, dir);
    expect(k.source).toBe('truth');
    expect([0, 1, 2, 3].map(k.kindOf)).toEqual(['as_is', 'arv', 'arv', 'as_is']); // row 1: not in the truth file → snapshot
    expect(k.truthOfRow(0)?.trueValue).toBe(300_000);
  });

  it('without ground truth the snapshot condition decides', async () => {
    const k = await saleKinds(sales, null);
    expect(k.source).toBe('snapshot_condition');
    expect([0, 1, 2, 3].map(k.kindOf)).toEqual(['arv', 'arv', 'as_is', 'as_is']);
  });
});
