// Views of a door's reused output memory, one object per record length: a single query's records are read without
// allocating on the JavaScript heap (a new view per call kept the young generation busy between kernel calls). Both
// front-ends (kernel.ts over WASM memory, native-kernel.ts over its bound buffer) read their records through it.

/** Records up to this many slots (a single query's, rejections included) get a kept view; longer ones a fresh one. */
const KEPT_VIEW_MAX_SLOTS = 4096;

/**
 * `view(memory, at, len)`: memory[at, at + len) as the same Float64Array object each time the memory, the start and
 * the length repeat. A view is valid until the next call, as the records it shows are.
 */
export function recordViews(): (memory: Float64Array, at: number, len: number) => Float64Array {
  let base: Float64Array | null = null;
  let from = -1;
  let views: Float64Array[] = [];
  return (memory, at, len) => {
    if (len > KEPT_VIEW_MAX_SLOTS) return memory.subarray(at, at + len);
    if (memory !== base || at !== from) [base, from, views] = [memory, at, []];
    return (views[len] ??= memory.subarray(at, at + len));
  };
}
