// Every environment setting the service reads, parsed once and validated here.
// Nothing else in src/ reads process.env.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root, from src/config.ts or its compiled dist/src/config.js (file path, not URL: spaces survive). */
export const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), import.meta.url.includes('/dist/') ? '../..' : '..');

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  AVM_DATA_DIR: z.string().min(1).optional(),
  AVM_SEED: z.coerce.number().int().min(0).default(20261121),
  AVM_SCALE: z.enum(['default', 'county']).default('default'),
  /** Default: the cores this process may use (os.availableParallelism), at most 64. */
  AVM_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  AVM_POOL_MAX_QUEUE: z.coerce.number().int().min(1).default(512),
  AVM_TASK_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  WRITE_SECRET: z.string().min(16).optional(),
  AVM_TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  AVM_ANON_RATE_LIMIT: z.coerce.number().int().min(1).optional(),
  AVM_OPENDATA_BASE_URL: z.string().url().default('https://datacatalog.cookcountyil.gov/resource'),
  AVM_FORCE_OPENDATA: z.enum(['true', 'false']).default('false'),
  AVM_ALLOW_PRIVATE_WEBHOOKS: z.enum(['true', 'false']).default('false'),
  AVM_TELEGRAM_BASE_URL: z.string().url().default('https://api.telegram.org'),
  /** The service's public origin (scheme://host[:port]): the OAuth issuer and resource identifiers. */
  AVM_PUBLIC_URL: z.string().url().optional(),
  AVM_TELEGRAM_BOT_TOKEN: z.string().optional(),
  AVM_ALLOWED_HOSTS: z.string().optional(),
  AVM_ALLOWED_ORIGINS: z.string().optional(),
  /** Hosts whose OAuth Client ID Metadata Documents may be fetched from non-public addresses (default none). */
  AVM_CIMD_PRIVATE_HOSTS: z.string().optional(),
  /** PEM file of CA certificates trusted when fetching those hosts' documents (default: the system CAs). */
  AVM_CIMD_CA_FILE: z.string().min(1).optional(),
  AVM_LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  AVM_BACKGROUND_JOBS: z.enum(['true', 'false']).default('true'),
  /** Comp kernel front-end: auto (the native addon when it loads, else WASM), or force one (src/kernel/select.ts). */
  AVM_KERNEL: z.enum(['auto', 'wasm', 'native']).default('auto'),
  AVM_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string').optional(),
  /** Folder all replicas read published snapshots from (a shared volume); an object-store URL is an extension point. */
  AVM_SNAPSHOT_DIR: z.string().min(1).refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v), 'object-store URLs are a documented extension point, not implemented yet: give a folder path (README, Snapshots for replicas)').optional(),
});

export type Config = {
  rootDir: string;
  host: string;
  port: number;
  dataDir: string;
  seed: number;
  scale: 'default' | 'county';
  workers: number;
  poolMaxQueue: number;
  taskTimeoutMs: number;
  writeSecret: string | null;
  trustProxy: boolean;
  /** Anonymous calls per minute per client IP; null: the registry's (auth group, anon_calls_per_window). */
  anonRateLimit: number | null;
  opendataBaseUrl: string;
  forceOpendata: boolean;
  allowPrivateWebhooks: boolean;
  telegramBaseUrl: string;
  telegramBotToken: string | null;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** AVM_DATABASE_URL: PostgreSQL as the shared backend of several replicas (src/store/pg); null: the embedded LMDB store. */
  databaseUrl: string | null;
  /** AVM_SNAPSHOT_DIR (absolute): the shared snapshot folder replicas follow (src/store/shared); null: not shared. */
  snapshotDir?: string | null;
  /** AVM_CIMD_PRIVATE_HOSTS: client-id document hosts exempt from the public-address guard (see README Sign-in (OAuth)). */
  cimdPrivateHosts?: string[];
  /** The PEM text of AVM_CIMD_CA_FILE (read at start, so a bad path stops the service); null: the system CAs. */
  cimdCa?: string | null;
  /** AVM_PUBLIC_URL without a trailing slash; null: http://<HOST>:<listening port> (127.0.0.1 for a wildcard HOST). */
  publicUrl?: string | null;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** Daily 13:00 UTC listings scheduler, a first listings run when none has run yet, and alert-delivery resume. */
  backgroundJobs: boolean;
};

export type KernelSetting = 'auto' | 'wasm' | 'native';

/**
 * AVM_KERNEL alone: worker threads pick their kernel front-end from the environment they inherit, without the rest
 * of the configuration (the main thread validated all of it at start).
 */
export function kernelSetting(env: Record<string, string | undefined> = process.env): KernelSetting {
  const parsed = EnvSchema.shape.AVM_KERNEL.safeParse(env.AVM_KERNEL);
  if (!parsed.success) throw new ConfigError(`invalid environment: AVM_KERNEL: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

/** A bad environment value: the message names each variable, the value's problem, and nothing else. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment (or an override map, for tests) into a Config; throws ConfigError on a bad value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid environment: ${detail}`);
  }
  const e = parsed.data;
  const list = (s: string | undefined): string[] => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : []);
  return {
    rootDir: ROOT_DIR,
    host: e.HOST,
    port: e.PORT,
    dataDir: resolve(ROOT_DIR, e.AVM_DATA_DIR ?? 'data/local'),
    seed: e.AVM_SEED,
    scale: e.AVM_SCALE,
    workers: e.AVM_WORKERS ?? Math.min(64, availableParallelism()),
    poolMaxQueue: e.AVM_POOL_MAX_QUEUE,
    taskTimeoutMs: e.AVM_TASK_TIMEOUT_MS,
    writeSecret: e.WRITE_SECRET ?? null,
    trustProxy: e.AVM_TRUST_PROXY === 'true',
    anonRateLimit: e.AVM_ANON_RATE_LIMIT ?? null,
    opendataBaseUrl: e.AVM_OPENDATA_BASE_URL,
    forceOpendata: e.AVM_FORCE_OPENDATA === 'true',
    allowPrivateWebhooks: e.AVM_ALLOW_PRIVATE_WEBHOOKS === 'true',
    telegramBaseUrl: e.AVM_TELEGRAM_BASE_URL,
    telegramBotToken: e.AVM_TELEGRAM_BOT_TOKEN ?? null,
    allowedHosts: list(e.AVM_ALLOWED_HOSTS),
    allowedOrigins: list(e.AVM_ALLOWED_ORIGINS),
    databaseUrl: e.AVM_DATABASE_URL ?? null,
    snapshotDir: e.AVM_SNAPSHOT_DIR ? resolve(e.AVM_SNAPSHOT_DIR) : null,
    cimdPrivateHosts: list(e.AVM_CIMD_PRIVATE_HOSTS).map((h) => h.toLowerCase()),
    cimdCa: e.AVM_CIMD_CA_FILE ? readPem('AVM_CIMD_CA_FILE', e.AVM_CIMD_CA_FILE) : null,
    publicUrl: e.AVM_PUBLIC_URL ? e.AVM_PUBLIC_URL.replace(/\/+$/, '') : null,
    logLevel: e.AVM_LOG_LEVEL,
    backgroundJobs: e.AVM_BACKGROUND_JOBS === 'true',
  };
}

function readPem(name: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch (e) {
    throw new ConfigError(`invalid environment: ${name}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`invalid environment: ${name}: ${path} holds no PEM certificate`);
  return text;
}

/** Folder holding the committed real reference data (derived from public records). */
export const REFERENCE_DIR = resolve(ROOT_DIR, 'data/reference');
