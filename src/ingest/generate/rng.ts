// Seeded pseudo-random numbers for the generator: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator)
// seeded through splitmix32, with one independent stream per stage so stages can change without reshuffling others.

/** splitmix32 step: spreads a seed over 32 bits (used only to seed sfc32). */
function splitmix32(state: number): [number, number] {
  const s = (state + 0x9e3779b9) | 0;
  let z = s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [s, (z ^ (z >>> 16)) >>> 0];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | null = null;

  /** `seed` is the corpus seed; `stream` names the stage (distinct streams give independent sequences). */
  constructor(seed: number, stream: string) {
    let s = (seed >>> 0) ^ 0x5eed;
    for (let i = 0; i < stream.length; i++) s = Math.imul(s ^ stream.charCodeAt(i), 0x01000193) >>> 0;
    const words: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [next, out] = splitmix32(s);
      s = next;
      words.push(out);
    }
    [this.a, this.b, this.c, this.d] = words;
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer uniform in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal by the polar Box-Muller method (caches the second variate). */
  normal(): number {
    if (this.spareNormal !== null) {
      const v = this.spareNormal;
      this.spareNormal = null;
      return v;
    }
    let u = 0, v = 0, s = 0;
    do {
      u = this.next() * 2 - 1;
      v = this.next() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * f;
    return u * f;
  }

  /** Index drawn with probability proportional to `weights` (non-negative, not all zero). */
  pickWeighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** Poisson variate by inversion (fine for the small means used here). */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }
}

/**
 * Splits `total` into integer shares proportional to `weights` (largest remainder, ties by index), each share at
 * least `minEach`. Deterministic: no randomness involved.
 */
export function apportion(total: number, weights: readonly number[], minEach = 0): number[] {
  const n = weights.length;
  const free = total - minEach * n;
  if (free < 0) throw new Error(`apportion: total ${total} below minimum ${minEach} x ${n}`);
  const sum = weights.reduce((s, w) => s + w, 0);
  const exact = weights.map((w) => (sum > 0 ? (free * w) / sum : free / n));
  const out = exact.map((x) => Math.floor(x) + minEach);
  let left = total - out.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((p, q) => q[0] - p[0] || p[1] - q[1]);
  for (let k = 0; left > 0; k = (k + 1) % n, left--) out[order[k][1]]++;
  return out;
}
