// The OpenAPI examples (data/openapi-examples.json, written by scripts/openapi-examples.ts from a real service run)
// still match the operations' output schemas, so a contract change that outdates them fails here: re-run the script.
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/contracts/error-body.js';
import { recordedExample } from '../../src/app/openapi-examples.js';
import { RING_MIN_POSITIONS } from '../../src/contracts/geo.js';
import { EXAMPLE_ARRAY_ITEMS } from '../../src/contracts/openapi-examples.js';
import { OPERATIONS } from '../../src/contracts/operations.js';

const recorded = OPERATIONS.filter((op) => op.rest && recordedExample(op.id));

describe('recorded OpenAPI examples', () => {
  it('cover the JSON operations (documents over the size cap aside)', () => {
    expect(recorded.map((o) => o.id)).toEqual(expect.arrayContaining(['health', 'tracts', 'listings', 'underwrite_rest', 'property', 'state', 'deals', 'run_listings',
      'tract_shapes', 'neighborhood_shapes', 'township_shapes', 'my_keys', 'create_my_key', 'rotate_my_key', 'revoke_my_key', 'my_key_audit']));
  });

  it.each(recorded.map((o) => [o.id, o] as const))('%s: the recorded body parses with its output schema, at its documented status', (_id, op) => {
    const rec = recordedExample(op.id)!;
    expect(rec.status).toBe(op.rest!.status);
    const parsed = op.output.safeParse(rec.body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true);
  });

  it('the error example is a real error body, and arrays were cut to the stated length', () => {
    expect(ErrorBodySchema.parse(recordedExample('error_body')!.body).error.code).toBe('validation_failed');
    // Lists are cut to EXAMPLE_ARRAY_ITEMS; lists of numbers (positions, bboxes) are whole and polygon rings keep
    // RING_MIN_POSITIONS positions (trimExample), so those are the only longer arrays allowed.
    const isNumbers = (v: unknown[]): boolean => v.every((x) => typeof x === 'number');
    const overLong = (v: unknown, path: string): string[] => {
      if (Array.isArray(v)) {
        if (isNumbers(v)) return [];
        const cap = v.every((x) => Array.isArray(x) && isNumbers(x)) ? RING_MIN_POSITIONS : EXAMPLE_ARRAY_ITEMS;
        return [...(v.length > cap ? [`${path} has ${v.length}`] : []), ...v.flatMap((x, i) => overLong(x, `${path}[${i}]`))];
      }
      return v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => overLong(x, `${path}.${k}`)) : [];
    };
    for (const op of recorded) expect(overLong(recordedExample(op.id)!.body, op.id)).toEqual([]);
  });
});
