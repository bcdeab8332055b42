// The shared-backend commands refuse, in one line and exit 1, what an operator must fix before they can run: a missing
// AVM_DATABASE_URL or AVM_SNAPSHOT_DIR, an object-store URL (an extension point, not implemented), --limit with
// --distributed, a database that cannot be reached (its URL, which may hold a password, never printed). No PostgreSQL
// needed.
import { describe, expect, it } from 'vitest';
import { linesOf, runCli } from '../support/cli.js';

const unset = { AVM_DATABASE_URL: undefined, AVM_SNAPSHOT_DIR: undefined } as unknown as Record<string, string>;

describe('avm worker / score-all --distributed / publish-snapshot without their settings', () => {
  it.each([
    [['worker'], {}, /^avm: invalid environment: worker needs AVM_DATABASE_URL and AVM_SNAPSHOT_DIR /],
    [['publish-snapshot'], { AVM_DATABASE_URL: 'postgres://127.0.0.1:1/x' }, /^avm: invalid environment: publish-snapshot needs AVM_SNAPSHOT_DIR /],
    [['score-all', '--distributed'], { AVM_SNAPSHOT_DIR: '/tmp' }, /^avm: invalid environment: score-all --distributed needs AVM_DATABASE_URL /],
    [['ingest', '--publish', '--raw', '/nonexistent'], { AVM_DATABASE_URL: 'postgres://127.0.0.1:1/x' }, /^avm: invalid environment: ingest --publish needs AVM_SNAPSHOT_DIR /],
    [['worker'], { AVM_SNAPSHOT_DIR: 's3://bucket/snapshots' }, /^avm: invalid environment: AVM_SNAPSHOT_DIR: object-store URLs are a documented extension point/],
    [['score-all', '--distributed', '--limit', '5'], {}, /^avm: validation_failed: --limit and --distributed do not combine/],
    [['worker'], { AVM_DATABASE_URL: 'postgres://avm:secret@127.0.0.1:1/x', AVM_SNAPSHOT_DIR: '/tmp' }, /^avm: invalid environment: AVM_DATABASE_URL: cannot connect \(.*ECONNREFUSED/],
  ])('%j %j: one line, exit 1', async (args, env, line) => {
    const run = await runCli(args, { ...unset, ...env });
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([expect.stringMatching(line)]);
    expect(run.stderr).not.toContain('secret');
  });
});
