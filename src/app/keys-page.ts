// The owner's keys page (GET /keys, and the page every POST /keys answers with), server-rendered with no script:
// sign in by pasting one of your keys; then your keys (never a secret), a new key's secret once, a form to create a
// key with chosen scopes, Rotate and Revoke per key, and your keys' audit records. The owner's key travels in each
// form (a password field, then hidden fields of the page the post answers), never in a cookie or storage; the page is
// no-store. The rules are src/auth/owner-keys.ts's, the same as the API's.
import { SCOPE_TEXT, SCOPES } from '../contracts/auth.js';
import type { KeyView } from '../contracts/my-keys.js';
import type { FormTokens } from '../auth/form-token.js';
import type { AuditPage, Issued } from '../auth/owner-keys.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { escapeHtml as h } from '../valuation/calibration/html/svg.js';

export const KEYS_PAGE_PATH = '/keys';
/**
 * Where the page's forms post: an HTML form endpoint beside the JSON API (like the OAuth consent form), so not an
 * operation in /api/openapi.json; GET /keys is, and answers 405 to any other method, as its document says.
 */
export const KEYS_FORM_PATH = '/keys/actions';
export const KEYS_CSRF_COOKIE = 'avm_keys_csrf';

/** A fresh form token and the cookie that carries its nonce (Secure when the service's public URL is https). */
export function issueKeysPageToken(tokens: FormTokens, publicUrl: string | null | undefined): { token: string; cookie: string } {
  const { nonce, token } = tokens.issue();
  const secure = publicUrl?.startsWith('https:') ? '; Secure' : '';
  return { token, cookie: `${KEYS_CSRF_COOKIE}=${nonce}; Path=${KEYS_PAGE_PATH}; HttpOnly; SameSite=Strict${secure}` };
}

/** No script, nothing fetched, not framable; forms post back here only. */
export const KEYS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export type KeysPageView = {
  csrf: string;
  /** Absent before sign-in: the page shows the sign-in form only. */
  signedIn?: { ownerKey: string; owner: string; keys: KeyView[]; audit: AuditPage; presenterScopes: readonly string[] };
  issued?: Issued;
  notice?: string;
  problem?: string;
};

const hidden = (name: string, value: string): string => `<input type="hidden" name="${h(name)}" value="${h(value)}">`;
const form = (v: KeysPageView, action: string, inner: string, extra = ''): string =>
  `<form method="post" action="${KEYS_FORM_PATH}"${extra}>${hidden('csrf', v.csrf)}${v.signedIn ? hidden('owner_key', v.signedIn.ownerKey) : ''}${hidden('action', action)}${inner}</form>`;

function signInForm(v: KeysPageView): string {
  return form(v, 'list', `<p><label for="owner_key">Your API key (as the operator issued it, or one you created)</label><br>
<input type="password" id="owner_key" name="owner_key" autocomplete="off" required></p><p><button type="submit">Sign in</button></p>`);
}

function keyRow(v: KeysPageView, k: KeyView): string {
  const actions = k.revoked_at ? '' : [
    k.oauth ? '' : form(v, 'rotate', `${hidden('key_id', k.id)}<button type="submit">Rotate</button>`, ' class="inline"'),
    form(v, 'revoke', `${hidden('key_id', k.id)}<button type="submit">Revoke</button>`, ' class="inline"'),
  ].join('');
  const cells = [k.id, k.label ?? '—', k.scopes.join(', '), k.created_at, k.last_used_at ?? '—', k.revoked_at ?? 'active'].map((c) => `<td>${h(c)}</td>`).join('');
  return `<tr>${cells}<td>${actions}</td></tr>`;
}

function createForm(v: KeysPageView, scopes: readonly string[]): string {
  const boxes = SCOPES.map((s) => `<li><label><input type="checkbox" name="scopes" value="${h(s)}"${scopes.includes(s) ? '' : ' disabled'}> <strong>${h(s)}</strong>: ${h(SCOPE_TEXT[s])}</label></li>`).join('');
  return form(v, 'create', `<ul class="scopes">${boxes}</ul>
<p class="note">alerts:write: ${h(SCOPE_TEXT['alerts:write'])}. A key can only give out scopes it holds; others are greyed out.</p>
<p><label for="label">Label</label> <input id="label" name="label" maxlength="${AUTH_LIMITS.v.key_label_max_chars}"> <button type="submit">Create key</button></p>`);
}

function auditTable(a: AuditPage): string {
  const rows = a.records.map((r) => `<tr>${[r.at, r.key_id, r.op, String(r.status), r.request_id, r.ip].map((c) => `<td>${h(c)}</td>`).join('')}</tr>`).join('');
  return `<p>Kept ${a.retention_months} months (since ${h(a.since)}); newest first${a.truncated ? ', the newest shown' : ''}.</p>
<table><thead><tr><th>at</th><th>key</th><th>operation</th><th>status</th><th>request id</th><th>address</th></tr></thead><tbody>${rows || '<tr><td colspan="6">No records yet.</td></tr>'}</tbody></table>`;
}

export function renderKeysPage(v: KeysPageView): string {
  const s = v.signedIn;
  const issued = v.issued
    ? `<section class="issued" role="status"><h2>Your new key</h2><p>Copy it now: it is shown this once and stored only hashed.</p><p><code>${h(v.issued.secret)}</code></p>${v.issued.revoked_key_id ? `<p>Key ${h(v.issued.revoked_key_id)} is revoked.</p>` : ''}</section>`
    : '';
  const body = s
    ? `<p>Owner <code>${h(s.owner)}</code>. Keys an OAuth sign-in minted are labelled <code>oauth: …</code>: revoke one to end that application's access.</p>
<section><h2>Your keys</h2><table><thead><tr><th>id</th><th>label</th><th>scopes</th><th>created</th><th>last used</th><th>revoked</th><th></th></tr></thead>
<tbody>${s.keys.map((k) => keyRow(v, k)).join('')}</tbody></table></section>
<section><h2>Create a key</h2>${createForm(v, s.presenterScopes)}</section>
<section><h2>Audit records</h2>${auditTable(s.audit)}</section>`
    : signInForm(v);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Your API keys · Cook and Lake County AVM</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.25rem .4rem;text-align:left;font-size:.9rem}code{word-break:break-all}
.problem{background:#fde8e8;padding:.5rem 1rem}.notice,.issued{background:#e8f4fd;padding:.5rem 1rem}form.inline{display:inline}
ul.scopes{list-style:none;padding:0}.note{color:#555}</style></head>
<body><main><h1>Your API keys</h1>
${v.problem ? `<p class="problem" role="alert">${h(v.problem)}</p>` : ''}${v.notice ? `<p class="notice" role="status">${h(v.notice)}</p>` : ''}${issued}
${body}
<p><a href="/">Back to the map</a></p></main></body></html>`;
}
