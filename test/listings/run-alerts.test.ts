// runListingsOnce → afterListingsRun: after the rows are stored, matching point-actionable rows reach an alert
// profile's webhook (a real loopback receiver); range-only rows never do.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProfile, openAlertStore, type DeliveryContext } from '../../src/alerts/index.js';
import { runListingsOnce } from '../../src/listings/run.js';
import { openStore } from '../../src/store/store.js';
import { startReceiver } from '../alerts/support.js';
import { listing, pointScore, rangeScore, scriptedScorer } from './support.js';

describe('runListingsOnce alerts hook', () => {
  it('delivers the run’s matching point rows to a webhook profile, and no range-only row', async () => {
    const store = openStore(mkdtempSync(join(tmpdir(), 'avm-listings-alerts-')));
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200 }));
    try {
      const alertStore = openAlertStore(store.env);
      await createProfile(alertStore, {
        name: 'flips', strategy: 'flip', min_percentile: 0, max_price: 1_000_000, min_confidence: 0, bbox: [-88, 41.5, -87.5, 42.5],
        channels: { webhook: { url: receiver.url, secret: 'a-test-secret-of-enough-length-000' } },
      }, { ownerId: 'tester', allowPrivate: true });
      await store.putListings([listing('L1'), listing('L2')]);
      const scorer = scriptedScorer((id) => (id === 'L1' ? pointScore(id, { flip: 0.6 }) : rangeScore(id)));
      const ctx: DeliveryContext = { store: alertStore, allowPrivate: true, telegram: { baseUrl: 'http://127.0.0.1:9', botToken: null } };
      const r = await runListingsOnce({ store, scorer, kind: 'daily', alerts: ctx, now: () => new Date('2026-11-21T13:00:00.000Z') });
      expect(r.alerts?.digest.alert_ids).toHaveLength(1);
      expect(receiver.received).toHaveLength(1);
      const body = JSON.parse(receiver.received[0].body) as { matches: Array<{ listing_id: string; score_snapshot: { flip: number } }> };
      expect(body.matches.map((m) => m.listing_id)).toEqual(['L1']);
      expect(body.matches[0].score_snapshot.flip).toBe(50); // the lone scored flip row: mid-rank 100·(0 + 1/2)/1
    } finally {
      await receiver.close();
      await store.close();
    }
  });
});
