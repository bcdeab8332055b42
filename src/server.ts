// Start-up of the service: make sure a corpus is stored (first start generates and ingests the default one), open the
// store, then serve REST and MCP on HOST:PORT. Returns a handle whose close() drains the doors (bounded by the doors
// group's drain_timeout_ms) and then stops everything in order; SIGTERM and SIGINT call it and exit 0.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { scheduleAuditSweep } from './auth/audit.js';
import { openAppEvents, scheduleAppEventSweep } from './analytics/app-events.js';
import type { Limiter } from './auth/limiter.js';
import type { Config } from './config.js';
import { createApp } from './http/app.js';
import { createHttpServer } from './http/http-server.js';
import { createDrain, stopListening } from './http/drain.js';
import type { ServiceContext } from './app/context.js';
import { alertObserversOf, runDailyListings, runObservedListings } from './app/listings-run.js';
import { createServiceMetrics } from './app/metrics.js';
import { DOORS } from './registry/groups/doors.js';
import { ensureCorpus } from './ingest/corpus.js';
import { createLogger } from './log.js';
import { hasCorpus, openStore, type Store } from './store/store.js';
import { lmdbOpsBackend, pgOpsBackend } from './store/ops-backend.js';
import { lmdbRegistry } from './registry/registry-store.js';
import { startRegistryFollower } from './registry/registry-follower.js';
import { createEngine } from './app/engine.js';
import { createToolDoor } from './mcp/door.js';
import { startReplicaSnapshots } from './store/shared/replica.js';
import { backendOf } from './app/door-services.js';
import { openStateBackend } from './store/backend.js';
import { assertKernelAvailable } from './kernel/index.js';

/**
 * After the service listens: resume alert deliveries a crash left pending, arm the daily 13:00 UTC listings run, and
 * run the listings job once now if it never ran (so inventory and last_run are filled without waiting for 13:00);
 * sweep audit and metering rows past their 12-month retention now and once a day.
 */
async function startBackgroundJobs(svc: ServiceContext): Promise<{ stop: () => Promise<void> }> {
  const { config, store, log } = svc;
  const [{ deliveryContextFromConfig, resumeDelivery }, { startListingsScheduler }, { startOutboxSweeper }] = await Promise.all([
    import('./alerts/index.js'),
    import('./listings/index.js'),
    import('./alerts/sweep.js'),
  ]);
  const ops = svc.ops ?? lmdbOpsBackend(store);
  const pending: Promise<unknown>[] = [];
  const track = (p: Promise<unknown>, what: string | null): void => {
    pending.push(p.catch((e) => (what ? log.error(`${what} failed`, e) : undefined)));
  };
  const backend = backendOf(svc);
  const delivery = { ...deliveryContextFromConfig(backend.alerts, config), ...alertObserversOf(svc) };
  track(resumeDelivery(delivery), 'alert delivery resume');
  // Replicas: take over the claims of a replica that died, and alerts another replica enqueued.
  const outboxSweeper = ops.shared ? startOutboxSweeper(delivery, undefined, (e) => log.error('alert outbox sweep failed', e)) : null;
  // runObservedListings logs its own failure (once); the schedule goes on. One replica runs each day (ops.dailyRun).
  const scheduler = startListingsScheduler({ run: () => runDailyListings(svc, ops.dailyRun), onError: () => undefined });
  // Replicas make up the latest slot's run if no replica ran it (once across replicas); one process: first start only.
  if (ops.shared) track(runDailyListings(svc, ops.dailyRun), null);
  else if (store.lastRun() === null) track(runObservedListings(svc, 'manual'), null);
  const sweeper = scheduleAuditSweep(backend.audit, (e) => log.error('audit retention sweep failed', e));
  const appEventSweeper = scheduleAppEventSweep(openAppEvents(store.env), (e) => log.error('app analytics retention sweep failed', e));
  return {
    stop: async () => {
      scheduler.stop();
      await outboxSweeper?.stop();
      await sweeper.stop();
      await appEventSweeper.stop();
      await Promise.all(pending);
    },
  };
}

export type ServiceHandle = { url: string; port: number; svc: ServiceContext; server: Server; close: () => Promise<void> };

export type StartOptions = {
  installSignalHandlers?: boolean;
  /** The shared rate limiter (tests give it their own clock or a higher anonymous limit). */
  limiter?: Limiter;
  /** Where the JSON log lines go (tests read them); default stderr. */
  logDestination?: DestinationStream;
  /** Default the doors group's drain_timeout_ms; tests shorten it to see the deadline pass. */
  drainTimeoutMs?: number;
};

export async function startService(config: Config, opts: StartOptions = {}): Promise<ServiceHandle> {
  const log = createLogger(config.logLevel, opts.logDestination);
  const t0 = performance.now();
  // Before anything is generated or served: AVM_KERNEL=native without a loadable addon is an operator error.
  const kernel = assertKernelAvailable();
  await ensureCorpus(config, hasCorpus(config.dataDir));
  const store = openStore(config.dataDir);
  // Checked now (about 20 ms at default scale), so neither the first request pays for it nor a damaged snapshot goes unnoticed.
  const integrity = store.verifySnapshot();
  if (integrity && !integrity.ok) log.error(`${integrity.detail}: health fails and valuations are refused until a new ingest replaces it`);
  const shutdown = new AbortController();
  // Keys, audit, user state and the event stream: PostgreSQL (migrated now) when AVM_DATABASE_URL is set, else LMDB.
  const backend = await openStateBackend(config, store.env, { onError: (e) => log.error('shared state write failed', e) });
  // A replica of a shared snapshot folder switches to the pointer's snapshot before it serves, then follows it.
  const replica = await startReplicaSnapshots(config, store, (e) => log.error('snapshot follower', e));
  // Alert outbox, rate limits, daily-run lock and model registry over the same backend.
  const ops = backend.pool ? pgOpsBackend(backend.pool, { anonRateLimit: config.anonRateLimit }) : lmdbOpsBackend(store);
  // Replicas serve the shared registry's champion: mirrored into this store before the engine's workers read it, then
  // followed, so a promotion or rollback anywhere reaches this replica's mirror (registry-follower.ts).
  const registryFollower = backend.pool
    ? await startRegistryFollower({
      pool: backend.pool, local: lmdbRegistry(store), onError: (e) => log.error('model registry follower', e),
      onSynced: (sync) => log.info('model registry synced', sync), onMirrored: (stamp) => log.info('model registry mirrored', { stamp }),
    })
    : null;
  const engine = createEngine(config, store);
  const svc: ServiceContext = {
    config, store, log, now: () => new Date(), engine, limiter: opts.limiter ?? ops.limiter ?? undefined, ops, closeHooks: [],
    metrics: createServiceMetrics({ store, engine }), shutdown: shutdown.signal, backend, snapshotFollower: replica?.follower,
  };
  const drain = createDrain();
  // The two doors over one application layer, composed here: REST (Koa) with the MCP tool door on the same router.
  const toolDoor = (operations: Parameters<typeof createToolDoor>[0]) => createToolDoor(operations, { log: (msg, extra) => log.error(msg, extra), warn: (msg, extra) => log.warn(msg, extra) });
  const app = createApp(svc, { toolDoor, drain });
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHttpServer(app.callback()).listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  svc.listenPort = port;
  const url = `http://${config.host}:${port}`;
  log.info('serving', { url, ready_ms: Math.round(performance.now() - t0), kernel: kernel.frontEnd, kernel_source: kernel.why });
  const jobs = config.backgroundJobs ? await startBackgroundJobs(svc) : null;

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const drainTimeoutMs = opts.drainTimeoutMs ?? DOORS.v.drain_timeout_ms;
      log.info('draining', { in_flight: drain.inFlight(), drain_timeout_ms: drainTimeoutMs });
      drain.begin();
      shutdown.abort(); // open event streams end now
      const startedMs = Date.now();
      const { allClosed } = await stopListening(server, startedMs + drainTimeoutMs);
      const { unfinished } = await drain.settle(drainTimeoutMs - (Date.now() - startedMs));
      if (unfinished > 0) log.warn('drain deadline passed: unfinished requests answered 503 shutting_down', { unfinished });
      server.closeIdleConnections();
      for (const hook of svc.closeHooks ?? []) await hook(); // tool sessions (their streams) end, the audit's last batch
      server.closeAllConnections(); // whatever stream is still open after its clean end was asked for
      await allClosed;
      await jobs?.stop();
      await engine.close();
      await replica?.close();
      await registryFollower?.stop();
      await backend.close();
      await store.close();
      log.info('stopped');
    })();
    return closing;
  };
  if (opts.installSignalHandlers ?? true) {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.once(sig, () => {
        log.info('shutting down', { signal: sig });
        close().then(
          () => process.exit(0),
          (e) => {
            log.error('shutdown failed', e);
            process.exit(1);
          },
        );
      });
    }
  }
  return { url, port, svc, server, close };
}
