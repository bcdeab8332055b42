// Load on the REST door: GET /api/underwrite at a fixed arrival rate against the service started as its own process on
// loopback, with an API key so the anonymous 30/min limit does not apply. Targets, each its own run: issue 7, p99 ≤ 10
// ms at 200 requests/s; issue 17, p99 ≤ 5 ms at 500 requests/s (the open model); 0 errors, 2 cores, 60 s.
// Writes bench/results/load.json.
// Two load tools, in the same run against the same server: Vegeta's constant-rate attack (an open model: a request
// starts every 1/rate s whatever the earlier ones are doing, more workers joining when all are busy; the figure the
// targets are judged on) when a `vegeta` binary is found (VEGETA_BIN, PATH or ~/go/bin; `go install
// github.com/tsenart/vegeta/v12@v12.13.0` builds it; MIT), and autocannon's `overallRate`, which is a closed model:
// each connection sends its share of the second back to back, then waits for the next second, so 200 requests arrive
// as one burst per second at a concurrency of CONNECTIONS. (k6, which the issue named and this bench used until
// 2026-11-28, is under the AGPL, which the workplace's package policy does not allow.)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { writeBenchResult } from './results-file.js';
import { CLI, CLOSED_OPENDATA_URL, freePort, processCpuMs, waitHealthy } from './server-support.js';

/** The judged rates and their targets; autocannon runs beside Vegeta at the first one only. */
const LEVELS = [
  { issue: 7, rate_per_sec: 200, p99_ms_max: 10 },
  { issue: 17, rate_per_sec: 500, p99_ms_max: 5 },
] as const;
type Level = (typeof LEVELS)[number];
const DURATION_SEC = 60;
const CONNECTIONS = 20;
/** Unmeasured seconds at the target rate first: pool start, snapshot load and JIT compilation happen before timing. */
const WARMUP_SEC = 5;
/** Key rpm (the cap a key may have) well above 500/s × 60 = 30,000 so the token bucket never refuses during the run. */
const KEY_RPM = 100_000;

/** 40 subjects on a grid over the city part of Cook County (41.70-41.98 N, 87.60-87.80 W), units 2, price $300k. */
function subjectPaths(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 8; i++) for (let j = 0; j < 5; j++) {
    out.push(`/api/underwrite?lat=${(41.7 + i * 0.04).toFixed(4)}&lon=${(-87.8 + j * 0.05).toFixed(4)}&price=300000&units=2`);
  }
  return out;
}

function vegetaBinary(): string | null {
  const candidates = [process.env.VEGETA_BIN, 'vegeta', join(homedir(), 'go', 'bin', 'vegeta')].filter((c): c is string => Boolean(c));
  for (const c of candidates) if ((c === 'vegeta' || existsSync(c)) && spawnSync(c, ['-version'], { stdio: 'ignore' }).status === 0) return c;
  return null;
}

type Measured = { tool: string; model: string; requests: number; latency_ms: { p50: number; p90: number; p99: number; max: number }; errors: number; dropped: number };

/** Vegeta's JSON report (latencies in ns). */
type VegetaReport = { requests: number; latencies: Record<'50th' | '90th' | '99th' | 'max', number>; status_codes: Record<string, number> };

/**
 * One Vegeta attack of `seconds` at the target rate over the bench's subjects (round robin), then its report. Up to
 * 4 × CONNECTIONS workers, as many as the rate needs while earlier requests are still out. A request not sent is
 * `dropped` (the achieved count below rate × seconds); one not answered 200 is an error. Response bodies are not kept
 * (`-max-body=0`): kept, they wrote ~430 MB to disk during a 500/s run, on the cores the server runs on.
 */
function runVegeta(bin: string, base: string, token: string, seconds: number, rate: number): Measured {
  const dir = mkdtempSync(join(tmpdir(), 'avm-vegeta-'));
  try {
    const targets = join(dir, 'targets.txt');
    writeFileSync(targets, subjectPaths().map((path) => `GET ${base}${path}\nAuthorization: Bearer ${token}\n`).join('\n'));
    const results = join(dir, 'results.bin');
    const attack = spawnSync(bin, ['attack', '-format=http', `-targets=${targets}`, `-rate=${rate}/1s`, `-duration=${seconds}s`, `-workers=${CONNECTIONS}`, `-max-workers=${4 * CONNECTIONS}`, '-max-body=0', '-timeout=30s', `-output=${results}`], { encoding: 'utf8' });
    if (attack.status !== 0) throw new Error(`vegeta attack failed (${attack.status}): ${attack.stderr}`);
    const report = spawnSync(bin, ['report', '-type=json', results], { encoding: 'utf8' });
    if (report.status !== 0) throw new Error(`vegeta report failed (${report.status}): ${report.stderr}`);
    const r = JSON.parse(report.stdout) as VegetaReport;
    const ms = (ns: number) => +(ns / 1e6).toFixed(2);
    return {
      tool: 'vegeta constant-rate attack', model: 'open (fixed arrival rate)', requests: r.requests,
      latency_ms: { p50: ms(r.latencies['50th']), p90: ms(r.latencies['90th']), p99: ms(r.latencies['99th']), max: ms(r.latencies.max) },
      errors: r.requests - (r.status_codes['200'] ?? 0), dropped: Math.max(0, rate * seconds - r.requests),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runAutocannon(base: string, token: string, seconds: number, rate: number): Promise<Measured> {
  const requests = subjectPaths().map((path) => ({ method: 'GET', path }));
  const r = await autocannon({ url: base, connections: CONNECTIONS, duration: seconds, overallRate: rate, headers: { authorization: `Bearer ${token}` }, requests });
  return {
    tool: 'autocannon overallRate', model: `closed (one burst per second at ${CONNECTIONS} connections)`, requests: r.requests.total,
    latency_ms: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max }, errors: r.errors + r.timeouts + r.non2xx, dropped: 0,
  };
}

/** Runs `measure` and records what the service spent per request meanwhile (all threads, and the main thread alone). */
async function withCpu(pid: number, level: Level, measure: () => Promise<Measured>): Promise<Measured & Record<string, unknown>> {
  const load0 = loadavg()[0];
  const cpu0 = { all: processCpuMs(pid), main: processCpuMs(pid, true) };
  const m = await measure();
  const cpu1 = { all: processCpuMs(pid), main: processCpuMs(pid, true) };
  const per = (a: number | null, b: number | null) => (a === null || b === null ? null : +((b - a) / m.requests).toFixed(3));
  return {
    ...m, issue: level.issue, rate_per_sec_target: level.rate_per_sec, p99_ms_max: level.p99_ms_max, achieved_rate_per_sec: +(m.requests / DURATION_SEC).toFixed(1),
    server_cpu_ms_per_request: per(cpu0.all, cpu1.all), server_main_thread_cpu_ms_per_request: per(cpu0.main, cpu1.main),
    load_average_1m: { before: +load0.toFixed(2), after: +loadavg()[0].toFixed(2) },
    meets_target: m.latency_ms.p99 <= level.p99_ms_max && m.errors === 0 && m.dropped === 0,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const env = { ...process.env, AVM_LOG_LEVEL: 'error', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL };
  const created = execFileSync(process.execPath, [CLI, 'keys', 'create', '--scopes', 'read,underwrite', '--rpm', String(KEY_RPM), '--label', 'load-bench'], { env, encoding: 'utf8' });
  const token = /API key[^:]*: (\S+)/.exec(created)?.[1];
  if (!token) throw new Error(`could not read the key from: ${created}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...env, HOST: '127.0.0.1', PORT: String(port) }, stdio: 'inherit' });
  try {
    await waitHealthy(base, child, 600_000);
    const vegeta = vegetaBinary();
    // Warm-up: one call starts the worker pool, then a few seconds at the target rate reach every worker, build each
    // worker's context and compile the hot code before anything is timed.
    await fetch(`${base}${subjectPaths()[0]}`, { headers: { authorization: `Bearer ${token}` } });
    await runAutocannon(base, token, WARMUP_SEC, LEVELS[0].rate_per_sec);
    const runs: Array<Awaited<ReturnType<typeof withCpu>>> = [];
    for (const level of LEVELS) {
      if (vegeta) runs.push(await withCpu(child.pid!, level, async () => runVegeta(vegeta, base, token, DURATION_SEC, level.rate_per_sec)));
      if (!vegeta || level === LEVELS[0]) runs.push(await withCpu(child.pid!, level, () => runAutocannon(base, token, DURATION_SEC, level.rate_per_sec)));
    }
    // Each level is judged by its first run (Vegeta when found: the open model the targets speak of).
    const judged = LEVELS.map((level) => runs.find((r) => r.issue === level.issue)!);
    const result = {
      endpoint: 'GET /api/underwrite',
      duration_sec: DURATION_SEC,
      subjects: subjectPaths().length,
      vegeta_found: vegeta !== null,
      levels: LEVELS,
      runs,
      judged: judged.map((r) => ({ issue: r.issue, tool: r.tool, rate_per_sec: r.rate_per_sec_target, p99_ms: r.latency_ms.p99, p99_ms_max: r.p99_ms_max, errors: r.errors, meets_target: r.meets_target })),
      meets_target: judged.every((r) => r.meets_target),
    };
    writeBenchResult('load', result);
    return result;
  } finally {
    child.kill('SIGTERM');
  }
}
