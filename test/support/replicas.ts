// N replicas of the real service on one PostgreSQL database (issue 18): each is `node dist/src/cli.js serve` (built by
// `npm run build`) in its own process, with its own copy of the small served corpus, on 127.0.0.1 at a port it picks
// itself (PORT=0; the port is read from its `serving` log line). kill9(i) is a crash (SIGKILL, nothing flushed),
// restart(i) starts the same replica again on the same port and data copy, stopAll() ends every replica and removes
// the copies. The database is the caller's (bench/pg-cluster.ts createDatabase).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, CLOSED_OPENDATA_URL } from '../../bench/server-support.js';
import { servedCorpusDir } from './served-corpus.js';

export type Replica = {
  index: number;
  /** Base URL (http://127.0.0.1:<port>); kept across restart(i). */
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Every stderr line the current process wrote (JSON log lines). */
  logLines: string[];
};

export type ReplicaSet = {
  replicas: Replica[];
  url(i: number): string;
  /** SIGKILL: the process dies mid-whatever, as on a host crash; resolves once it has exited. */
  kill9(i: number): Promise<void>;
  /** Starts replica i again (same data copy, same port); resolves once it answers health. */
  restart(i: number): Promise<Replica>;
  /** SIGTERM to every live replica (drain), SIGKILL after a grace period; removes the data copies. */
  stopAll(): Promise<void>;
};

export type ReplicaOptions = {
  /** The shared database (AVM_DATABASE_URL of every replica). */
  databaseUrl: string;
  /** Extra environment of every replica (e.g. AVM_BACKGROUND_JOBS=true, AVM_ANON_RATE_LIMIT). */
  env?: Record<string, string>;
  /** Limit for one replica to start answering health (default 60 s: two cores shared with other work). */
  startTimeoutMs?: number;
};

const STOP_GRACE_MS = 10_000;

/** Starts `n` replicas (one after another, so the first runs the migrations and the rest find them applied). */
export async function startReplicas(n: number, opts: ReplicaOptions): Promise<ReplicaSet> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const template = await servedCorpusDir();
  const replicas: Replica[] = [];
  const launch = (index: number, dataDir: string, port: number): Promise<Replica> =>
    spawnReplica(index, dataDir, port, opts);
  try {
    for (let i = 0; i < n; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), `avm-replica${i}-`));
      cpSync(template, dataDir, { recursive: true });
      replicas.push(await launch(i, dataDir, 0));
    }
  } catch (e) {
    for (const r of replicas) r.child.kill('SIGKILL');
    throw e;
  } finally {
    rmSync(template, { recursive: true, force: true });
  }
  const alive = (r: Replica): boolean => r.child.exitCode === null && r.child.signalCode === null;
  return {
    replicas,
    url: (i) => replicas[i].url,
    async kill9(i) {
      const r = replicas[i];
      if (!alive(r)) return;
      const exited = new Promise((res) => r.child.once('exit', res));
      r.child.kill('SIGKILL');
      await exited;
    },
    async restart(i) {
      const r = replicas[i];
      if (alive(r)) throw new Error(`replica ${i} is still running: kill9(${i}) first`);
      replicas[i] = await launch(i, r.dataDir, r.port);
      return replicas[i];
    },
    async stopAll() {
      await Promise.all(replicas.map(async (r) => {
        if (alive(r)) {
          const exited = new Promise((res) => r.child.once('exit', res));
          r.child.kill('SIGTERM');
          const timer = setTimeout(() => r.child.kill('SIGKILL'), STOP_GRACE_MS);
          await exited;
          clearTimeout(timer);
        }
        rmSync(r.dataDir, { recursive: true, force: true });
      }));
    },
  };
}

/** Spawns one replica and waits for its `serving` log line (its URL) and then a healthy /api/health. */
async function spawnReplica(index: number, dataDir: string, port: number, opts: ReplicaOptions): Promise<Replica> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      AVM_DATA_DIR: dataDir,
      AVM_DATABASE_URL: opts.databaseUrl,
      AVM_LOG_LEVEL: 'info',
      AVM_BACKGROUND_JOBS: 'false',
      AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL,
      ...opts.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logLines: string[] = [];
  let partial = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`replica ${index} did not start within ${opts.startTimeoutMs ?? 60_000} ms:\n${logLines.slice(-20).join('\n')}`));
    }, opts.startTimeoutMs ?? 60_000);
    child.stderr!.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        logLines.push(line);
        const served = servingUrlOf(line);
        if (served) {
          clearTimeout(timer);
          resolve(served);
        }
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`replica ${index} exited (${code ?? signal}) before serving:\n${logLines.slice(-20).join('\n')}`));
    });
  });
  const replica: Replica = { index, url, port: Number(new URL(url).port), dataDir, child, logLines };
  await waitHealthy(replica);
  return replica;
}

function servingUrlOf(line: string): string | null {
  try {
    const rec = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return rec.msg === 'serving' && typeof rec.url === 'string' ? rec.url : null;
  } catch {
    return null;
  }
}

async function waitHealthy(r: Replica, limitMs = 30_000): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < limitMs) {
    if (r.child.exitCode !== null) throw new Error(`replica ${r.index} exited with ${r.child.exitCode}`);
    try {
      const res = await fetch(`${r.url}/api/health`);
      if (res.ok) return;
    } catch {
      // not answering yet
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`replica ${r.index} not healthy within ${limitMs} ms`);
}
