// What the HTTP and MCP doors are handed at start-up: configuration, storage, logger and clock.
import type { Limiter } from '../auth/limiter.js';
import type { Config } from '../config.js';
import type { EngineDeps } from '../contracts/operation-deps.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/store.js';
import type { ValuationService } from './valuation-service.js';

export type ServiceContext = {
  config: Config;
  store: Store;
  log: Logger;
  /** Injectable clock (tests fake it). */
  now: () => Date;
  /** The one rate limiter of both doors; created by the app when absent (tests inject one with their own clock). */
  limiter?: Limiter;
  /** Engine bindings for operations.ts handlers; an unbound one answers 501 not_implemented. */
  engine?: Partial<EngineDeps>;
  /** The port actually listened on (port 0 in tests), set after listen; the Host/Origin guard reads it. */
  listenPort?: number;
  /** Valuations through the worker pool (issue 4); absent in tests that do not value. */
  valuation?: ValuationService;
  /** Run by the server's close() after the listener stops and before the store closes (e.g. the audit's last batch). */
  closeHooks?: Array<() => Promise<void>>;
};
