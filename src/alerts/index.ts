// Public surface of alerts for the doors, the listings run and the CLI. Domain code only: no HTTP framework here.
import { deliverPending, type DeliveryContext, type DeliverySummary } from './delivery.js';
import { runDigest, type DigestResult, type DigestRun } from './digest.js';

export { guardProfileWebhook, createProfile, getProfile, profileByRef, writeProfile, listProfiles, listActiveProfiles, setProfileActive, publicProfile, parseProfileInput, requiredScopes, ProfileInputSchema } from './profile.js';
export type { ProfileInput, StoredProfile, PublicProfile } from './profile.js';
export { AlertPayloadSchema, buildAlertPayload, type AlertPayload, type ScoredRow, type ModelVersions } from './payload.js';
export { openAlertStore, type AlertStore } from './store.js';
export { runDigest, type DigestRun, type DigestResult } from './digest.js';
export { deliverAlert, deliverPending, resumeDelivery, deliveryContextFromConfig, type DeliveryContext, type AlertOutcome } from './delivery.js';
export { listAlerts, getAlert, type OutboxRecord } from './outbox.js';
export type { AlertOutbox } from './outbox-store.js';
export { listDeadLetters, replayDeadLetter, formatDeadLetters } from './cli.js';
export { verifyAlertSignature, signAlert } from './signature.js';
export { guardWebhookUrl } from './url-guard.js';

/** The listings run's hook: queue today's digests durably, then deliver the new alerts inline. */
export async function afterListingsRun(ctx: DeliveryContext, run: DigestRun): Promise<{ digest: DigestResult; delivery: DeliverySummary }> {
  // Replicas: the shared digest writes its records, dedupe marks and day marks in PostgreSQL (digest-pg.ts).
  const digest = await (ctx.digest ?? runDigest)(ctx.store, run);
  const delivery = await deliverPending(ctx, digest.alert_ids);
  return { digest, delivery };
}
