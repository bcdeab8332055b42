// What the application layer is handed at start-up (and the doors through it): configuration, storage, logger, clock,
// the valuation engine (a worker pool), the shared rate limiter, the metrics and the shutdown signal.
import type { RateLimiter } from '../auth/limiter.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { OpsBackend } from '../store/ops-backend.js';
import type { StateBackend } from '../store/backend.js';
import type { Store } from '../store/store.js';
import type { SnapshotFollower } from '../store/shared/follower.js';
import type { Engine } from './engine.js';
import type { ServiceMetrics } from './metrics.js';

export type ServiceContext = {
  config: Config;
  store: Store;
  log: Logger;
  /** Injectable clock (tests fake it). */
  now: () => Date;
  /** The one rate limiter of both doors; created when absent (tests inject one with their own clock). */
  limiter?: RateLimiter;
  /** The port actually listened on (port 0 in tests), set after listen; the Host/Origin guard reads it. */
  listenPort?: number;
  /** The valuation engine; absent in tests that do not value (its operations then answer 501 not_implemented). */
  engine?: Engine;
  /** The Prometheus registry and its recorders (/metrics); created by createApp when absent. */
  metrics?: ServiceMetrics;
  /** Aborted when the service starts draining at shutdown: open event streams end cleanly on it. */
  shutdown?: AbortSignal;
  /** Run by the server's close() after the listener stops and before the store closes (e.g. the audit's last batch). */
  closeHooks?: Array<() => Promise<void>>;
  /** A replica's follower of the shared snapshot pointer (AVM_DATABASE_URL + AVM_SNAPSHOT_DIR); health reports it. */
  snapshotFollower?: Pick<SnapshotFollower, 'status'>;
  /** Where keys, audit, user state and the event stream live (LMDB or PostgreSQL); opened from store.env when absent. */
  backend?: StateBackend;
  /** Alert outbox, daily-run lock, shared limiter and model registry (LMDB or PostgreSQL, store/ops-backend.ts); LMDB when absent. */
  ops?: OpsBackend;
};
