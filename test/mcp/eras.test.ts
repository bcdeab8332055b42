// Both protocol eras through one started service: the v2 SDK client at revision 2026-07-28 (stateless, no handshake)
// and the v1 SDK client at 2025-11-25 (initialize, the SDK's legacy lane) each list every tool and call every tool and
// alias, and each answer parses against the operation's output schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolEntries } from '../../src/contracts/operations.js';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, mcpClient, mintKey, modernMcpClient, MODERN_REVISION, startDoors } from './support.js';

type CallResult = { isError?: boolean; structuredContent?: unknown; content: unknown };
type EraClient = {
  listTools(): Promise<{ tools: Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }> }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
};

/** One valid call of every tool and alias (arguments as in test/mcp/tools.test.ts). */
const ONE_CALL_EACH: Record<string, Record<string, unknown>> = {
  search_investment_inventory: { strategy: 'flip', limit: 5 },
  search_deals: {},
  get_tract_report: {}, // geoid filled in from the corpus
  market_pulse: {},
  risk_report: { lat: 41.88, lon: -87.7, listing_units: 2 },
  get_comps: { lat: 41.88, lon: -87.7 },
  comps: { lat: 41.88, lon: -87.7 },
  deep_underwrite_asset: { lat: 41.88, lon: -87.7, units: 2 },
  underwrite: { lat: 41.88, lon: -87.7, units: 2, price: 250000, rehab: 20000 },
  save_favorite_property: { property_id: 'LST-1', payload: { why: 'corner lot' } },
  update_underwriting_preset: { name: 'conservative', assumptions: { down_pct: 0.25 } },
  add_note: { property_id: 'LST-1', body: 'roof looks new' },
  create_strategy_profile: { name: 'p', strategy: 'flip', min_percentile: 80, max_price: 300000, min_confidence: 40, bbox: [-87.8, 41.8, -87.6, 41.9], criteria: { telegram_chat_id: '4242' }, channels: { telegram: true } },
  update_map_filters: { strategy: 'hold', min_percentile: 50, statuses: ['active'] },
  fly_to_location: { lat: 41.88, lon: -87.63, zoom: 14 },
  highlight_properties: { ids: ['LST-1', 'LST-2'] },
};

let service: ServiceHandle;
let token: string;
beforeAll(async () => {
  service = await startDoors();
  token = (await mintKey(service, ['read', 'underwrite', 'write-state', 'webhooks'])).token;
  ONE_CALL_EACH.get_tract_report = { geoid: service.svc.store.tractList().tracts[0].geoid };
});
afterAll(async () => {
  await service?.close();
});

describe.each([
  ['v2 client at 2026-07-28 (modern lane)', async () => modernMcpClient(service, bearer(token)) as Promise<EraClient>],
  ['v1 client at 2025-11-25 (legacy lane)', async () => mcpClient(service, bearer(token)) as Promise<EraClient>],
] as const)('%s', (_era, connect) => {
  it('lists every tool and alias, then calls each one and gets an answer matching its output schema', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(toolEntries().map((t) => t.name));
      expect(Object.keys(ONE_CALL_EACH).sort()).toEqual(toolEntries().map((t) => t.name).sort());
      for (const t of toolEntries()) {
        const r = (await client.callTool({ name: t.name, arguments: ONE_CALL_EACH[t.name] })) as CallResult;
        expect(r.isError ?? false, `${t.name}: ${JSON.stringify(r.content).slice(0, 300)}`).toBe(false);
        expect(() => t.op.output.parse(r.structuredContent), t.name).not.toThrow();
      }
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('version negotiation', () => {
  it('a v2 client pinned to 2026-07-28 negotiates that revision; the v1 client gets 2025-11-25 without a session id', async () => {
    const modern = await modernMcpClient(service);
    expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN_REVISION);
    await modern.close();
    const legacy = await mcpClient(service);
    expect(legacy.getServerVersion()?.name).toBe('cook-lake-avm');
    expect((legacy.transport as { sessionId?: string } | undefined)?.sessionId).toBeUndefined();
    await legacy.close();
  });
});
