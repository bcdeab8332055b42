// The suite's backend lane (test/support/pg-lane.ts) really moves state: on `npm run test:pg` a service started the way
// every test starts one keeps its keys in PostgreSQL — in its data dir's database, where `avm keys` over the same data
// dir finds them — and nothing in the LMDB env; on `npm test` the same calls stay in LMDB. A lane that silently fell
// back to LMDB would make the PostgreSQL run a second LMDB run; this file fails then.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startService, type ServiceHandle } from '../../../src/server.js';
import { runCli } from '../../support/cli.js';
import { smallCorpusDir, testConfig } from '../../support/corpus.js';
import { mintKey, OPERATOR_SECRET } from '../../mcp/support.js';
import { openPgPool } from '../../../src/store/pg/pool.js';
import { laneDatabaseUrl } from '../../support/pg-lane.js';

const onPg = inject('pgLaneUrl') !== '';

describe(`the test lane (${onPg ? 'postgresql' : 'lmdb'})`, () => {
  let dataDir: string;
  let service: ServiceHandle;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'avm-lane-'));
    cpSync(await smallCorpusDir(), dataDir, { recursive: true });
    service = await startService(testConfig(dataDir, { WRITE_SECRET: OPERATOR_SECRET }), { installSignalHandlers: false });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('the service opens the backend the lane names', () => {
    expect(service.svc.backend!.kind).toBe(onPg ? 'postgres' : 'lmdb');
    expect(service.svc.backend!.pool === null).toBe(!onPg);
  });

  it('a key minted through the service is where the lane keeps state, and `avm keys list` over the data dir lists it', async () => {
    const { id } = await mintKey(service, ['read'], 120);
    const listed = await runCli(['keys', 'list', '--data-dir', dataDir]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(id);
    if (onPg) {
      const pool = openPgPool(laneDatabaseUrl(dataDir)!, { max: 1 });
      try {
        const { rows } = await pool.query('SELECT count(*)::int AS n FROM api_keys WHERE id = $1', [id]);
        expect(rows[0].n).toBe(1);
      } finally {
        await pool.end();
      }
    }
  });

  it('two data dirs never share a lane database', () => {
    const other = laneDatabaseUrl(mkdtempSync(join(tmpdir(), 'avm-lane-other-')));
    expect(other === null).toBe(!onPg);
    if (onPg) expect(other).not.toBe(laneDatabaseUrl(dataDir));
  });
});
