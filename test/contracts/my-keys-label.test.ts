// The key label's published JSON Schema (OpenAPI) and the service's own check agree: a label the document allows is
// accepted and one it refuses is refused (Schemathesis sent "\f": minLength 1 allowed it, the trimmed min(1) did not).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CreateKeyInputSchema } from '../../src/contracts/my-keys.js';

const published = z.toJSONSchema(CreateKeyInputSchema, { io: 'input' }) as unknown as { properties: { label: { pattern?: string; minLength?: number; maxLength?: number } } };

/** The label's JSON Schema as a client reads it: ECMA-262 pattern (unanchored, as JSON Schema applies it) and lengths in code points. */
function documentAllows(label: string): boolean {
  const s = published.properties.label;
  const len = [...label].length;
  return (s.pattern === undefined || new RegExp(s.pattern, 'u').test(label)) && len >= (s.minLength ?? 0) && len <= (s.maxLength ?? Infinity);
}

const serviceAccepts = (label: string): boolean => CreateKeyInputSchema.safeParse({ scopes: ['read'], label }).success;

describe('key label: the document and the service agree', () => {
  const trimmedAway = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
  const cases = [
    ...trimmedAway, trimmedAway.join(''), '\f\f', ' \u3000 ',
    'a', ' laptop ', '\flaptop', '\u001c', '\u0085', '\u200b', 'é', '🔑', 'x'.repeat(100), 'x'.repeat(101), ` ${'x'.repeat(99)}`, ` ${'x'.repeat(100)}`,
  ];
  it.each(cases.map((c) => [JSON.stringify(c), c]))('%s', (_name, label) => {
    expect(documentAllows(label), 'the document and the service disagree').toBe(serviceAccepts(label));
  });

  it('refuses white space alone (each character String#trim removes) and accepts a label with a visible character', () => {
    for (const w of trimmedAway) expect(serviceAccepts(w), JSON.stringify(w)).toBe(false);
    expect(serviceAccepts(' laptop ')).toBe(true);
    expect(CreateKeyInputSchema.parse({ scopes: ['read'], label: ' laptop ' }).label).toBe('laptop');
  });
});
