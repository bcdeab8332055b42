// The perfect-comps bound of the accuracy bench on the small corpus: the serving Tier-1 code fed every comp's true
// value and condition errs less against the truth than the model fed sale prices, on the same sales, and both lines
// and the oracle count the same sales.
import { describe, expect, it } from 'vitest';
import { accuracyBound } from '../../bench/accuracy-bound.js';
import { openStore } from '../../src/store/store.js';
import { salesColumnsFromArrow } from '../../src/store/sales-columns.js';
import { smallCorpusDir } from '../support/corpus.js';

describe('accuracyBound', () => {
  it('perfect comps beat the served model against the truth, on the same sales, and the oracle is exact', async () => {
    const dir = await smallCorpusDir();
    const store = openStore(dir);
    try {
      const b = await accuracyBound(dir, salesColumnsFromArrow(store.readSalesSnapshot().table));
      expect(b).not.toBeNull();
      expect(b!.model.n).toBeGreaterThan(30);
      expect(b!.perfect_comps.n).toBe(b!.model.n);
      expect(b!.oracle.n).toBe(b!.model.n);
      expect(b!.oracle.vs_true_mdape).toBe(0);
      expect(b!.perfect_comps.vs_true_mdape!).toBeLessThan(b!.model.vs_true_mdape!);
      expect(b!.perfect_comps_over_oracle!).toBeGreaterThan(1);
    } finally {
      await store.close();
    }
  }, 120_000);
});
