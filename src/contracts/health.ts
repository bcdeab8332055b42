// GET /api/health: liveness plus the two storage binding checks and the listings-run summary.
import { z } from 'zod';

export const BindingCheckSchema = z.object({ ok: z.boolean(), detail: z.string() });
export type BindingCheck = z.infer<typeof BindingCheckSchema>;

export const LastRunSchema = z.object({
  kind: z.string(),
  finished: z.string().nullable(),
  found: z.number().int().nonnegative(),
  new_count: z.number().int().nonnegative(),
});
export type LastRun = z.infer<typeof LastRunSchema>;

/** A replica of a shared snapshot folder: the snapshot it serves and the one the shared pointer names. */
export const SharedSnapshotSchema = z.object({
  replica_id: z.string(),
  serving: z.string().nullable(),
  pointer: z.string().nullable(),
  listening: z.boolean(),
  last_check: z.string().nullable(),
  last_error: z.string().nullable(),
  /** Every replica's last report (as of this one's last check): the snapshot each serves. */
  replicas: z.array(z.object({ replica_id: z.string(), snapshot_id: z.string().nullable(), detail: z.string(), seen_at: z.string() })),
});

export const HealthSchema = z.object({
  ok: z.boolean(),
  bindings: z.object({ lmdb: BindingCheckSchema, sales_snapshot: BindingCheckSchema }),
  last_run: LastRunSchema.nullable(),
  active_listings: z.number().int().nonnegative(),
  stale_model_rows: z.number().int().nonnegative(),
  model_version: z.string(),
  corpus_vintage: z.string().nullable(),
  /** Present on a replica following a shared snapshot pointer (AVM_DATABASE_URL + AVM_SNAPSHOT_DIR). */
  shared_snapshot: SharedSnapshotSchema.optional(),
});
export type Health = z.infer<typeof HealthSchema>;
