// POST /keys: every action of the owner's keys page (sign in = list, create, rotate, revoke), as an HTML form post.
// The form token is checked first (CSRF: a foreign Origin, a missing cookie or a token not made for it is 403
// csrf_rejected), then the owner's key from the form is verified like a Bearer header, then the action runs through
// src/auth/owner-keys.ts (the API's rules) and the page is rendered again with the outcome. The call is audited under
// the owner's key (ctx.state.caller), as `keys_page_<action>`.
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Caller } from '../auth/authorize.js';
import type { FormTokens } from '../auth/form-token.js';
import { ownerKeys } from '../auth/owner-keys.js';
import type { DoorServices } from '../app/door-services.js';
import { issueKeysPageToken, KEYS_CSRF_COOKIE, KEYS_FORM_PATH, KEYS_PAGE_HEADERS, renderKeysPage, type KeysPageView } from '../app/keys-page.js';
import { CreateKeyInputSchema, KeyIdInputSchema } from '../contracts/my-keys.js';
import { AppError, isAppError } from '../errors/app-error.js';
import { readFormBody } from './body.js';
import { validationError } from './errors.js';
import { callerOf } from './middleware/auth.js';

/** A page form is a token, a key, an action, up to five scopes and a label: 4 KiB holds it many times over. */
const KEYS_FORM_MAX_BYTES = 4_096;
const ACTIONS = ['list', 'create', 'rotate', 'revoke'] as const;
type Action = (typeof ACTIONS)[number];
/** Audit records of the page, at most: the page is a glance, the API pages further. */
const PAGE_AUDIT_RECORDS = 50;

function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error, 'body');
  return r.data;
}

type Deps = { doors: DoorServices; tokens: FormTokens; origin: () => string; now: () => number };

export function registerKeysPageRoute(router: Router, deps: Deps): void {
  const owner = ownerKeys({ keys: deps.doors.keys, audit: deps.doors.audit, now: deps.now });
  router.post(KEYS_FORM_PATH, async (ctx: Context) => {
    const origin = ctx.get('origin');
    const form = await readFormBody(ctx, KEYS_FORM_MAX_BYTES);
    if ((origin && origin !== deps.origin()) || !deps.tokens.check(ctx.cookies.get(KEYS_CSRF_COOKIE), form.get('csrf'))) {
      throw new AppError('csrf_rejected', 'the form was not submitted from this service\'s keys page (reload the page and try again)');
    }
    const action = (ACTIONS as readonly string[]).includes(form.get('action') ?? '') ? (form.get('action') as Action) : null;
    ctx.state.operationId = `keys_page_${action ?? 'unknown'}`;
    const fresh = issueKeysPageToken(deps.tokens, deps.origin());
    const view: KeysPageView = { csrf: fresh.token };
    const answer = (status: number): void => {
      ctx.status = status;
      ctx.set({ ...KEYS_PAGE_HEADERS, 'Set-Cookie': fresh.cookie });
      ctx.body = renderKeysPage(view);
    };
    if (!action) throw new AppError('validation_failed', `action must be one of ${ACTIONS.join(', ')}`);
    const ownerKey = form.get('owner_key') ?? '';
    const verdict = await deps.doors.keys.verifyBearer(`Bearer ${ownerKey}`);
    if (!verdict.ok) {
      view.problem = 'That is not an active API key. Enter one of your keys.';
      return answer(401);
    }
    const caller: Caller = { kind: 'key', key: verdict.key, ip: callerOf(ctx).ip };
    ctx.state.caller = caller;
    let status = 200;
    try {
      // the API's schemas, so the page accepts exactly what the API accepts (an empty label field is no label)
      if (action === 'create') view.issued = await owner.create(caller, parsed(CreateKeyInputSchema, { scopes: form.getAll('scopes'), label: form.get('label') || undefined }));
      if (action === 'rotate') view.issued = await owner.rotate(caller, parsed(KeyIdInputSchema, { key_id: form.get('key_id') }).key_id);
      if (action === 'revoke') view.notice = `Key ${(await owner.revoke(caller, parsed(KeyIdInputSchema, { key_id: form.get('key_id') }).key_id)).key.id} is revoked.`;
    } catch (e) {
      if (!isAppError(e)) throw e;
      view.problem = e.message;
      status = e.status;
    }
    const presenter = await deps.doors.keys.getKey(verdict.key.id);
    if (!presenter || presenter.revoked_at) {
      // the owner rotated or revoked the very key they signed in with: sign in again (with the new one, if rotated)
      view.notice = `${view.notice ?? ''} The key you signed in with no longer works; sign in with another.`.trim();
      return answer(status);
    }
    view.signedIn = { ownerKey, presenterScopes: presenter.scopes, ...(await owner.list(caller)), audit: await owner.audit(caller, { limit: PAGE_AUDIT_RECORDS }) };
    answer(status === 200 && view.issued ? 201 : status);
  });
}
