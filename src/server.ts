// Start-up of the service: make sure a corpus is stored (first start generates and ingests the default one), open the
// store, then serve REST and MCP on HOST:PORT. Returns a handle whose close() stops everything in order.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAudit, scheduleAuditSweep } from './auth/audit.js';
import type { Limiter } from './auth/limiter.js';
import type { Config } from './config.js';
import { createApp } from './http/app.js';
import { createHttpServer } from './http/http-server.js';
import type { ServiceContext } from './app/context.js';
import { ensureCorpus } from './ingest/corpus.js';
import { createLogger, type Logger } from './log.js';
import { hasCorpus, openStore, type Store } from './store/store.js';
import { createEngine } from './app/engine.js';
import { createToolDoor } from './mcp/door.js';

/**
 * After the service listens: resume alert deliveries a crash left pending, arm the daily 13:00 UTC listings run, and
 * run the listings job once now if it never ran (so inventory and last_run are filled without waiting for 13:00);
 * sweep audit and metering rows past their 12-month retention now and once a day.
 */
async function startBackgroundJobs(config: Config, store: Store, log: Logger): Promise<{ stop: () => Promise<void> }> {
  const [{ openAlertStore, deliveryContextFromConfig, resumeDelivery }, { runListings, scheduleDailyListings }] = await Promise.all([
    import('./alerts/index.js'),
    import('./listings/job.js'),
  ]);
  const pending: Promise<unknown>[] = [];
  const track = (p: Promise<unknown>, what: string): void => {
    pending.push(p.catch((e) => log.error(`${what} failed`, e)));
  };
  track(resumeDelivery(deliveryContextFromConfig(openAlertStore(store.env), config, log)), 'alert delivery resume');
  const scheduler = scheduleDailyListings(config, store, (e) => log.error('daily listings run failed', e));
  if (store.lastRun() === null) track(runListings({ config, store, kind: 'manual' }), 'first listings run');
  const sweeper = scheduleAuditSweep(openAudit(store.env), (e) => log.error('audit retention sweep failed', e));
  return {
    stop: async () => {
      scheduler.stop();
      await sweeper.stop();
      await Promise.all(pending);
    },
  };
}

export type ServiceHandle = { url: string; port: number; svc: ServiceContext; server: Server; close: () => Promise<void> };

/** `limiter`: inject the shared rate limiter (tests give it their own clock or a higher anonymous limit). */
export async function startService(config: Config, opts: { installSignalHandlers?: boolean; limiter?: Limiter } = {}): Promise<ServiceHandle> {
  const log = createLogger(config.logLevel);
  const t0 = performance.now();
  await ensureCorpus(config, hasCorpus(config.dataDir));
  const store = openStore(config.dataDir);
  const svc: ServiceContext = { config, store, log, now: () => new Date(), engine: createEngine(config, store), limiter: opts.limiter, closeHooks: [] };
  // The two doors over one application layer, composed here: REST (Koa) with the MCP tool door on the same router.
  const app = createApp(svc, { toolDoor: (operations) => createToolDoor(operations, { log: (msg, extra) => log.error(msg, extra) }) });
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHttpServer(app.callback()).listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  svc.listenPort = port;
  const url = `http://${config.host}:${port}`;
  log.info(`serving on ${url} (ready in ${Math.round(performance.now() - t0)} ms)`);
  const jobs = config.backgroundJobs ? await startBackgroundJobs(config, store, log) : null;

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      for (const hook of svc.closeHooks ?? []) await hook();
      await jobs?.stop();
      await svc.engine?.close();
      await store.close();
    })();
    return closing;
  };
  if (opts.installSignalHandlers ?? true) {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.once(sig, () => {
        log.info(`${sig}: shutting down`);
        void close().then(() => process.exit(0));
      });
    }
  }
  return { url, port, svc, server, close };
}
