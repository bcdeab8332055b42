import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyCommand, listKeysCommand, revokeKeyCommand, rotateKeyCommand } from '../../src/auth/cli.js';
import { openKeyStore } from '../../src/auth/keys.js';
import { openEnv } from '../../src/store/env.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('avm keys create|list|rotate|revoke', () => {
  it('prints the plaintext once on create and rotate, never on list; the printed key verifies', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'avm-cli-'));
    dirs.push(dataDir);
    const lines: string[] = [];
    const out = (l: string): void => void lines.push(l);
    const created = await createKeyCommand({ dataDir, scopes: 'read,write-state', rpm: 90, label: 'map', out });
    const plaintext = /API key \(shown once, store it now\): (\S+)/.exec(lines.join('\n'))![1];
    expect(created).toMatchObject({ scopes: ['read', 'write-state'], rpm_limit: 90, label: 'map' });

    lines.length = 0;
    await listKeysCommand({ dataDir, out });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(created.id);
    expect(lines[0]).not.toContain(plaintext.slice(17));

    const env = openEnv(dataDir);
    expect(openKeyStore(env).verifyBearer(`Bearer ${plaintext}`).ok).toBe(true);
    await env.close();

    lines.length = 0;
    const rotated = await rotateKeyCommand({ dataDir, id: created.id, out });
    expect(lines.join('\n')).toMatch(/shown once/);
    const revoked = await revokeKeyCommand({ dataDir, id: rotated.id, out });
    expect(revoked.revoked_at).not.toBeNull();
    const listed = await listKeysCommand({ dataDir, out: () => undefined });
    expect(listed.every((k) => k.revoked_at !== null)).toBe(true);
  });
});
