// artifactDigest: the champion's immutable digest (canonical JSON of model version, parameters and the table, SHA-256)
// stays what the registry stored for the same release.
import { describe, expect, it } from 'vitest';
import { artifactDigest } from '../../src/registry/model-registry.js';
import { COMP_POLICY } from '../../src/registry/groups/comp-policy.js';
import { FIXED_TABLE } from './fixed-table.js';

describe('artifactDigest(table, modelVersion, registryVersion)', () => {
  it('keeps the stored digest of a fixed table', () => {
    // Derived from the code at 890947e: artifactDigest(FIXED_TABLE, 'avm-test-1', 'registry-test-1') printed with
    // node --import tsx, comp policy 2.1.0. The digest covers the comp policy: a new policy version is a new release
    // (derive the literal again); the same policy with another digest means the canonical form changed.
    expect(COMP_POLICY.version, 'comp policy changed: derive the pinned digest again').toBe('2.1.0');
    expect(artifactDigest(FIXED_TABLE, 'avm-test-1', 'registry-test-1')).toBe('55a7a84e6f16718462c85aa41046f82d1541711753d78d036728594d63dd0517');
  });

  it('does not depend on the key order of the table', () => {
    const reversed = JSON.parse(JSON.stringify(FIXED_TABLE, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)));
    expect(artifactDigest(reversed, 'avm-test-1', 'registry-test-1')).toBe(artifactDigest(FIXED_TABLE, 'avm-test-1', 'registry-test-1'));
  });
});
