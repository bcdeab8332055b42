// The growable byte buffer the canonical encoding (bytes.ts) writes into, with its typed writes: tags, u32 counts,
// IEEE-754 doubles and length-prefixed strings, all little-endian. Hand-written: the encoding is ours, and a
// general-purpose serializer (CBOR, MessagePack) picks the width of each number from its value (a branch and a
// choice per number the canonical form does not need) and has no key-sorted record table.

/** Value tags of the canonical encoding (bytes.ts documents the form). */
export const TAG = { null: 0x00, false: 0x01, true: 0x02, number: 0x03, string: 0x04, array: 0x05, object: 0x06, table: 0x07, absent: 0x08 } as const;

/** One buffer per process (per thread), reused by every encoding: a valuation's document is 10–200 KB. */
export class ByteSink {
  bytes = Buffer.alloc(1 << 16);
  view = new DataView(this.bytes.buffer);
  pos = 0;

  /** Room for n more bytes. */
  reserve(n: number): void {
    if (this.pos + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.alloc(size);
    next.set(this.bytes.subarray(0, this.pos));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }

  tag(t: number): void {
    this.reserve(1);
    this.bytes[this.pos++] = t;
  }

  /** A count, u32 little-endian. */
  u32(n: number): void {
    this.reserve(4);
    this.view.setUint32(this.pos, n, true);
    this.pos += 4;
  }

  /** A number: its tag, then the IEEE-754 double little-endian, -0 written as 0. The caller has refused non-finite ones. */
  number(n: number): void {
    this.reserve(9);
    this.bytes[this.pos] = TAG.number;
    this.view.setFloat64(this.pos + 1, n === 0 ? 0 : n, true);
    this.pos += 9;
  }

  /**
   * A string without its tag (keys are written so): u32 byte length, then its text (below).
   */
  str(s: string): void {
    this.reserve(4);
    const at = this.pos;
    this.pos += 4;
    this.view.setUint32(at, this.text(s), true);
  }

  /**
   * The UTF-8 bytes of the NFC form of s, a lone surrogate written as its own 3-byte sequence (WTF-8), so two
   * different strings never write the same bytes; returns their count.
   */
  text(s: string): number {
    const n = s.length;
    this.reserve(3 * n);
    // Buffer#write (V8's UTF-8 writer) rather than a charCodeAt loop: measured in the valuation, the loop ran at
    // 8 ns per character once V8 had seen the document's other strings, the native write at ~30 ns per string.
    // An ASCII string is the only kind whose UTF-8 has exactly one byte per UTF-16 unit; any other takes nonAscii.
    if (this.bytes.write(s, this.pos, 'utf8') !== n) return this.nonAscii(s);
    this.pos += n;
    return n;
  }

  /** The bytes of an all-ASCII string, in one write; false (nothing written) when it holds any other character. */
  ascii(s: string): boolean {
    this.reserve(3 * s.length);
    if (this.bytes.write(s, this.pos, 'utf8') !== s.length) return false;
    this.pos += s.length;
    return true;
  }

  /** Appends bytes written elsewhere. */
  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  private nonAscii(s: string): number {
    const t = s.normalize('NFC');
    this.reserve(3 * t.length);
    const b = this.bytes;
    const at = this.pos;
    let p = at;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c < 0x80) b[p++] = c;
      else if (c < 0x800) {
        b[p++] = 0xc0 | (c >> 6);
        b[p++] = 0x80 | (c & 0x3f);
      } else {
        const d = i + 1 < t.length ? t.charCodeAt(i + 1) : 0;
        if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          b[p++] = 0xf0 | (cp >> 18);
          b[p++] = 0x80 | ((cp >> 12) & 0x3f);
          b[p++] = 0x80 | ((cp >> 6) & 0x3f);
          b[p++] = 0x80 | (cp & 0x3f);
          i++;
        } else {
          b[p++] = 0xe0 | (c >> 12);
          b[p++] = 0x80 | ((c >> 6) & 0x3f);
          b[p++] = 0x80 | (c & 0x3f);
        }
      }
    }
    this.pos = p;
    return p - at;
  }
}
