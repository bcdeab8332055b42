// GET /api/model-registry lists the Tier-2 hedonic_v1 coefficient sets written by `avm fit-hedonic`, with the one served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src/server.js';
import { runFitHedonic } from '../../src/valuation/hedonic/job.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';

let service: ServiceHandle;
let fittedVersion: string;

beforeAll(async () => {
  const dataDir = await smallCorpusDir();
  fittedVersion = (await runFitHedonic({ dataDir })).summary.version;
  service = await startService(testConfig(dataDir), { installSignalHandlers: false });
});
afterAll(async () => {
  await service?.close();
});

describe('GET /api/model-registry', () => {
  it('names the current hedonic_v1 version and lists its per-segment fit', async () => {
    const body = (await (await fetch(`${service.url}/api/model-registry`)).json()) as {
      hedonic_v1: { current: string | null; models: Array<{ version: string; segments: Array<{ segment: string; n: number }> }> };
    };
    expect(body.hedonic_v1.current).toBe(fittedVersion);
    const served = body.hedonic_v1.models.find((m) => m.version === fittedVersion);
    expect(served).toBeDefined();
    expect(served!.segments.length).toBeGreaterThan(0);
    for (const s of served!.segments) expect(s.n).toBeGreaterThan(0);
  });
});
