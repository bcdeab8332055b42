// GET and POST /oauth/consent/<uid>: the consent step of an authorization request. GET renders the page; POST checks
// the form token (CSRF), then Deny ends the request with access_denied, and Approve checks the owner's API key, mints
// the client's key (read/underwrite, owned by that owner, stored hashed), records the grant and ends the request; the
// browser is sent back to the authorization endpoint, which redirects to the client with the code, state and iss.
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import { boundTokens } from '../../auth/form-token.js';
import type { KeyStore } from '../../auth/keys.js';
import type { AuthorizationServer } from '../../auth/oauth/provider.js';
import { resourceId } from '../../auth/oauth/resource.js';
import { OAUTH_SCOPES } from '../../auth/scopes.js';
import { AppError } from '../../errors/app-error.js';
import { readFormBody } from '../body.js';
import { renderConsentPage } from './consent-page.js';
import { CONSENT_PATH } from './paths.js';

/** A consent form is a token, a key and a button: 4 KiB holds it many times over. */
const CONSENT_FORM_MAX_BYTES = 4_096;

/** What oidc-provider knows of the sign-in in progress (the authorization request's parameters, its uid). */
type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

type Deps = { server: AuthorizationServer; keys: Pick<KeyStore, 'verifyBearer' | 'createKey'>; origin: string };

/** The form token: an HMAC of the interaction uid under the server's stored cookie key, so only our page can carry it. */
const consentTokens = (server: AuthorizationServer) => boundTokens('consent', server.secrets.cookieKey);

/** The interaction the browser's cookie names, which must be the one in the path. */
async function interactionOf(ctx: Context, server: AuthorizationServer, uid: string): Promise<InteractionDetails> {
  let details: InteractionDetails;
  try {
    details = await server.provider.interactionDetails(ctx.req, ctx.res);
  } catch {
    throw new AppError('not_found', 'no sign-in is in progress in this browser at this address (it expired, or was started elsewhere)');
  }
  if (details.uid !== uid) throw new AppError('not_found', 'this consent page belongs to another sign-in');
  return details;
}

const requestedScopes = (d: InteractionDetails) => {
  const asked = new Set(String(d.params.scope ?? '').split(' '));
  const scopes = OAUTH_SCOPES.filter((s) => asked.has(s));
  return scopes.length > 0 ? scopes : [...OAUTH_SCOPES];
};

const requestedResources = (d: InteractionDetails, origin: string): string[] => {
  const r = d.params.resource;
  return Array.isArray(r) ? r : typeof r === 'string' ? [r] : [resourceId(origin, 'mcp')];
};

async function render(ctx: Context, deps: Deps, d: InteractionDetails, problem?: string): Promise<void> {
  const clientId = String(d.params.client_id);
  const client = await deps.server.provider.Client.find(clientId);
  const redirectUri = String(d.params.redirect_uri ?? '');
  const target = URL.parse(redirectUri);
  // form-action must allow the redirect chain a submission starts: back here, then to the client's redirect URI.
  const formTarget = target ? (target.origin !== 'null' ? target.origin : target.protocol) : '';
  ctx.set({
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${formTarget}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  });
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = renderConsentPage({
    clientName: client?.clientName ?? clientId,
    clientId,
    clientUri: client?.clientUri ?? null,
    redirectUri,
    scopes: requestedScopes(d),
    resources: requestedResources(d, deps.origin),
    action: `${CONSENT_PATH}/${d.uid}`,
    csrfToken: consentTokens(deps.server).tokenFor(d.uid),
    problem,
  });
}

export async function consentGet(ctx: Context, deps: Deps, uid: string): Promise<void> {
  await render(ctx, deps, await interactionOf(ctx, deps.server, uid));
}

export async function consentPost(ctx: Context, deps: Deps, uid: string): Promise<void> {
  const d = await interactionOf(ctx, deps.server, uid);
  const origin = ctx.get('origin');
  const form = await readFormBody(ctx, CONSENT_FORM_MAX_BYTES);
  if ((origin && origin !== deps.origin) || !consentTokens(deps.server).matches(d.uid, form.get('csrf'))) {
    throw new AppError('csrf_rejected', 'the consent form was not submitted from this service\'s consent page');
  }
  const finish = async (result: Record<string, unknown>): Promise<void> => {
    ctx.respond = false;
    await deps.server.provider.interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
  };
  const decision = form.get('decision');
  if (decision === 'deny') return finish({ error: 'access_denied', error_description: 'the owner denied the request' });
  if (decision !== 'approve') throw new AppError('validation_failed', 'decision must be "approve" or "deny"');
  const owner = await deps.keys.verifyBearer(`Bearer ${form.get('owner_key') ?? ''}`);
  if (!owner.ok) {
    ctx.status = 401;
    return render(ctx, deps, d, 'That is not an active API key. Enter the key the operator issued to you, or Deny.');
  }
  const ownerId = owner.key.owner_id ?? owner.key.id;
  const clientId = String(d.params.client_id);
  const client = await deps.server.provider.Client.find(clientId);
  const scopes = requestedScopes(d);
  const minted = await deps.keys.createKey({ scopes, label: `oauth: ${client?.clientName ?? clientId}`, ownerId });
  const grant = new deps.server.provider.Grant({ accountId: ownerId, clientId });
  // Granted both as the resource's scopes (they go into the access token) and as plain scopes (they are also
  // declared server-wide, so the authorization request checks them there too).
  grant.addOIDCScope(scopes.join(' '));
  for (const resource of requestedResources(d, deps.origin)) grant.addResourceScope(resource, scopes.join(' '));
  const grantId = await grant.save();
  await deps.server.bindGrantToKey(grantId, minted.key.id);
  return finish({ login: { accountId: ownerId }, consent: { grantId } });
}
