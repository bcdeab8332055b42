// How the authorization server fetches a Client ID Metadata Document (the client's https `client_id` URL).
// By default: only a URL whose host resolves to public addresses is fetched (the webhook SSRF guard), through
// oidc-provider's own fetch, whose connection guard also drops a socket to a special-use address. An operator (or a
// test) may name hosts whose documents are fetched although they resolve to private or loopback addresses
// (AVM_CIMD_PRIVATE_HOSTS, default none), and CA certificates trusted for those hosts only (AVM_CIMD_CA_FILE, a
// private PKI); every other host keeps both guards and the system CAs.
import { request } from 'node:https';
import { Readable } from 'node:stream';
import { guardWebhookUrl } from '../../alerts/url-guard.js';

export type CimdFetchOptions = {
  /** Host names (no port, lower case) whose documents may be fetched from non-public addresses. */
  privateHosts: readonly string[];
  /** PEM CA certificates trusted for those hosts (null: the system CAs). */
  privateCa: string | null;
};

type FetchInit = RequestInit & { signal?: AbortSignal | null };
/** oidc-provider's `fetch` option: the WHATWG fetch signature. */
type Fetch = (input: string | URL | Request, init?: FetchInit) => Promise<Response>;

const hrefOf = (input: string | URL | Request): string => (input instanceof Request ? input.url : String(input));
const hostOf = (url: string | URL): string => (URL.parse(String(url))?.hostname ?? '').replace(/^\[|\]$/g, '').toLowerCase();

/** oidc-provider's `features.clientIdMetadataDocument.allowFetch`: may the document at `clientId` be fetched? */
export function cimdAllowFetch(o: CimdFetchOptions): (ctx: unknown, clientId: string) => Promise<boolean> {
  const named = new Set(o.privateHosts.map((h) => h.toLowerCase()));
  return async (_ctx, clientId) => named.has(hostOf(clientId)) || guardWebhookUrl(clientId, { allowPrivate: false }).then(() => true, () => false);
}

/** GET over node:https with extra CAs, as a fetch Response (redirects not followed, as oidc-provider asks). */
function httpsGet(url: string, init: FetchInit, ca: string | null): Promise<Response> {
  return new Promise((resolveResponse, reject) => {
    const req = request(url, { method: 'GET', headers: Object.fromEntries(new Headers(init.headers)), signal: init.signal ?? undefined, ...(ca ? { ca } : {}) }, (res) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      resolveResponse(new Response(Readable.toWeb(res) as ReadableStream, { status: res.statusCode ?? 502, headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** oidc-provider's `fetch`: a named private host over node:https (its CAs); anything else through oidc-provider's guarded fetch. */
export function cimdFetch(o: CimdFetchOptions, fallback: Fetch = (url, init) => globalThis.fetch(url, init)): Fetch {
  const named = new Set(o.privateHosts.map((h) => h.toLowerCase()));
  return (input, init = {}) => {
    const href = hrefOf(input);
    if (!named.has(hostOf(href)) || (init.method ?? 'GET') !== 'GET') return fallback(input, init);
    return httpsGet(href, init, o.privateCa);
  };
}
