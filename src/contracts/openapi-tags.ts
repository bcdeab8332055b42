// Tags of the OpenAPI document: operations grouped by what a caller comes for, decided by scope and path so an
// operation added later lands in a group without a list to update (unmatched public reads go to "Map and market").
import type { Operation } from './operations.js';

export const TAGS = [
  { name: 'Valuation', description: 'One property valued (display ladder, comps, risk) and underwritten; Cook and Lake County, IL, 1-4 units.' },
  { name: 'Map and market', description: 'Tracts with their location signals, active listings, and what the open web map draws.' },
  { name: 'Map sync', description: 'The event stream the write and UI-controller tools append to and the open web map follows.' },
  { name: 'Your records', description: 'The caller\'s own alert profiles, favorites, notes, presets and saved deals (any valid key).' },
  { name: 'Your keys', description: 'Your own API keys: create with chosen scopes, list, rotate, revoke, and their audit records (any valid key, presented directly).' },
  { name: 'Model and contracts', description: 'Health, the model registry and scorecard, the published contracts, this document and the tool catalog.' },
  { name: 'Operator', description: 'Operator-only routes (Bearer WRITE_SECRET).' },
] as const;
export type TagName = (typeof TAGS)[number]['name'];

const CONTRACT_PATHS = /^\/(api\/(health|openapi\.json|mcp-tools|model-registry|metrics\/|spec\/)|mcp\/|model$)/;

export function tagOf(op: Operation): TagName {
  const path = op.rest!.path;
  if (op.scope === 'operator') return 'Operator';
  if (path.startsWith('/api/me/keys') || path === '/keys') return 'Your keys';
  if (op.scope === 'private' || op.scope === 'write-state' || path.startsWith('/api/me/')) return 'Your records';
  if (op.rest!.produces === 'sse') return 'Map sync';
  if (CONTRACT_PATHS.test(path)) return 'Model and contracts';
  if (path === '/api/underwrite' || path === '/api/property') return 'Valuation';
  return 'Map and market';
}
