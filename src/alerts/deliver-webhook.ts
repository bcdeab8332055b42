// One webhook attempt for an outbox record: re-check the URL (DNS rebinding), pin the vetted IP, sign afresh, POST.
// The secret is read from the stored profile at send time and never leaves this function except as an HMAC.
import { isAppError } from '../errors/app-error.js';
import { postOnce, type AttemptOutcome } from './http-attempt.js';
import type { OutboxRecord } from './outbox.js';
import { profileByRef } from './profile.js';
import { signAlert } from './signature.js';
import type { AlertStore } from './store.js';
import { guardWebhookUrl, type HostResolver } from './url-guard.js';

export type WebhookSendContext = {
  store: AlertStore;
  allowPrivate: boolean;
  resolver?: HostResolver;
  timeoutMs: number;
  nowMs: () => number;
};

export type SignedOutcome = AttemptOutcome & { signedAtSec: number | null };

export async function sendWebhookAttempt(ctx: WebhookSendContext, rec: OutboxRecord): Promise<SignedOutcome> {
  const hook = (await profileByRef(ctx.store, rec.profile_id))?.channels.webhook;
  if (!hook) return { ok: false, status: null, diagnostic: 'profile_or_webhook_removed', permanent: true, signedAtSec: null };
  let guarded;
  try {
    guarded = await guardWebhookUrl(hook.url, { allowPrivate: ctx.allowPrivate, resolver: ctx.resolver });
  } catch (e) {
    const why = isAppError(e) ? `${e.code}: ${e.message}` : `url_check_failed: ${String(e)}`;
    return { ok: false, status: null, diagnostic: why, signedAtSec: null };
  }
  // Signed as late as possible so the receiver's 300 s window starts at the send, not at enqueue time.
  const signedAtSec = Math.floor(ctx.nowMs() / 1000);
  const headers = { ...signAlert(rec.body, hook.secret, signedAtSec, rec.id), 'user-agent': 'cook-lake-avm-alerts/1' };
  const outcome = await postOnce({ url: guarded.url, headers, body: rec.body, timeoutMs: ctx.timeoutMs, pinned: guarded.addresses[0] });
  return { ...outcome, signedAtSec };
}
