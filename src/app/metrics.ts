// The service's Prometheus metrics (prom-client), one registry per started service: request latency, rate-limit
// refusals, the worker pool, the listings run, stale listing rows, alert outcomes and the default process metrics.
// Metric names and labels are bounded: operations come from operationNameOf, never a raw path or a caller id.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AlertOutcome } from '../alerts/index.js';
import type { ListingsRunResult } from '../listings/index.js';
import { kernelChoice } from '../kernel/index.js';
import { DOORS } from '../registry/groups/doors.js';
import { MODEL_VERSION } from '../registry/versions.js';
import type { Store } from '../store/store.js';
import type { PoolStats } from '../workers/pool.js';
import type { Engine } from './engine.js';

export type Door = 'rest' | 'mcp';

export type ServiceMetrics = {
  registry: Registry;
  observeRequest(operation: string, status: number, durationSec: number): void;
  countRateLimitRefusal(door: Door): void;
  observeListingsRun(outcome: { ok: true; result: ListingsRunResult; finishedAtSec: number } | { ok: false; durationSec: number; finishedAtSec: number }): void;
  countAlertOutcome(outcome: AlertOutcome): void;
};

const statusClassOf = (status: number): string => `${Math.floor(status / 100)}xx`;

/** `engine` and `store` are read at scrape time (pool gauges, stale rows), so a scrape always reports the present. */
export function createServiceMetrics(deps: { store: Store; engine?: Engine }): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const latency = new Histogram({ name: 'avm_http_request_duration_seconds', help: 'Time from request arrival to the end of its response, by operation and status class', labelNames: ['operation', 'status_class'], buckets: [...DOORS.v.latency_buckets_s], registers });
  const refusals = new Counter({ name: 'avm_rate_limit_refusals_total', help: 'Requests refused 429 rate_limited, by door', labelNames: ['door'], registers });
  const pool = (pick: (s: PoolStats) => number) =>
    function (this: Gauge) {
      const s = deps.engine?.poolStats?.() ?? null;
      this.set(s ? pick(s) : 0);
    };
  new Gauge({ name: 'avm_pool_queue_depth', help: 'Valuation tasks waiting in the Piscina queue (0 before the pool starts)', registers, collect: pool((s) => s.queueSize) });
  new Gauge({ name: 'avm_pool_utilization_ratio', help: 'Piscina utilization: worker run time over capacity since the pool started (0..1)', registers, collect: pool((s) => s.utilization) });
  new Gauge({ name: 'avm_pool_tasks_in_flight', help: 'Valuation tasks submitted and not settled (running plus queued); the 503 pool_queue_full bound applies to it', registers, collect: pool((s) => s.inFlight) });
  new Gauge({ name: 'avm_kernel_info', help: 'Comp kernel front-end this process runs (AVM_KERNEL; value 1)', labelNames: ['front_end'], registers }).set({ front_end: kernelChoice().frontEnd }, 1);
  new Gauge({ name: 'avm_pool_threads', help: 'Worker threads alive', registers, collect: pool((s) => s.threads) });
  const runs = new Counter({ name: 'avm_listings_runs_total', help: 'Listings runs finished by this process, by outcome', labelNames: ['outcome'], registers });
  const lastRunAt = new Gauge({ name: 'avm_listings_last_run_timestamp_seconds', help: 'When the last listings run of this process finished (Unix time), by outcome', labelNames: ['outcome'], registers });
  const lastRunDuration = new Gauge({ name: 'avm_listings_last_run_duration_seconds', help: 'Wall time of the last listings run of this process', registers });
  const lastRunRows = new Gauge({ name: 'avm_listings_last_run_rows', help: 'Rows of the last successful listings run, by kind (feed, duplicates, overflow, active, scored, unscored, errors)', labelNames: ['kind'], registers });
  new Gauge({
    name: 'avm_listings_stale_model_rows',
    help: `Active listing rows valued by another model version than the serving one (health's stale_model_rows)`,
    registers,
    collect() {
      this.set(deps.store.listingsSummary(MODEL_VERSION).staleModelRows);
    },
  });
  const alerts = new Counter({ name: 'avm_alert_outcomes_total', help: 'Alert delivery attempts by outcome: delivered, retried (a failed attempt another follows), dead_lettered', labelNames: ['outcome'], registers });
  for (const o of ['success', 'failure']) runs.inc({ outcome: o }, 0);
  for (const o of ['delivered', 'retried', 'dead_lettered']) alerts.inc({ outcome: o }, 0);
  for (const d of ['rest', 'mcp']) refusals.inc({ door: d }, 0);

  return {
    registry,
    observeRequest: (operation, status, durationSec) => latency.observe({ operation, status_class: statusClassOf(status) }, durationSec),
    countRateLimitRefusal: (door) => refusals.inc({ door }),
    observeListingsRun(o) {
      const outcome = o.ok ? 'success' : 'failure';
      runs.inc({ outcome });
      lastRunAt.set({ outcome }, o.finishedAtSec);
      if (!o.ok) return lastRunDuration.set(o.durationSec);
      const r = o.result;
      lastRunDuration.set(r.wall_ms / 1000);
      const rows = { feed: r.feed_rows, duplicates: r.duplicates, overflow: r.overflow, active: r.active, scored: r.scored, unscored: r.unscored, errors: r.errors };
      for (const [kind, n] of Object.entries(rows)) lastRunRows.set({ kind }, n);
    },
    countAlertOutcome: (outcome) => alerts.inc({ outcome }),
  };
}
