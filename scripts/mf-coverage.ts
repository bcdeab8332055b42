// Prints what 2-4-unit subjects get from the served display ladder (src/valuation/calibration/served-coverage.ts):
// `npx tsx scripts/mf-coverage.ts --data-dir DIR [--days N] [--json]` (default days: tier1.holdout_days / 2, the
// calibration test half).
import { TIER1 } from '../src/registry/groups/tier1.js';
import { openStore } from '../src/store/store.js';
import { multiFamilyCoverage } from '../src/valuation/calibration/served-coverage.js';
import { buildValuationContext } from '../src/valuation/value-context.js';

const args = process.argv.slice(2);
const opt = (name: string): string | null => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const dataDir = opt('--data-dir');
if (!dataDir) throw new Error('usage: mf-coverage.ts --data-dir DIR [--days N] [--json]');
const days = Number(opt('--days') ?? Math.round(TIER1.v.holdout_days / 2));

const store = openStore(dataDir);
const cov = multiFamilyCoverage(buildValuationContext(store), days);
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
if (args.includes('--json')) {
  console.log(JSON.stringify({ dataDir, ...cov }, null, 2));
} else {
  console.log(`2-4-unit arms-length sales ${cov.window.from} → ${cov.window.to}, calibration ${cov.calibration ?? 'none'}`);
  for (const g of cov.groups) {
    console.log(`\n${g.group}: n ${g.n}, Tier-1 or Tier-2 answer ${pct(g.answered)}`);
    console.log(`  outcomes: ${Object.entries(g.shares).map(([o, x]) => `${o} ${pct(x)}`).join(', ')}`);
    console.log(`  reasons:  ${Object.entries(g.reasons).map(([r, c]) => `${r} ${c}`).join(', ') || '—'}`);
    console.log(`  renovated sales: ${Object.entries(g.renovated).map(([o, m]) => `${o} n ${m.n} MdAPE ${pct(m.mdape)} cov80 ${m.cov80 === null ? '—' : pct(m.cov80)}`).join('; ') || '—'}`);
  }
}
store.close();
