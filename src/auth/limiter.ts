// The rate-limit core, free of HTTP: anonymous sliding-window log per IP bucket, token bucket per key.
// Shared by the REST and MCP doors; the clock is injected so tests drive it with fake timers.
import { AUTH_LIMITS } from '../registry/groups/auth.js';

export type LimitSubject = { kind: 'ip'; subject: string } | { kind: 'key'; keyId: string; rpm: number };

/** `resetSec`: seconds until the full quota is back; `retryAfterSec`: seconds until the next call would pass (0 if now). */
export type LimitDecision = { allowed: boolean; limit: number; remaining: number; resetSec: number; retryAfterSec: number; windowSec: number };

export type Limiter = { check(subject: LimitSubject): LimitDecision; size(): number };

/**
 * What the doors draw on: the in-memory Limiter (LMDB / single replica, decides synchronously) or the limiter shared
 * by all replicas through PostgreSQL (limiter-pg.ts, decides with one round trip).
 */
export type RateLimiter = { check(subject: LimitSubject): LimitDecision | Promise<LimitDecision> };

export type LimiterOptions = { now?: () => number; anonLimit?: number; anonWindowMs?: number; maxEntries?: number };

type Entry = { kind: 'log'; stamps: number[] } | { kind: 'bucket'; tokens: number; atMs: number; rpm: number };

/**
 * Anonymous: a sliding-window log, so no 60 s window ever holds more than `anonLimit` calls (a fixed window lets
 * 2x through across a boundary). It keeps at most `anonLimit` timestamps per bucket, so memory per IP is bounded.
 * Keyed: a token bucket of capacity `rpm` refilled at rpm/60 tokens per second.
 * Memory: at most `maxEntries` subjects, least recently used evicted first after a sweep of idle ones.
 */
export function createLimiter(opts: LimiterOptions = {}): Limiter {
  const now = opts.now ?? Date.now;
  const limit = opts.anonLimit ?? AUTH_LIMITS.v.anon_calls_per_window;
  const windowMs = opts.anonWindowMs ?? AUTH_LIMITS.v.anon_window_ms;
  const maxEntries = opts.maxEntries ?? AUTH_LIMITS.v.limiter_max_entries;
  const entries = new Map<string, Entry>();
  let lastSweepMs = -Infinity;

  const touch = (id: string, make: () => Entry): Entry => {
    const e = entries.get(id) ?? make();
    entries.delete(id); // re-insert so Map order is least-recently-used first
    entries.set(id, e);
    return e;
  };
  const evict = (nowMs: number): void => {
    if (entries.size <= maxEntries) return;
    if (nowMs - lastSweepMs >= windowMs) {
      lastSweepMs = nowMs;
      for (const [id, e] of entries) if (isIdle(e, nowMs, windowMs)) entries.delete(id);
    }
    // Evict down to a low-water mark in one pass: evicting one entry per call rescans the Map's deleted slots each time.
    const lowWater = Math.floor(maxEntries * AUTH_LIMITS.v.limiter_evict_to_frac);
    for (const id of entries.keys()) {
      if (entries.size <= lowWater) break;
      entries.delete(id);
    }
  };

  return {
    check(s) {
      const nowMs = now();
      const decision =
        s.kind === 'ip'
          ? checkLog(touch(`ip:${s.subject}`, () => ({ kind: 'log', stamps: [] })) as Extract<Entry, { kind: 'log' }>, nowMs, limit, windowMs)
          : checkBucket(touch(`key:${s.keyId}`, () => ({ kind: 'bucket', tokens: s.rpm, atMs: nowMs, rpm: s.rpm })) as Extract<Entry, { kind: 'bucket' }>, nowMs, s.rpm);
      evict(nowMs);
      return decision;
    },
    size: () => entries.size,
  };
}

function checkLog(e: { stamps: number[] }, nowMs: number, limit: number, windowMs: number): LimitDecision {
  while (e.stamps.length > 0 && e.stamps[0] <= nowMs - windowMs) e.stamps.shift();
  const allowed = e.stamps.length < limit;
  if (allowed) e.stamps.push(nowMs);
  const oldest = e.stamps[0] ?? nowMs;
  const newest = e.stamps.at(-1) ?? nowMs;
  return {
    allowed,
    limit,
    remaining: limit - e.stamps.length,
    resetSec: secondsCeil(newest + windowMs - nowMs),
    retryAfterSec: allowed ? 0 : Math.max(1, secondsCeil(oldest + windowMs - nowMs)),
    windowSec: windowMs / 1000,
  };
}

function checkBucket(e: { tokens: number; atMs: number; rpm: number }, nowMs: number, rpm: number): LimitDecision {
  const perMs = rpm / 60_000;
  if (e.rpm !== rpm) {
    e.rpm = rpm; // the key's limit changed: keep the level but never above the new capacity
    e.tokens = Math.min(e.tokens, rpm);
  }
  e.tokens = Math.min(rpm, e.tokens + Math.max(0, nowMs - e.atMs) * perMs);
  e.atMs = nowMs;
  const allowed = e.tokens >= 1;
  if (allowed) e.tokens -= 1;
  return {
    allowed,
    limit: rpm,
    remaining: Math.floor(e.tokens),
    resetSec: secondsCeil((rpm - e.tokens) / perMs),
    retryAfterSec: allowed ? 0 : Math.max(1, secondsCeil((1 - e.tokens) / perMs)),
    windowSec: 60,
  };
}

function isIdle(e: Entry, nowMs: number, windowMs: number): boolean {
  if (e.kind === 'log') return (e.stamps.at(-1) ?? -Infinity) <= nowMs - windowMs;
  return e.tokens + (nowMs - e.atMs) * (e.rpm / 60_000) >= e.rpm;
}

function secondsCeil(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
