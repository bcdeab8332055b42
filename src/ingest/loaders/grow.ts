// Growable typed-array columns: loaders append one value per kept row without boxing a million JS objects.
// One class per element type on purpose: a single generic class makes every push site megamorphic (measured: the
// generic version was the top self-time entry of an ingest profile).

const INITIAL = 1024;

export class GrowF64 {
  private buf = new Float64Array(INITIAL);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) { const n = new Float64Array(this.length * 2); n.set(this.buf); this.buf = n; }
    this.buf[this.length++] = v;
  }
  get(i: number): number { return this.buf[i]; }
  view(): Float64Array { return this.buf.subarray(0, this.length); }
}

export class GrowI32 {
  private buf = new Int32Array(INITIAL);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) { const n = new Int32Array(this.length * 2); n.set(this.buf); this.buf = n; }
    this.buf[this.length++] = v;
  }
  get(i: number): number { return this.buf[i]; }
  view(): Int32Array { return this.buf.subarray(0, this.length); }
}

export class GrowI16 {
  private buf = new Int16Array(INITIAL);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) { const n = new Int16Array(this.length * 2); n.set(this.buf); this.buf = n; }
    this.buf[this.length++] = v;
  }
  get(i: number): number { return this.buf[i]; }
  view(): Int16Array { return this.buf.subarray(0, this.length); }
}

export class GrowI8 {
  private buf = new Int8Array(INITIAL);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) { const n = new Int8Array(this.length * 2); n.set(this.buf); this.buf = n; }
    this.buf[this.length++] = v;
  }
  get(i: number): number { return this.buf[i]; }
  view(): Int8Array { return this.buf.subarray(0, this.length); }
}

export class GrowU8 {
  private buf = new Uint8Array(INITIAL);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) { const n = new Uint8Array(this.length * 2); n.set(this.buf); this.buf = n; }
    this.buf[this.length++] = v;
  }
  get(i: number): number { return this.buf[i]; }
  view(): Uint8Array { return this.buf.subarray(0, this.length); }
}

export class GrowU32 {
  private buf = new Uint32Array(INITIAL);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) { const n = new Uint32Array(this.length * 2); n.set(this.buf); this.buf = n; }
    this.buf[this.length++] = v;
  }
  get(i: number): number { return this.buf[i]; }
  view(): Uint32Array { return this.buf.subarray(0, this.length); }
}

export class GrowU16 {
  private buf = new Uint16Array(INITIAL);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) { const n = new Uint16Array(this.length * 2); n.set(this.buf); this.buf = n; }
    this.buf[this.length++] = v;
  }
  get(i: number): number { return this.buf[i]; }
  view(): Uint16Array { return this.buf.subarray(0, this.length); }
}

export const f64 = (): GrowF64 => new GrowF64();
export const i32 = (): GrowI32 => new GrowI32();
export const i16 = (): GrowI16 => new GrowI16();
export const i8 = (): GrowI8 => new GrowI8();
export const u8 = (): GrowU8 => new GrowU8();
export const u16 = (): GrowU16 => new GrowU16();
export const u32 = (): GrowU32 => new GrowU32();
