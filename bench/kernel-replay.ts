// The kernel's front-ends over a dump of bench/kernel-dump.ts, from JavaScript: per subject the bare kernel call
// (packed subject in, its record read in place: batchView, no rejection list) as the fastest of PASSES passes, on WASM
// and, when built, the native addon (AVM_REPLAY_NATIVE=0 skips it). The door's cost beside
// crates/avm-kernel/examples/replay.rs, which times the same queries in Rust alone. Usage:
//   npx tsx bench/kernel-replay.ts DUMP_DIR [WASM_FILE] [PASSES=5]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COLUMN_IDS, SUBJECT_LEN } from '../src/kernel/abi-layout.js';
import { createWasmKernel, type Kernel } from '../src/kernel/kernel.js';
import { createNativeKernel } from '../src/kernel/native-kernel.js';
import { nativeAddon } from '../src/kernel/select.js';
import type { ColumnName, KernelColumns, TimeIndexSeries } from '../src/kernel/types.js';
import type { WasmModule } from '../src/kernel/wasm.js';

const [dir, wasmFile, passesArg = '5'] = process.argv.slice(2);
if (!dir) throw new Error('usage: npx tsx bench/kernel-replay.ts DUMP_DIR [WASM_FILE] [PASSES]');
const bytes = (name: string): ArrayBuffer => {
  const b = readFileSync(join(dir, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};
const columns = Object.fromEntries(
  (Object.keys(COLUMN_IDS) as ColumnName[]).map((name) => [name, new COLUMN_IDS[name].type(bytes(`col${COLUMN_IDS[name].id}.bin`))]),
) as unknown as KernelColumns;
const ti = new Float64Array(bytes('ti.bin'));
const timeIndex: TimeIndexSeries[] = [];
for (let k = 0; k < ti.length; ) {
  const n = ti[k + 1];
  timeIndex.push({ county: ti[k], months: Int32Array.from(ti.subarray(k + 2, k + 2 + n)), levels: ti.slice(k + 2 + n, k + 2 + 2 * n) });
  k += 2 + 2 * n;
}
const WA = (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => WasmModule } }).WebAssembly;
const module = wasmFile ? new WA.Module(readFileSync(wasmFile)) : undefined;
const subjects = new Float64Array(bytes('subjects.bin'));
const n = subjects.length / SUBJECT_LEN;
const one = Array.from({ length: n }, (_, i) => subjects.subarray(i * SUBJECT_LEN, (i + 1) * SUBJECT_LEN));

function time(label: string, kernel: Kernel): void {
  const best = new Float64Array(n).fill(Infinity);
  for (let pass = 0; pass < Number(passesArg); pass++) {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      kernel.batchView(one[i]);
      const dt = performance.now() - t0;
      if (dt < best[i]) best[i] = dt;
    }
  }
  best.sort();
  const at = (q: number): string => (best[Math.floor(q * n)] * 1000).toFixed(2);
  process.stdout.write(`${label} bare call, fastest of ${passesArg}: median_us ${at(0.5)} p99_us ${at(0.99)} mean_us ${((best.reduce((a, b) => a + b, 0) / n) * 1000).toFixed(2)}\n`);
}

time('wasm', createWasmKernel(columns, timeIndex, { module }));
const addon = process.env.AVM_REPLAY_NATIVE === '0' ? null : nativeAddon();
if (addon) time('native', createNativeKernel(addon, columns, timeIndex));
