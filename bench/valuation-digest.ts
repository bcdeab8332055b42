// Byte-identity check for performance work on the valuation path: values a stride of parcels of a corpus (as the
// valuation bench draws them, plus a few inputs that reach the other branches: owner-occupied, scope, as-of, stated
// condition) and prints one SHA-256 over every JSON.stringify(valueProperty(...)), with and without the sibling
// hooks. Run before and after a change; the digests must match. Each line also gives `sans_hash`: the same digest with
// every `inputs_hash` member left out, so a change of the hash's canonical form (HASH_DOMAIN) can show that everything
// else is byte-identical.
//   node dist/bench/valuation-digest.js <data dir> [subjects=2000]
import { createHash } from 'node:crypto';
import { openStore } from '../src/store/store.js';
import { buildValuationContext } from '../src/valuation/value-context.js';
import { valueProperty, type ValueInput } from '../src/valuation/value.js';
import { strideSubjects } from './valuation-subjects.js';

/** The bench's subjects; every 7th varies the caller's assumptions, another 7th states a condition (other branches). */
function subjects(store: ReturnType<typeof openStore>, n: number): ValueInput[] {
  return strideSubjects(store, n).map((base, k) => {
    if (k % 7 === 3) return { ...base, ownerOccupied: true, scope: 'cosmetic', asOf: '2026-06-15' };
    if (k % 7 === 5) return { ...base, condition: 'distressed', sqft: 1400, beds: 3 };
    return base;
  });
}

async function main(): Promise<void> {
  const [dir, nArg] = process.argv.slice(2);
  if (!dir) throw new Error('usage: valuation-digest <data dir> [subjects]');
  const store = openStore(dir);
  try {
    const ctx = buildValuationContext(store, { now: () => new Date('2026-11-02T12:00:00Z') });
    const cases = subjects(store, Number(nArg ?? 2000));
    for (const [label, c] of [['full', ctx], ['tier1_core', { ...ctx, hooks: {} }]] as const) {
      const h = createHash('sha256');
      const sansHash = createHash('sha256');
      let errors = 0;
      for (const s of cases) {
        let doc: string;
        let sans: string;
        try {
          const v = valueProperty(s, c);
          doc = JSON.stringify(v);
          sans = JSON.stringify(v, (key, value: unknown) => (key === 'inputs_hash' ? undefined : value));
        } catch (e) {
          errors++;
          doc = sans = `error:${(e as Error).message}`;
        }
        h.update(doc).update('\n');
        sansHash.update(sans).update('\n');
      }
      process.stdout.write(`${label} subjects=${cases.length} errors=${errors} sha256=${h.digest('hex')} sans_hash=${sansHash.digest('hex')}\n`);
    }
  } finally {
    await store.close();
  }
}

await main();
