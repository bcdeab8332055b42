// Start-up of the service: make sure a corpus is stored (first start generates and ingests the default one), open the
// store, then serve REST and MCP on HOST:PORT. Returns a handle whose close() stops everything in order.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Limiter } from './auth/limiter.js';
import type { Config } from './config.js';
import { createApp } from './http/app.js';
import type { ServiceContext } from './http/context.js';
import { ensureCorpus } from './ingest/corpus.js';
import { createLogger } from './log.js';
import { hasCorpus, openStore } from './store/store.js';
import { createValuationService } from './valuation/valuation-service.js';

export type ServiceHandle = { url: string; port: number; svc: ServiceContext; close: () => Promise<void> };

/** `limiter`: inject the shared rate limiter (tests give it their own clock or a higher anonymous limit). */
export async function startService(config: Config, opts: { installSignalHandlers?: boolean; limiter?: Limiter } = {}): Promise<ServiceHandle> {
  const log = createLogger(config.logLevel);
  const t0 = performance.now();
  await ensureCorpus(config, hasCorpus(config.dataDir));
  const store = openStore(config.dataDir);
  const svc: ServiceContext = { config, store, log, now: () => new Date(), valuation: createValuationService(config, store), limiter: opts.limiter };
  const app = createApp(svc);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  svc.listenPort = port;
  const url = `http://${config.host}:${port}`;
  log.info(`serving on ${url} (ready in ${Math.round(performance.now() - t0)} ms)`);

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      await svc.valuation?.close();
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
  return { url, port, svc, close };
}
