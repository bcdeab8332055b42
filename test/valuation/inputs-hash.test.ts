// inputsHash / canonicalJson: unchanged by key order, changed by each listed input, stable across processes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_DOMAIN, canonicalJson, inputsHash, type InputsHashParts } from '../../src/valuation/inputs-hash.js';
import { hashParts, subject } from '../contracts/support/valuation-fixtures.js';

const parts = (): InputsHashParts => ({ ...hashParts(), subject: subject('cook') });

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
  it('is a SHA-256 hex digest of the domain prefix and the canonical parts', () => {
    const p = parts();
    const canonical = canonicalJson({ subject: p.subject, tract: p.tract, assumptions: p.assumptions, evidence: p.evidence, provenance: p.provenance, asset_slices: p.assetSlices, versions: p.versions });
    expect(inputsHash(p)).toBe(createHash('sha256').update(`${HASH_DOMAIN}\n${canonical}`).digest('hex'));
    expect(inputsHash(p)).toMatch(/^[0-9a-f]{64}$/);
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
    ['rejected-comp evidence', (p) => { p.evidence.rejected = []; }],
    ['time index evidence', (p) => { p.evidence.timeIndex = { q: '2026Q1', factor: 1.021 }; }],
    ['flip-pair evidence', (p) => { p.evidence.flipPairs = [{ pin: 'x', uplift_pct: 40 }]; }],
    ['source provenance', (p) => { p.provenance = { snapshot: 'snap-2', source: 'corpus' }; }],
    ['asset slices', (p) => { p.assetSlices = { calibration: 'mf2_4_city@cal-test-2' }; }],
    ['model version', (p) => { p.versions = { ...p.versions, model: 'avm-test-2' }; }],
    ['registry version', (p) => { p.versions = { ...p.versions, registry: 'other' }; }],
  ];
  it.each(mutations)('changes when %s changes', (_label, mutate) => {
    const p = structuredClone(parts());
    mutate(p);
    expect(inputsHash(p)).not.toBe(inputsHash(parts()));
  });

  it('matches a pinned digest computed outside Node (coreutils sha256sum of the hand-written canonical text)', () => {
    // printf 'avm-inputs-hash/v1\n{"asset_slices":null,"assumptions":{},"evidence":{"comps":["p1"],"flipPairs":[],"rejected":[],"timeIndex":null},"provenance":"corpus","subject":{"condition":null,...,"units_source":null},"tract":null,"versions":{"model":"m1","registry":"r1"}}' | sha256sum
    // (keys in UTF-16 order: asset_slices sorts before assumptions)
    const p: InputsHashParts = {
      subject: { key: 'k', lat: 41.5, lon: -87.5, tract_geoid: null, county: 'cook', price: null, price_source: null, units: null, units_source: null, property_type: null, condition: null, condition_source: 'unknown' },
      tract: null, assumptions: {}, evidence: { comps: ['p1'], rejected: [], timeIndex: null, flipPairs: [] }, provenance: 'corpus', assetSlices: null, versions: { model: 'm1', registry: 'r1' },
    };
    expect(inputsHash(p)).toBe('1478998d2b1b290b9d3edfb11e417c5108362a7311240a89c6e78ca7f9b71417');
  });

  it('keeps the stored digests of the contract fixtures (a change to the canonical form must bump HASH_DOMAIN)', () => {
    // Derived from the code at 890947e (before canonicalJson had other users): inputsHash({ ...hashParts(), subject })
    // for the fixtures of test/contracts/support/valuation-fixtures.ts, printed with node --import tsx.
    expect(inputsHash({ ...hashParts(), subject: subject('cook') })).toBe('e573096bb3d45e4f059b7cf128281a2d5ffbdb7a4fa6bf6e611874872342039f');
    expect(inputsHash({ ...hashParts(), subject: subject('lake') })).toBe('ea1b512fe8717ae8fac8136adce8294363cd2805ff10cf9d1b09bee5fba07374');
  });

  it('is the same in a separate Node process (no per-process state)', () => {
    const here = inputsHash(parts());
    const script = `import { inputsHash } from './src/valuation/inputs-hash.ts'; process.stdout.write(inputsHash(JSON.parse(process.argv[1])));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(parts())], { cwd: process.cwd(), encoding: 'utf8' });
    expect(out).toBe(here);
  });
});
