// Dumps the kernel's inputs for a stored corpus, for crates/avm-kernel/examples/replay.rs (native replay: perf
// profiles, and a byte compare of every output before and after a kernel change). Usage:
//   npx tsx bench/kernel-dump.ts DATA_DIR OUT_DIR [SUBJECTS=20000]
// OUT_DIR gets col<id>.bin (raw columns in avm_column_ptr order), params.bin (the param slots), deed.bin and
// groups.bin (deed class and condition group per code), ti.bin (per county: county, n, months…, levels…, as f64)
// and subjects.bin (SUBJECT_LEN f64 per subject, drawn as score-all draws them: bench/county-subjects.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COLUMN_IDS } from '../src/kernel/abi-layout.js';
import { encodeSubjects } from '../src/kernel/decode.js';
import { conditionGroups, deedClassTable, kernelParams, paramSlots } from '../src/kernel/params.js';
import type { ColumnName } from '../src/kernel/types.js';
import { openStore } from '../src/store/store.js';
import { kernelColumnsOf } from '../src/valuation/comps/kernel-columns.js';
import { buildValuationContext } from '../src/valuation/value-context.js';
import { countySubjects } from './county-subjects.js';

const [dataDir, outDir, n = '20000'] = process.argv.slice(2);
if (!dataDir || !outDir) throw new Error('usage: npx tsx bench/kernel-dump.ts DATA_DIR OUT_DIR [SUBJECTS]');
mkdirSync(outDir, { recursive: true });
const write = (name: string, a: ArrayBufferView): void => writeFileSync(join(outDir, name), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
const store = openStore(dataDir);
try {
  const ctx = buildValuationContext(store, { hooks: {} });
  const cols = kernelColumnsOf(ctx.sales);
  for (const name of Object.keys(COLUMN_IDS) as ColumnName[]) write(`col${COLUMN_IDS[name].id}.bin`, cols[name]);
  write('params.bin', paramSlots(kernelParams()));
  write('deed.bin', Uint8Array.from(deedClassTable()));
  const groups = Uint8Array.from({ length: 256 }, (_, code) => code);
  for (const [code, group] of conditionGroups()) groups[code] = group;
  write('groups.bin', groups);
  write('ti.bin', Float64Array.from(ctx.timeIndex.series.flatMap((s) => [s.county, s.months.length, ...s.months, ...s.levels])));
  const cases = countySubjects(ctx, Number(n));
  const packed = new Float64Array(cases.flatMap((c) => Array.from(encodeSubjects([c.subject], c.opts))));
  write('subjects.bin', packed);
  process.stdout.write(`${cols.lat.length} sales, ${cases.length} subjects -> ${outDir}\n`);
} finally {
  await store.close();
}
