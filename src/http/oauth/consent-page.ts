// The consent page, server-rendered: who is asking (the client's registered name and where it will send you back),
// what it asks for (each scope and what it allows), the owner's sign-in (their API key, see README "Sign-in (OAuth)"),
// and Approve / Deny. No script; the page may not be framed (CSP frame-ancestors 'none', X-Frame-Options DENY).
import { OAUTH_SCOPE_TEXT } from '../../auth/scopes.js';
import { escapeHtml } from '../../valuation/calibration/html/svg.js';

export type ConsentView = {
  clientName: string;
  clientId: string;
  clientUri: string | null;
  redirectUri: string;
  scopes: ReadonlyArray<keyof typeof OAUTH_SCOPE_TEXT>;
  resources: readonly string[];
  action: string;
  csrfToken: string;
  /** A refusal of the last submission (a wrong owner key), shown above the form. */
  problem?: string;
};

export function renderConsentPage(v: ConsentView): string {
  const scopeItems = v.scopes.map((s) => `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml(OAUTH_SCOPE_TEXT[s])}</li>`).join('');
  const client = v.clientUri ? `<a href="${escapeHtml(v.clientUri)}" rel="noreferrer noopener">${escapeHtml(v.clientName)}</a>` : escapeHtml(v.clientName);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Allow ${escapeHtml(v.clientName)}? · Cook and Lake County AVM</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}
.problem{background:#fde8e8;padding:.5rem 1rem;border-radius:4px}button{font-size:1rem;padding:.5rem 1.5rem;margin-right:1rem}
code{word-break:break-all}input[type=password]{width:100%;font-size:1rem;padding:.4rem}</style></head>
<body><main>
<h1>Allow ${client} to use your account?</h1>
${v.problem ? `<p class="problem" role="alert">${escapeHtml(v.problem)}</p>` : ''}
<p>The application <strong>${escapeHtml(v.clientName)}</strong> (client id <code>${escapeHtml(v.clientId)}</code>) asks for:</p>
<ul>${scopeItems}</ul>
<p>It would act on <code>${v.resources.map(escapeHtml).join('</code> and <code>')}</code>, and you will be sent back to <code>${escapeHtml(v.redirectUri)}</code>.</p>
<p>Approving creates an API key for this application with these scopes, owned by you: you can revoke it at any time, and so
end this application's access. Denying sends the application back without access; reading stays open to it while the beta lasts.</p>
<form method="post" action="${escapeHtml(v.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(v.csrfToken)}">
<p><label for="owner_key">Your API key (it proves you are the owner; it is not shared with the application)</label><br>
<input type="password" id="owner_key" name="owner_key" autocomplete="off"></p>
<p><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></p>
</form>
</main></body></html>`;
}
