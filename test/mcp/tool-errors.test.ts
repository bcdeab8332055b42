// Errors and refusals name only parameters the tool takes, and a bad input is the taxonomy's validation_failed (the
// one error body with a request id), never the SDK's plain text. Found: risk_report, which takes listing_units and no
// property_id, answered "give property_id, address, or both lat and lon" and refused an unknown unit count with
// "pass units"; an unknown key came back as "Input validation error: ... Unrecognized key" without a code.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '../../src/contracts/manifest.js';
import { toolEntries } from '../../src/contracts/operations.js';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, mcpClient, mintKey, startDoors } from './support.js';

let service: ServiceHandle;
let client: Client;

beforeAll(async () => {
  service = await startDoors();
  client = await mcpClient(service, bearer((await mintKey(service, ['read', 'underwrite', 'write-state', 'webhooks'])).token));
});
afterAll(async () => {
  await client?.close();
  await service?.close();
});

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text?: string }> };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;
const paramsOf = (tool: string): string[] => Object.keys((toJson(toolEntries().find((t) => t.name === tool)!.op.input, 'input').properties ?? {}) as object);

/** Parameter names of any tool that a message could mention: snake_case ones and the short subject/unit names. */
const ALL_PARAMS = new Set(toolEntries().flatMap((t) => paramsOf(t.name)));
const MENTIONABLE = [...ALL_PARAMS].filter((p) => p.includes('_') || ['units', 'lat', 'lon', 'address', 'geoid', 'ids'].includes(p));
/** Parameters a message names that the tool does not take (an "Unrecognized key" echoing what the caller sent is fine). */
function foreignParams(tool: string, message: string, sent: Record<string, unknown> = {}): string[] {
  const own = new Set([...paramsOf(tool), ...Object.keys(sent)]);
  return MENTIONABLE.filter((p) => !own.has(p) && new RegExp(`\\b${p}\\b`).test(message));
}

/** The messages a result carries to the caller: an error body's message, or a refusal's. */
function messagesOf(r: Result): string[] {
  const text = r.content[0]?.text ?? '';
  if (r.isError) return [text.startsWith('{') ? (JSON.parse(text) as { error: { message: string } }).error.message : text];
  const s = r.structuredContent ?? {};
  return [s.refusal, s.valuation_refusal].filter((x): x is { message: string } => !!x && typeof x === 'object').map((x) => x.message);
}

function errorBody(r: Result): { code: string; message: string; request_id: string } {
  expect(r.isError, JSON.stringify(r.content)).toBe(true);
  return (JSON.parse(r.content[0]?.text ?? '') as { error: { code: string; message: string; request_id: string } }).error;
}

describe('risk_report', () => {
  it('refuses a missing subject naming only address and lat/lon, with validation_failed', async () => {
    const e = errorBody(await call('risk_report', { lat: 41.88 }));
    expect(e.code).toBe('validation_failed');
    expect(e.message).toMatch(/address, or both lat and lon/);
    expect(foreignParams('risk_report', e.message)).toEqual([]);
  });

  it('refuses keys it does not take (units, prop_type) with validation_failed naming the key', async () => {
    for (const key of ['units', 'prop_type']) {
      const e = errorBody(await call('risk_report', { lat: 41.88, lon: -87.7, [key]: key === 'units' ? 2 : 'sfh' }));
      expect(e.code).toBe('validation_failed');
      expect(e.message).toContain(key);
      expect(e.request_id).not.toBe('');
    }
  });

  it('answers an unknown unit count with a refusal that asks for listing_units, the parameter it takes', async () => {
    const r = await call('risk_report', { lat: 41.88, lon: -87.7 });
    expect(r.isError ?? false).toBe(false);
    const refusal = r.structuredContent?.valuation_refusal as { code: string; message: string };
    expect(refusal.code).toBe('units_required');
    expect(refusal.message).toMatch(/\blisting_units\b/);
    expect(foreignParams('risk_report', refusal.message)).toEqual([]);
  });
});

describe('every tool', () => {
  it('answers an empty call, an unknown key and a wrong type with messages naming only its own parameters', async () => {
    const offenders: string[] = [];
    for (const { name } of toolEntries()) {
      const firstParam = paramsOf(name)[0];
      const probes: Array<Record<string, unknown>> = [{}, { not_a_parameter: 1 }, ...(firstParam ? [{ [firstParam]: { wrong: 'type' } }] : []), { lat: 1, lon: 1 }];
      for (const args of probes) {
        const r = await call(name, args);
        if (r.isError) {
          const text = r.content[0]?.text ?? '';
          if (!text.startsWith('{')) offenders.push(`${name} ${JSON.stringify(args)}: not the error body: ${text}`);
        }
        for (const m of messagesOf(r)) for (const p of foreignParams(name, m, args)) offenders.push(`${name} ${JSON.stringify(args)}: names ${p}: ${m}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
