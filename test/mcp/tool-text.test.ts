// Tools an agent understands from their text alone, as the official MCP clients list them on both lanes (2025-11-25
// legacy, 2026-07-28 modern): a title, a description giving the county scope, every parameter described, annotations
// by kind, and server instructions carrying the disclosure (with the FCRA restriction) and the refusal rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_RULE } from '../../src/contracts/common.js';
import { toolEntries } from '../../src/contracts/operations.js';
import { DISCLOSURE } from '../../src/contracts/valuation.js';
import type { ServiceHandle } from '../../src/server.js';
import { mcpClient, modernMcpClient, startDoors } from './support.js';

type Listed = { name: string; title?: string; description?: string; inputSchema: { properties?: Record<string, { description?: string }> }; annotations?: Record<string, unknown> };

let service: ServiceHandle;
const lanes: Record<string, { tools: Listed[]; instructions: string | undefined }> = {};

beforeAll(async () => {
  service = await startDoors();
  const legacy = await mcpClient(service);
  lanes['2025-11-25'] = { tools: (await legacy.listTools()).tools as Listed[], instructions: legacy.getInstructions() };
  await legacy.close();
  const modern = await modernMcpClient(service);
  lanes['2026-07-28'] = { tools: (await modern.listTools()).tools as Listed[], instructions: modern.getInstructions() };
  await modern.close();
});
afterAll(async () => {
  await service?.close();
});

type JsonSchema = { properties?: Record<string, JsonSchema & { description?: string }>; anyOf?: JsonSchema[]; items?: unknown };
/** Paths of object properties without a description, walking nested objects, unions and array items. */
function undescribedIn(js: JsonSchema, path: string): string[] {
  const own = Object.entries(js.properties ?? {}).flatMap(([k, p]) => [...(p.description ? [] : [`${path}.${k}`]), ...undescribedIn(p, `${path}.${k}`)]);
  const inner = [...(js.anyOf ?? []), ...(js.items && typeof js.items === 'object' ? [js.items as JsonSchema] : [])].flatMap((s) => undescribedIn(s, path));
  return [...own, ...inner];
}

const WRITE = ['save_favorite_property', 'update_underwriting_preset', 'create_strategy_profile', 'add_note'];
const CONTROLLER = ['update_map_filters', 'fly_to_location', 'highlight_properties'];
const REFUSING = ['deep_underwrite_asset', 'underwrite', 'get_comps', 'comps', 'risk_report'];

describe.each(['2025-11-25', '2026-07-28'])('tools/list on the %s lane', (lane) => {
  it('lists every tool with a title and a description giving the county scope and the inputs', () => {
    const { tools } = lanes[lane];
    expect(tools.map((t) => t.name)).toEqual(toolEntries().map((t) => t.name));
    for (const t of tools) {
      expect(t.title, t.name).toMatch(/\S/);
      expect(t.description, t.name).toContain('Cook and Lake County, Illinois');
      expect(t.description, t.name).toContain('1-4 units');
    }
    for (const name of REFUSING) expect(tools.find((t) => t.name === name)!.description).toContain(REFUSAL_RULE);
    // A tool taking a property says which of property_id / address / lat+lon it takes, and no other.
    expect(tools.find((t) => t.name === 'deep_underwrite_asset')!.description).toContain('one of property_id, address, or lat with lon');
    expect(tools.find((t) => t.name === 'risk_report')!.description).toContain('by address, or lat with lon (no property_id)');
  });

  it('describes every parameter, nested keys included', () => {
    const undescribed = lanes[lane].tools.flatMap((t) => undescribedIn(t.inputSchema, t.name));
    expect(undescribed).toEqual([]);
  });

  it('annotates by kind: writes not destructive, the preset idempotent, controllers and writes not read-only', () => {
    const ann = (name: string) => lanes[lane].tools.find((t) => t.name === name)!.annotations ?? {};
    for (const n of WRITE) expect(ann(n), n).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(ann('update_underwriting_preset').idempotentHint).toBe(true);
    for (const n of CONTROLLER) expect(ann(n), n).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    for (const n of ['search_investment_inventory', 'get_comps', 'risk_report', 'market_pulse']) expect(ann(n), n).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });

  it('carries server instructions with the disclosure (FCRA included) and the refusal rule', () => {
    const text = lanes[lane].instructions ?? '';
    expect(text).toContain(DISCLOSURE);
    expect(text).toContain('(FCRA)');
    expect(text).toContain(REFUSAL_RULE);
    expect(text).toContain('Cook and Lake County');
  });
});
