// inputsHash / canonicalJson: unchanged by key order, changed by each listed input (a rejected candidate's field
// included), stable across processes; the v2 canonical bytes match the documented form written out by hand.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalBytes } from '../../src/valuation/canonical/bytes.js';
import { canonicalJson } from '../../src/valuation/canonical/json.js';
import { HASH_DOMAIN, inputsDocument, inputsHash, rejectedByReason, type InputsHashParts } from '../../src/valuation/inputs-hash.js';
import { hashParts, subject } from '../contracts/support/valuation-fixtures.js';

const parts = (): InputsHashParts => ({ ...hashParts(), subject: subject('cook') });

/** Parts whose evidence holds record arrays shaped as a valuation's (comps, rejections, flip pairs). */
function withRecords(): InputsHashParts {
  const comp = (pin: string, similarity: number) => ({ pin, price: 310000, indexed_price: 315123.4567, index_factor: 1.0165, sale_date: '2026-01-02', dist_mi: 0.21, sqft: 1400, beds: 3, condition: 'renovated', condition_prob: null, similarity });
  return {
    ...parts(),
    evidence: {
      comps: [comp('16011140230001', 0.8123), comp('16011140230002', 0.7456)],
      rejected: rejectedByReason([{ row: 101, reason: 'quitclaim_deed' }, { row: 205, reason: 'gla_band' }, { row: 330, reason: 'gla_band' }]),
      timeIndex: { q: '2026Q1', factor: 1.02 },
      flipPairs: [{ pin: '16011140237777', buy_date: '2025-01-01', buy_price: 150000, sell_date: '2025-09-01', sell_price: 290000, days_held: 243, uplift_pct: 93.33333333333333 }],
    },
  };
}

/** Rebuilds a value with every object's keys in reverse insertion order. */
function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
  return v;
}

describe('canonicalJson', () => {
  it('sorts keys recursively, keeps array order, drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: undefined, b: 'x' } })).toBe('{"a":{"b":"x","d":[3,1]},"b":1}');
  });

  it('writes numbers in shortest round-trip form and -0 as 0', () => {
    expect(canonicalJson([0.1, 1e21, -0, 5e-7, 100])).toBe('[0.1,1e+21,0,5e-7,100]');
  });

  it('NFC-normalizes strings so composed and decomposed é hash alike', () => {
    expect(canonicalJson({ s: 'Cafe\u0301' })).toBe(canonicalJson({ s: 'Caf\u00e9' }));
  });

  it.each([
    ['NaN', { x: Number.NaN }],
    ['Infinity', { x: Number.POSITIVE_INFINITY }],
    ['undefined in an array', [1, undefined]],
    ['a Date', { d: new Date(0) }],
    ['a Map', { m: new Map() }],
    ['a bigint', { n: 1n }],
  ])('refuses %s rather than coercing it', (_label, v) => {
    expect(() => canonicalJson(v)).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });
});

describe('inputsHash', () => {
  it('is a SHA-256 hex digest of the domain prefix and the canonical bytes of the listed members', () => {
    const p = parts();
    expect(HASH_DOMAIN).toBe('avm-inputs-hash/v3');
    const doc = { subject: p.subject, tract: p.tract, assumptions: p.assumptions, evidence: p.evidence, provenance: p.provenance, asset_slices: p.assetSlices, versions: p.versions };
    expect(inputsDocument(p)).toEqual(doc);
    const bytes = Buffer.from(canonicalBytes(doc));
    expect(inputsHash(p)).toBe(createHash('sha256').update(`${HASH_DOMAIN}\n`).update(bytes).digest('hex'));
    expect(inputsHash(p)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('digests the canonical bytes of the documented form (written out by hand from canonical/bytes.ts)', () => {
    // object of 3 members (u is undefined: dropped), keys sorted; a: array (not a table: its items are not objects);
    // é given decomposed, written NFC (c3 a9); b: -0 as +0; t: a table, keys x, y once, the second row lacking y (08),
    // its strings' lengths in the rows and their bytes (p, q) after them.
    const doc = { t: [{ y: 1, x: 'p' }, { x: 'q' }], u: undefined, b: -0, a: [true, null, 'e\u0301'] };
    const hex = [
      '06 03000000',
      '01000000 61', '05 03000000 02 00 04 02000000 c3a9',
      '01000000 62', '03 0000000000000000',
      '01000000 74', '07 02000000 02000000 01000000 78 01000000 79', '04 01000000 03 000000000000f03f', '04 01000000 08', '70 71',
    ].join('').replaceAll(' ', '');
    expect(Buffer.from(canonicalBytes(doc)).toString('hex')).toBe(hex);
  });

  it('is unchanged by key order at every level', () => {
    expect(inputsHash(reverseKeys(parts()) as InputsHashParts)).toBe(inputsHash(parts()));
  });

  it('ignores members that are not listed inputs (as_of, request ids)', () => {
    const extra = { ...parts(), asOf: '2026-11-22', requestId: 'r-1' } as InputsHashParts;
    expect(inputsHash(extra)).toBe(inputsHash(parts()));
  });

  const mutations: Array<[string, (p: InputsHashParts) => void]> = [
    ['subject identity (lat)', (p) => { p.subject.lat += 1e-6; }],
    ['subject identity (units)', (p) => { p.subject.units = 3; }],
    ['tract inputs', (p) => { p.tract = { geoid: '17031230200', segment: 'mf2_4_city' }; }],
    ['assumptions', (p) => { p.assumptions = { prop_type: 'mf2_4', owner_occupied: true }; }],
    ['comp evidence', (p) => { p.evidence.comps = [...p.evidence.comps].reverse(); }],
    ['rejected-comp evidence', (p) => { p.evidence.rejected = {}; }],
    ['a comp record\'s field', (p) => { (p.evidence.comps[0] as { similarity: number }).similarity += 1e-12; }],
    ['a rejected candidate\'s row', (p) => { p.evidence.rejected.gla_band[1] = 331; }],
    ['a rejected candidate\'s reason', (p) => { p.evidence.rejected = rejectedByReason([{ row: 101, reason: 'beds_band' }, { row: 205, reason: 'gla_band' }, { row: 330, reason: 'gla_band' }]); }],
    ['one more rejected candidate', (p) => { p.evidence.rejected.gla_band.push(331); }],
    ['a rejected candidate\'s row type (number → string)', (p) => { (p.evidence.rejected.quitclaim_deed as unknown[])[0] = '101'; }],
    ['the comp sales named by the rows (open-data digest)', (p) => { p.provenance = { ...(p.provenance as object), comp_sales_digest: 'ab12' }; }],
    ['a flip pair\'s uplift', (p) => { (p.evidence.flipPairs[0] as { uplift_pct: number }).uplift_pct += 1e-9; }],
    ['time index evidence', (p) => { p.evidence.timeIndex = { q: '2026Q1', factor: 1.021 }; }],
    ['flip-pair evidence', (p) => { p.evidence.flipPairs = [{ pin: 'x', uplift_pct: 40 }]; }],
    ['source provenance', (p) => { p.provenance = { snapshot: 'snap-2', source: 'corpus' }; }],
    ['asset slices', (p) => { p.assetSlices = { calibration: 'mf2_4_city@cal-test-2' }; }],
    ['model version', (p) => { p.versions = { ...p.versions, model: 'avm-test-2' }; }],
    ['registry version', (p) => { p.versions = { ...p.versions, registry: 'other' }; }],
  ];
  it.each(mutations)('changes when %s changes', (_label, mutate) => {
    const p = structuredClone(withRecords());
    mutate(p);
    expect(inputsHash(p)).not.toBe(inputsHash(withRecords()));
  });

  it('is unchanged by a record\'s key order, undefined members and -0 (the JSON value is what counts)', () => {
    const p = structuredClone(withRecords());
    p.evidence.rejected = reverseKeys(p.evidence.rejected) as never;
    p.evidence.comps = p.evidence.comps.map((r) => reverseKeys(r) as never);
    (p.evidence.comps[0] as Record<string, unknown>).note = undefined;
    const q = structuredClone(withRecords());
    (q.evidence.flipPairs[0] as { days_held: number }).days_held = 0;
    (p.evidence.flipPairs[0] as { days_held: number }).days_held = -0;
    expect(inputsHash(p)).toBe(inputsHash(q));
  });

  it('keeps the stored digests of the contract fixtures (a change to the canonical form must bump HASH_DOMAIN)', () => {
    // v3 (rejections as rows by reason), derived at the commit that introduced it: inputsHash({ ...hashParts(), subject })
    // for the fixtures of test/contracts/support/valuation-fixtures.ts, printed with node --import tsx. (v2 gave
    // cfa73250… and 84317da4… for their rejection written as a record, v1 e573096b… and ea1b512f….)
    expect(inputsHash({ ...hashParts(), subject: subject('cook') })).toBe('ed57f574ce36a3107a48ef611c1ee91288296427f1bd0f653323acebad56665e');
    expect(inputsHash({ ...hashParts(), subject: subject('lake') })).toBe('b1b57c68e9d2b45a433b28132527fab12aa828cf40e3c052cf3dc6387925b540');
  });

  it('names the rejected candidates by reason, each reason\'s rows in the kernel\'s order (ascending)', () => {
    const pairs = [{ row: 7, reason: 'gla_band' }, { row: 9, reason: 'quitclaim_deed' }, { row: 12, reason: 'gla_band' }, { row: 40, reason: 'beds_band' }];
    expect(rejectedByReason(pairs)).toEqual({ gla_band: [7, 12], quitclaim_deed: [9], beds_band: [40] });
    expect(rejectedByReason([])).toEqual({});
    const hashOf = (rejected: InputsHashParts['evidence']['rejected']) => {
      const p = structuredClone(withRecords());
      p.evidence.rejected = rejected;
      return inputsHash(p);
    };
    // The same pairs hash alike whatever order the reasons came in; a row moved to another reason does not.
    expect(hashOf(rejectedByReason(pairs))).toBe(hashOf(rejectedByReason([pairs[3], pairs[1], pairs[0], pairs[2]])));
    expect(hashOf(rejectedByReason(pairs))).not.toBe(hashOf(rejectedByReason(pairs.map((p) => (p.row === 12 ? { ...p, reason: 'beds_band' } : p)))));
  });

  it('is the same in a separate Node process (no per-process state)', () => {
    const here = inputsHash(parts());
    const script = `import { inputsHash } from './src/valuation/inputs-hash.ts'; process.stdout.write(inputsHash(JSON.parse(process.argv[1])));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(parts())], { cwd: process.cwd(), encoding: 'utf8' });
    expect(out).toBe(here);
  });
});
