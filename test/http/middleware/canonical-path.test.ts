// The one path spelling: canonicalPath's rules, and every served path declared in that spelling (else it could never
// be reached once the guard refuses non-canonical requests).
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/contracts/operations.js';
import { canonicalPath } from '../../../src/http/middleware/canonical-path.js';

describe('canonicalPath(raw)', () => {
  it.each([
    ['/api/underwrite', '/api/underwrite'],
    ['/', '/'],
    ['/API/Underwrite', '/api/underwrite'],
    ['/api/underwrite/', '/api/underwrite'],
    ['//api///underwrite//', '/api/underwrite'],
    ['/api/%75nderwrite', '/api/underwrite'],
    ['/api%2Funderwrite', '/api/underwrite'],
    ['/api/./underwrite', '/api/underwrite'],
    ['/api/%2e/underwrite', '/api/underwrite'],
    ['/api/x/../underwrite', '/api/underwrite'],
    ['/../../api/underwrite', '/api/underwrite'],
    ['/api/underwrite/.', '/api/underwrite'],
    ['/mcp/..', '/'],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalPath(raw)).toBe(canonical);
  });

  it('is null for a malformed percent-escape', () => {
    expect(canonicalPath('/api/%zz')).toBeNull();
    expect(canonicalPath('/api/%E0%A4%A')).toBeNull();
  });

  it('every REST path of OPERATIONS and /mcp is declared canonical', () => {
    for (const path of ['/mcp', ...OPERATIONS.flatMap((o) => (o.rest ? [o.rest.path] : []))]) expect(canonicalPath(path), path).toBe(path);
  });
});
