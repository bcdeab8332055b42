// One raw HTTP exchange for the fuzz suite: node:http sends the path byte for byte (fetch would resolve `/./`, `%2e`
// and backslashes before sending), a stream response (SSE) is closed once its head arrives, and a request that gets
// no answer within the time limit is reported as such rather than hanging the run.
import { Agent, request } from 'node:http';

export type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: string };
export type FuzzReply = { answered: true; status: number; contentType: string; text: string; streamed: boolean } | { answered: false; error: string };

// One connection per case: a case's answer never depends on a reused socket, and a reset is always the server's doing
// (with keep-alive, a socket the server is just closing can be handed to the next request, which then sees ECONNRESET).
const agent = new Agent({ keepAlive: false });
const NO_ANSWER_MS = 60_000;

export function send(port: number, req: FuzzRequest): Promise<FuzzReply> {
  return new Promise((resolve) => {
    const headers = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    let r: ReturnType<typeof request>;
    try {
      r = request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent, setHost: !('host' in headers) });
    } catch (e) {
      resolve({ answered: false, error: `client refused the request: ${(e as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      r.destroy();
      resolve({ answered: false, error: `no answer within ${NO_ANSWER_MS} ms` });
    }, NO_ANSWER_MS);
    r.on('response', (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      if (contentType.startsWith('text/event-stream') && req.method !== 'POST') {
        clearTimeout(timer);
        res.destroy();
        resolve({ answered: true, status: res.statusCode ?? 0, contentType, text: '', streamed: true });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ answered: true, status: res.statusCode ?? 0, contentType, text: Buffer.concat(chunks).toString('utf8'), streamed: false });
      });
      res.on('error', (e) => {
        clearTimeout(timer);
        resolve({ answered: false, error: `response broke off: ${e.message}` });
      });
    });
    r.on('error', (e) => {
      clearTimeout(timer);
      resolve({ answered: false, error: `request failed: ${e.message}` });
    });
    r.end(req.body);
  });
}

export function closeClient(): void {
  agent.destroy();
}
