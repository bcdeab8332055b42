// The fault suite's writers: one MCP client per key, each sending write tools one at a time (mixed kinds, ids shared
// across writers so owners collide on purpose) until stopped or the service dies. Every attempt goes in the ledger,
// acknowledged only when the tool answered without error.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tokenOf, type Attempt, type WriteKind } from './ledger.js';

/** Ids shared by every writer: two owners writing the same favorite, preset or profile id must not meet. */
const SHARED_IDS = 4;
const KINDS: readonly WriteKind[] = ['note', 'favorite', 'preset', 'profile'];

function argsOf(kind: WriteKind, id: string, token: string): Record<string, unknown> {
  switch (kind) {
    case 'note':
      return { property_id: 'LST-FAULT', body: token };
    case 'favorite':
      return { property_id: id, payload: { t: token } };
    case 'preset':
      return { id, name: token, assumptions: { rate: 7 } };
    case 'profile':
      return { id, name: token, strategy: 'flip', min_percentile: 80, max_price: 300_000, min_confidence: 40, bbox: [-87.9, 41.7, -87.5, 42], criteria: { telegram_chat_id: '4242' }, channels: { telegram: true } };
  }
}

const TOOL: Record<WriteKind, string> = { note: 'add_note', favorite: 'save_favorite_property', preset: 'update_underwriting_preset', profile: 'create_strategy_profile' };

export type Writer = { index: number; token: string; next: number };

/** Runs `writer` against `url` until `stop()` is true or a call fails (the service died); appends to `ledger`. */
export async function runWriter(url: string, writer: Writer, ledger: Attempt[], stop: () => boolean): Promise<void> {
  const client = new Client({ name: `fault-writer-${writer.index}`, version: '0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${writer.token}` } } });
  try {
    await client.connect(transport);
  } catch {
    return; // killed before this writer connected
  }
  try {
    while (!stop()) {
      const version = writer.next++;
      const kind = KINDS[version % KINDS.length];
      const token = tokenOf(writer.index, version);
      const id = kind === 'note' ? token : `${kind}-${Math.floor(version / KINDS.length) % SHARED_IDS}`;
      const attempt: Attempt = { writer: writer.index, kind, id, version, acked: false };
      ledger.push(attempt);
      try {
        const r = await client.callTool({ name: TOOL[kind], arguments: argsOf(kind, id, token) });
        if (r.isError) throw new Error(`${TOOL[kind]} refused: ${JSON.stringify(r.content).slice(0, 300)}`);
        attempt.acked = true;
      } catch (e) {
        if ((e as Error).message.includes('refused')) throw e; // a refusal is a bug of the suite, not a fault
        return; // the service died mid-call: this attempt stays unacknowledged
      }
    }
  } finally {
    await Promise.race([client.close().catch(() => undefined), new Promise((r) => setTimeout(r, 1_000))]);
  }
}
