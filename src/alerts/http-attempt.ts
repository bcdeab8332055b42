// One outbound HTTP POST attempt for alert delivery: fresh connection, optional pinned IP, hard timeout, no redirects.
// Returns an outcome value; never throws. Diagnostics never contain the request URL (a bot token can live there).
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ALERTS } from '../registry/groups/alerts.js';
import type { ResolvedAddress } from './url-guard.js';

export type AttemptOutcome = {
  ok: boolean;
  /** HTTP status when a response arrived, else null. */
  status: number | null;
  diagnostic: string;
  /** True when retrying cannot help (e.g. the profile is gone); the alert dead-letters at once. */
  permanent?: boolean;
};

export type PostRequest = {
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Connect to this already-vetted address instead of resolving the host again (closes the DNS-rebinding gap). */
  pinned?: ResolvedAddress;
};

/** A lookup that always answers the vetted address; handles both the single and `all: true` callback shapes. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options && options.all) cb(null, [{ address: pinned.address, family: pinned.family }]);
    else cb(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

function clip(s: string): string {
  const max = ALERTS.v.diagnostic_body_chars;
  const oneLine = s.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/** Reads at most the diagnostic budget of a failing response body, then lets the socket go. */
function readSnippet(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const done = (): void => {
      res.destroy();
      resolve(clip(text));
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      if (text.length >= ALERTS.v.diagnostic_body_chars) done();
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}

async function outcomeOf(res: http.IncomingMessage): Promise<AttemptOutcome> {
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) {
    res.resume(); // drain and discard: the status is the receiver's acknowledgement
    return { ok: true, status, diagnostic: `http_${status}` };
  }
  if (status >= 300 && status < 400) {
    const location = typeof res.headers.location === 'string' ? clip(res.headers.location) : '(none)';
    res.destroy();
    return { ok: false, status, diagnostic: `redirect_not_followed: http_${status} location ${location}` };
  }
  const snippet = await readSnippet(res);
  return { ok: false, status, diagnostic: `http_${status}${snippet ? `: ${snippet}` : ''}` };
}

/** POSTs once. Resolves with the outcome after the response status (or the failure) is known, within timeoutMs. */
export function postOnce(reqSpec: PostRequest): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: AttemptOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const mod = reqSpec.url.protocol === 'https:' ? https : http;
    const req = mod.request(reqSpec.url, {
      method: 'POST',
      agent: false, // one fresh connection per attempt: nothing pooled outlives the vetted address
      headers: { ...reqSpec.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(reqSpec.body)) },
      lookup: reqSpec.pinned ? pinnedLookup(reqSpec.pinned) : undefined,
    });
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, diagnostic: `timeout: no response within ${reqSpec.timeoutMs} ms` });
      req.destroy();
    }, reqSpec.timeoutMs);
    req.on('response', (res) => {
      outcomeOf(res).then(finish, (e: unknown) => finish({ ok: false, status: res.statusCode ?? null, diagnostic: `response_error: ${String(e)}` }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      finish({ ok: false, status: null, diagnostic: `connection_error: ${e.code ?? e.name}${e.message ? ` ${clip(e.message)}` : ''}` });
    });
    req.end(reqSpec.body);
  });
}
