// A node:http client for tests that must know which connection a request rides on (keep-alive agents) and see a reset
// as a reset: the outcome is the status, Connection header and body, or the socket error's code.
import { Agent, request } from 'node:http';

export type Outcome = { status: number; connection: string | undefined; requestId: string | undefined; body: string } | { error: string };

export function keepAliveAgent(maxSockets = Infinity): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

/** GET `url` through `agent`; never rejects: a socket error comes back as `{ error: code }` (ECONNRESET, ...). */
export function getOutcome(url: string, agent: Agent, headers: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, requestId: res.headers['x-request-id'] as string | undefined, body }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end();
  });
}

/** Resolves once `n` requests through `agent` have each opened a connection that is now idle in its pool. */
export async function warmSockets(baseUrl: string, agent: Agent, n: number): Promise<void> {
  const outs = await Promise.all(Array.from({ length: n }, () => getOutcome(`${baseUrl}/api/health`, agent)));
  if (outs.some((o) => 'error' in o)) throw new Error(`warm-up failed: ${JSON.stringify(outs)}`);
}

export function idleSocketCount(agent: Agent): number {
  return Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
}
