// The county corpus for the kernel bench: the service's own snapshot (AVM_BENCH_DATA_DIR, else generated and ingested
// at county scale by bench-corpus.ts), its sales as kernel columns with the time index the service builds, and
// subjects drawn as score-all draws them (bench/county-subjects.ts: parcel rows through the valuation's own subject
// path, ARV stratum, full ladder).
import type { BenchCorpusData } from './kernel.bench.js';
import { benchCorpus } from './bench-corpus.js';
import { countySubjects } from './county-subjects.js';
import { kernelColumnsOf } from '../src/valuation/comps/kernel-columns.js';
import { buildValuationContext } from '../src/valuation/value-context.js';
import { openStore } from '../src/store/store.js';

export const COUNTY_MIX = 'bench/county-subjects.ts: evenly spaced parcel rows resolved as score-all resolves them (resolveSubject, gates, tier1SubjectOf, kernelSubject), ARV stratum, full ladder, as-of today; blocked or unresolvable parcels skipped';

export async function loadCountyCorpus(dataDir: string | undefined): Promise<BenchCorpusData> {
  const corpus = await benchCorpus(dataDir, 'county');
  const store = openStore(corpus.dir);
  try {
    const ctx = buildValuationContext(store, { hooks: {} });
    return {
      columns: kernelColumnsOf(ctx.sales),
      timeIndex: ctx.timeIndex.series.slice(),
      cases: (n) => countySubjects(ctx, n).map(({ subject, opts }) => ({ subject, opts })),
      subjectMix: `${COUNTY_MIX}; corpus ${corpus.label}`,
      cleanup: async () => {
        await store.close();
        corpus.cleanup();
      },
    };
  } catch (e) {
    await store.close();
    corpus.cleanup();
    throw e;
  }
}
