// Shutting the service down loses nothing the doors accepted: the audit's last in-memory batch is written (after the
// open MCP sessions are closed) before the store closes.
import { describe, expect, it } from 'vitest';
import { openStateBackend } from '../../src/store/backend.js';
import { openStore } from '../../src/store/store.js';
import { bearer, mcpClient, mintKey, startDoors } from '../mcp/support.js';

describe('service close()', () => {
  it('writes the audit batch still in memory (REST and MCP calls made just before close)', async () => {
    const service = await startDoors();
    const dataDir = service.svc.config.dataDir;
    const key = await mintKey(service, ['read']);
    for (let i = 0; i < 3; i++) expect((await fetch(`${service.url}/api/health`, { headers: bearer(key.token) })).status).toBe(200);
    const client = await mcpClient(service, bearer(key.token));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    // closed well inside audit_batch_ms of the calls: only the shutdown hook can have written them
    await service.close();
    // read back from the backend the service kept its audit in (LMDB under the data dir, or its PostgreSQL database)
    const store = openStore(dataDir);
    const backend = await openStateBackend(service.svc.config, store.env);
    try {
      const ops = (await backend.audit.auditFor(key.id)).map((r) => r.op);
      expect(ops.filter((op) => op === 'health')).toHaveLength(3);
      expect(ops).toContain('mcp');
    } finally {
      await backend.close();
      await store.close();
    }
    await client.close().catch(() => undefined);
  });
});
