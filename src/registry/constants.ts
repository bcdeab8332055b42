// The constants registry: every hand-set number of the service, grouped, versioned, with owner, reason and source.
// Published as /api/spec/constants-registry.json. Add a group by importing it into ALL_GROUPS.
import { COMP_POLICY } from './groups/comp-policy.js';

export { COMP_POLICY };

export const ALL_GROUPS = [COMP_POLICY] as const;

export const REGISTRY_VERSION = ALL_GROUPS.map((g) => `${g.name}@${g.version}`).join(',');

/** The published document: groups with their entries (values, units, reasons, sources). */
export function constantsRegistryDocument(): { version: string; groups: Array<{ name: string; version: string; owner: string; entries: Record<string, unknown> }> } {
  return {
    version: REGISTRY_VERSION,
    groups: ALL_GROUPS.map((g) => ({ name: g.name, version: g.version, owner: g.owner, entries: g.entries })),
  };
}
