// The authorization server's state across replicas (PostgreSQL): two replicas' stores on one database agree on the
// secrets (cookies and consent tokens signed by one verify on the other), see each other's records (a client registered
// and a code issued on A are found and consumed on B, once), and each other's grant-to-key bindings.
import { describe, expect, it } from 'vitest';
import { backendFactory, skipBackend } from '../contract/backends.js';

describe.skipIf(skipBackend('postgres'))('OAuth state across replicas (PostgreSQL)', () => {
  const factory = backendFactory('postgres');

  it('shares secrets, records, single use and bindings between two replicas', async () => {
    const a = await factory.open();
    const b = await factory.openAgain(a.url!);
    const [sa, sb] = await Promise.all([a.backend.oauth.secrets(), b.backend.oauth.secrets()]);
    expect(sb).toEqual(sa);
    const onA = a.backend.oauth.adapterFactory();
    const onB = b.backend.oauth.adapterFactory();
    await onA('Client').upsert('client-a', { client_id: 'client-a', redirect_uris: ['http://127.0.0.1:9/cb'] }, undefined as unknown as number);
    await onA('AuthorizationCode').upsert('code-a', { grantId: 'g-a', accountId: 'owner' }, 60);
    expect(await onB('Client').find('client-a')).toMatchObject({ client_id: 'client-a' });
    const outcomes = await Promise.allSettled([onA('AuthorizationCode').consume('code-a'), onB('AuthorizationCode').consume('code-a')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    await a.backend.oauth.bindGrantToKey('g-a', 'bbbbbbbbbbbb');
    expect(await b.backend.oauth.keyOfGrant('g-a')).toBe('bbbbbbbbbbbb');
    await onB('AccessToken').revokeByGrantId('g-a');
    expect(await onA('AuthorizationCode').find('code-a')).toBeUndefined();
  });
});
