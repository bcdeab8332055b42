// A local fake of the Cook County Socrata SODA API on 127.0.0.1 (port 0): parses $where (between / in / comparisons
// joined by AND), $order, $limit and $select, and serves fixture rows per dataset. Unknown clauses answer 400.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Row = Record<string, string>;
export type FakeSoda = { baseUrl: string; requests: Array<{ dataset: string; params: Record<string, string> }>; close: () => Promise<void> };

function clause(c: string): ((r: Row) => boolean) | null {
  let m = /^(\w+) between (-?[\d.]+) and (-?[\d.]+)$/.exec(c);
  if (m) { const [, f, a, b] = m; return (r) => Number(r[f]) >= Number(a) && Number(r[f]) <= Number(b); }
  m = /^(\w+) in\((.*)\)$/.exec(c);
  if (m) { const f = m[1]; const vals = new Set([...m[2].matchAll(/'([^']*)'/g)].map((x) => x[1])); return (r) => vals.has(r[f]); }
  m = /^(\w+) (>=|<=|>|<|=) '([^']*)'$/.exec(c);
  if (m) {
    const [, f, op, v] = m;
    return (r) => (op === '>=' ? r[f] >= v : op === '<=' ? r[f] <= v : op === '>' ? r[f] > v : op === '<' ? r[f] < v : r[f] === v);
  }
  return null;
}

function query(rows: Row[], p: URLSearchParams): Row[] | null {
  const preds = (p.get('$where') ?? '').split(' AND ').filter(Boolean).map(clause);
  if (preds.some((x) => x === null)) return null;
  let out = rows.filter((r) => preds.every((f) => f!(r)));
  const order = (p.get('$order') ?? '').split(',').map((s) => s.trim().split(/\s+/)).filter((x) => x[0]);
  out = [...out].sort((a, b) => {
    for (const [f, dir] of order) {
      const c = a[f] < b[f] ? -1 : a[f] > b[f] ? 1 : 0;
      if (c !== 0) return dir?.toUpperCase() === 'DESC' ? -c : c;
    }
    return 0;
  });
  out = out.slice(0, Number(p.get('$limit') ?? 1000));
  const select = p.get('$select')?.split(',');
  return select ? out.map((r) => Object.fromEntries(select.filter((k) => k in r).map((k) => [k, r[k]]))) : out;
}

/** Serves `data[dataset]` at /resource/<dataset>.json; `status` forces every reply to that HTTP status. */
export async function startFakeSoda(data: Record<string, Row[]>, opts: { status?: number; hang?: boolean } = {}): Promise<FakeSoda> {
  const requests: FakeSoda['requests'] = [];
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/resource\/([\w-]+)\.json$/.exec(u.pathname);
    requests.push({ dataset: m?.[1] ?? '', params: Object.fromEntries(u.searchParams) });
    if (opts.hang) return; // accept the connection, never answer
    const rows = m && data[m[1]] ? query(data[m[1]], u.searchParams) : null;
    const status = opts.status ?? (rows === null ? 400 : 200);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? rows : { error: true, message: 'bad query' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/resource`,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** A loopback port with nothing listening (bound then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
