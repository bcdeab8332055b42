import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestAll } from '../../../src/ingest/ingest.js';
import { backtestRent } from '../../../src/valuation/economics/rent-backtest.js';
import { writeFixture } from '../../ingest/loaders/fixture-corpus.js';

describe('backtestRent', () => {
  const fx = writeFixture();
  afterAll(() => fx.cleanup());

  it('scores the as-is rent against the true rents of the last SAFMR year', async () => {
    await ingestAll({ dataDir: fx.dataDir });
    mkdirSync(join(fx.dataDir, 'truth'), { recursive: true });
    // Window = 365 days up to the latest truth sale (2021-03-01) → from 2020-03-02.
    //  - 17011010010000 sold 2021-03-01: parcel zip 60601, 3 beds (2020 chars), renovated at sale. SAFMR 3BR 2500 −
    //    allowance 175 = 2325 × renovated 1.0 = 2325 → true rent 2325 gives ratio 1, APE 0.
    //  - 17011010060000 sold 2020-08-08: no characteristics → condition unknown at sale → skipped (counted).
    //  - 17011010020000 sold 2020-01-15: before the window, ignored.
    writeFileSync(join(fx.dataDir, 'truth', 'sales_truth.csv'), [
      'row_id,county,pin,sale_date,sale_price,true_value,true_arv,true_rent,is_arms_length,defect,flip_role,condition,census_tract_geoid,units,property_type',
      'C1,cook,17011010010000,2021-03-01,300000,300000,300000,2325,0,quitclaim,,renovated,17031000100,1,sfh',
      'C2,cook,17011010060000,2020-08-08,5000,200000,250000,1500,0,price,,dated,17031000100,1,sfh',
      'C3,cook,17011010020000,2020-01-15,420000,420000,500000,4000,1,,,dated,17031000200,3,mf2_4',
    ].join('\n') + '\n');
    const bt = await backtestRent({ dataDir: fx.dataDir });
    expect(bt.window_from).toBe('2020-03-02');
    expect(bt.n_skipped).toBe(1);
    const all = bt.groups.find((g) => g.group === 'all')!;
    expect(all).toEqual({ group: 'all', n: 1, mdape: 0, ppe10: 1, median_ratio: 1, coverage: 1 });
    expect(bt.groups.map((g) => g.group)).toEqual(['all', 'sfh']);
  });
});
