// A throwaway PostgreSQL cluster for tests and benchmarks: Debian's server binaries, initdb in a temporary folder, the
// server on 127.0.0.1 at a free port (its socket in that folder), stopped and removed by stop(). initdb refuses to run
// as root, so as root the cluster runs as the `postgres` system user (created by Debian's postgresql package).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-support.js';

export type LocalCluster = {
  /** Connection string of the cluster's `postgres` database as superuser `avm` (trust auth on loopback). */
  url: string;
  port: number;
  dir: string;
  /** A fresh empty database; returns its connection string. */
  createDatabase(name: string): string;
  /** Fast shutdown and removal of the folder; safe to call twice. */
  stop(): void;
};

/** Directory of Debian's PostgreSQL server binaries (newest version), or null when the server is not installed. */
export function pgBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

/** Whether PostGIS is installed for the server in `bin` (its control file is present). */
export function postgisAvailable(bin: string | null = pgBinDir()): boolean {
  if (bin === null) return false;
  const share = execFileSync(join(bin, 'pg_config'), ['--sharedir'], { encoding: 'utf8' }).trim();
  return existsSync(join(share, 'extension', 'postgis.control'));
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function asServerUser(bin: string, tool: string, args: string[]): void {
  const cmd = isRoot() ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] as const : [join(bin, tool), args] as const;
  const r = spawnSync(cmd[0], [...cmd[1]], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${tool} failed (${r.status}): ${r.stderr || r.stdout}`);
}

/**
 * Starts a cluster. `settings`: extra server settings (name → value). By default fsync is off (a test cluster is
 * thrown away; the faults the tests inject kill the service, not PostgreSQL).
 */
export async function startLocalCluster(settings: Record<string, string> = {}): Promise<LocalCluster> {
  const bin = pgBinDir();
  if (bin === null) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'avm-pg-'));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  asServerUser(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'avm', '-E', 'UTF8', '--no-sync', '--locale=C']);
  const port = await freePort();
  const all = { listen_addresses: '127.0.0.1', port: String(port), unix_socket_directories: dir, fsync: 'off', max_connections: '200', ...settings };
  const opts = Object.entries(all).map(([k, v]) => `-c ${k}=${v}`).join(' ');
  asServerUser(bin, 'pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  const url = (db: string): string => `postgres://avm@127.0.0.1:${port}/${db}`;
  return {
    url: url('postgres'),
    port,
    dir,
    createDatabase(name: string): string {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      asServerUser(bin, 'createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'avm', name]);
      return url(name);
    },
    stop(): void {
      if (stopped) return;
      stopped = true;
      try {
        asServerUser(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
