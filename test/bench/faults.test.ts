// The kill -9 fault suite in small (bench/faults/suite.ts; `npm run bench -- faults` runs 100 kills): the compiled
// service is killed with SIGKILL 3 times under writes from 3 keys, then every acknowledged write is read back. And its
// integrity case (bench/faults/integrity.ts) as the bench runs it.
import { describe, expect, it } from 'vitest';
import { runIntegrityFault } from '../../bench/faults/integrity.js';
import { verifyWriter, type Attempt } from '../../bench/faults/ledger.js';
import { runFaultSuite } from '../../bench/faults/suite.js';
import { smallCorpusDir } from '../support/corpus.js';

describe('runFaultSuite({ kills: 3, writers: 3 })', () => {
  it('loses, duplicates and shows to another owner none of the acknowledged writes', async () => {
    const r = await runFaultSuite({ kills: 3, writers: 3 });
    expect(r.acknowledged_writes).toBeGreaterThan(30); // the service did accept writes between the kills
    expect({ lost: r.lost, duplicated: r.duplicated, visible_to_another_owner: r.visible_to_another_owner, examples: r.examples }).toEqual({
      lost: 0, duplicated: 0, visible_to_another_owner: 0, examples: { lost: [], duplicated: [], foreign: [] },
    });
    expect(r.deals_checked).toBeGreaterThan(0);
  }, 180_000);
});

describe('runIntegrityFault({ dataDir })', () => {
  it('a store that fails verification is refused: garbled → health 503 and valuations snapshot_unverified; truncated → one line, non-zero exit', async () => {
    const r = await runIntegrityFault({ dataDir: await smallCorpusDir() });
    expect(r.garbled).toMatchObject({ health_status: 503, health_ok: false, underwrite_status: 503, underwrite_code: 'snapshot_unverified', verify_exit: 1 });
    expect(r.garbled.verify_failures.join('\n')).toMatch(/fails verification/);
    expect(r.truncated).toEqual({ serve_exit: 1, serve_signal: null, stderr_lines: [expect.stringMatching(/^avm: store_damaged: .*data\.mdb is truncated/)] });
    expect(r.refused).toBe(true);
  }, 120_000);
});

describe('verifyWriter(writer, owner, items, attempts)', () => {
  const attempts: Attempt[] = [
    { writer: 0, kind: 'note', id: 'w0v0', version: 0, acked: true },
    { writer: 0, kind: 'favorite', id: 'favorite-0', version: 1, acked: true },
    { writer: 0, kind: 'favorite', id: 'favorite-0', version: 5, acked: true },
    { writer: 0, kind: 'preset', id: 'preset-0', version: 2, acked: false },
  ];
  const note = { kind: 'note', id: 'n1', record: { body: 'w0v0', owner_id: 'key:a' } };
  const fav = (v: number, owner = 'key:a', w = 0) => ({ kind: 'favorite', id: 'p:favorite-0', record: { payload: { t: `w${w}v${v}` }, owner_id: owner } });

  it('passes a read-back holding every acknowledged write once (an unacknowledged one may be absent)', () => {
    expect(verifyWriter(0, 'key:a', [note, fav(5)], attempts)).toMatchObject({ acked: 3, unacked: 1, lost: [], stale: [], duplicated: [], foreign: [] });
  });

  it('counts a missing note, an older version, a duplicate and another owner\'s record', () => {
    const v = verifyWriter(0, 'key:a', [fav(1), fav(1), { ...fav(9, 'key:b', 1), id: 'p:other' }], attempts);
    expect(v.lost).toEqual(['note w0v0']);
    expect(v.stale).toEqual(['favorite/p:favorite-0 holds v1, v5 was acknowledged']);
    expect(v.duplicated).toEqual(['favorite/p:favorite-0']);
    expect(v.foreign).toHaveLength(1);
  });
});
