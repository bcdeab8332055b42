// The owner's self-serve key operations (issue 16 item 2): thin calls into src/auth/owner-keys.ts, which holds every
// rule (ownership as 404, no escalation, OAuth keys revocable only). The keys page calls the same functions.
import type { CreateKeyInput, KeyAuditQuery, KeyIdInput } from '../contracts/my-keys.js';
import { ownerKeys } from '../auth/owner-keys.js';
import type { ServiceContext } from './context.js';
import type { DoorServices } from './door-services.js';
import { Reply } from '../contracts/reply.js';
import { issueKeysPageToken, KEYS_PAGE_HEADERS, renderKeysPage } from './keys-page.js';
import type { CallContext } from './operations.js';

export function keyOperations(svc: ServiceContext, doors: DoorServices) {
  const owner = ownerKeys({ keys: doors.keys, audit: doors.audit, now: () => svc.now().getTime() });
  return {
    my_keys: async (_i: unknown, call: CallContext) => owner.list(call.caller),
    create_my_key: async (i: CreateKeyInput, call: CallContext) => owner.create(call.caller, i),
    rotate_my_key: async (i: KeyIdInput, call: CallContext) => owner.rotate(call.caller, i.key_id),
    revoke_my_key: async (i: KeyIdInput, call: CallContext) => owner.revoke(call.caller, i.key_id),
    my_key_audit: async (i: KeyAuditQuery, call: CallContext) => owner.audit(call.caller, i),
    /** The sign-in form with a fresh form token; POST /keys (src/http/keys-page-route.ts) does the rest. */
    keys_page: async () => {
      const { token, cookie } = issueKeysPageToken(doors.keysPageTokens, svc.config.publicUrl);
      return new Reply(renderKeysPage({ csrf: token }), 200, { ...KEYS_PAGE_HEADERS, 'Set-Cookie': cookie });
    },
  };
}
