// A service over a store whose data.mdb had 256 KiB garbled in the middle (the snapshot's Arrow bytes no longer
// match the sha256 its ingest recorded): health is not ok and every valuation is refused with 503
// snapshot_unverified; nothing is computed from the damaged bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFileOf, garbleMiddle } from '../../bench/faults/damage.js';
import { HealthSchema } from '../../src/contracts/health.js';
import { ErrorBodySchema } from '../../src/http/errors.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { testConfig } from '../support/corpus.js';
import { cleanupCopies, copyOfSmallCorpus } from '../support/corpus-copy.js';

let service: ServiceHandle;

beforeAll(async () => {
  const dir = await copyOfSmallCorpus();
  garbleMiddle(dataFileOf(dir));
  service = await startService(testConfig(dir), { installSignalHandlers: false });
});
afterAll(async () => {
  await service?.close();
  cleanupCopies();
});

describe('GET /api/health over a garbled snapshot', () => {
  it('answers 503 with ok false and the sales_snapshot binding naming the failed verification', async () => {
    const res = await fetch(`${service.url}/api/health`);
    expect(res.status).toBe(503);
    const body = HealthSchema.parse(await res.json());
    expect(body.ok).toBe(false);
    expect(body.bindings.lmdb.ok).toBe(true);
    expect(body.bindings.sales_snapshot).toEqual({ ok: false, detail: expect.stringMatching(/^snapshot s-\d{6}-[0-9a-f]{12} fails verification: /) });
  });
});

describe('valuations over a garbled snapshot', () => {
  it('GET /api/underwrite is refused with 503 snapshot_unverified', async () => {
    const res = await fetch(`${service.url}/api/underwrite?lat=41.88&lon=-87.7&price=300000&units=2`);
    expect(res.status).toBe(503);
    const body = ErrorBodySchema.parse(await res.json());
    expect(body.error.code).toBe('snapshot_unverified');
    expect(body.error.message).toMatch(/fails verification/);
  });

  it('the tract list, read from the same snapshot, is refused too', async () => {
    const res = await fetch(`${service.url}/api/tracts/chicago`);
    expect(res.status).toBe(503);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('snapshot_unverified');
  });
});
