import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { listAlerts } from '../../src/alerts/outbox.js';
import type { AlertPayload } from '../../src/alerts/payload.js';
import { verifyAlertSignature } from '../../src/alerts/verify.js';
import { startReceiver, tempStore, type Receiver, type TempStore } from './support.js';

const COUNT = 12;
const FAILING = 'L3'; // the receiver always answers 500 for this listing: it must end dead-lettered
const KILL_ON = 'L6'; // the first request for this listing SIGKILLs the child before any answer

function runChild(dir: string, url: string, onSpawn: (c: ChildProcess) => void = () => {}): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/alerts/fixtures/crash-deliverer.ts', dir, url, String(COUNT)], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  onSpawn(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out })));
}

function keyOf(body: string): string {
  const m = (JSON.parse(body) as AlertPayload).matches[0];
  return `${m.listing_id}:${m.price}`;
}

let t: TempStore | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  await t?.close();
});

describe('outbox durability across SIGKILL mid-batch', () => {
  it('ends with every alert delivered once (to a deduping receiver) or dead-lettered; none lost', async () => {
    t = tempStore();
    await t.store.env.close(); // the child processes own the environment while they run
    let child: ChildProcess | undefined;
    let killed = false;
    let run = 1;
    const raw = [new Map<string, number>(), new Map<string, number>()]; // requests per (listing_id, price), per child run
    const actedOn = new Set<string>(); // the deduping receiver acts on the first 2xx-acknowledged copy of a key only
    const bump = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);
    rx = await startReceiver((_n, r) => {
      if (!verifyAlertSignature(r.body, r.headers, 'crash_secret_0123456789', Math.floor(Date.now() / 1000)).ok) return { kind: 'status', status: 401 };
      const m = (JSON.parse(r.body) as AlertPayload).matches[0];
      const key = `${m.listing_id}:${m.price}`;
      bump(raw[run - 1], key);
      if (m.listing_id === KILL_ON && !killed) {
        killed = true;
        child!.kill('SIGKILL');
        return { kind: 'hang' };
      }
      if (m.listing_id === FAILING) return { kind: 'status', status: 500, body: 'receiver refuses L3' };
      actedOn.add(key);
      return { kind: 'status', status: 200 };
    });

    const first = await runChild(t.dir, rx.url, (c) => (child = c));
    expect(first.signal).toBe('SIGKILL');
    // What the killed run had recorded delivered must never be sent again.
    const { openEnv } = await import('../../src/store/env.js');
    const { openAlertStore } = await import('../../src/alerts/store.js');
    const midEnv = openEnv(t.dir);
    const deliveredBeforeKill = listAlerts(openAlertStore(midEnv)).filter((a) => a.state === 'delivered').map((a) => keyOf(a.body));
    await midEnv.close();
    expect(deliveredBeforeKill.length).toBeGreaterThan(0);
    expect(deliveredBeforeKill.length).toBeLessThan(COUNT - 1);
    run = 2;
    const second = await runChild(t.dir, rx.url);
    expect(second.code, second.out).toBe(0);

    t.store = openAlertStore(openEnv(t.dir));
    const alerts = listAlerts(t.store);
    expect(alerts).toHaveLength(COUNT); // none lost, none duplicated in the outbox
    const delivered = alerts.filter((a) => a.state === 'delivered').map((a) => keyOf(a.body));
    const dead = alerts.filter((a) => a.state === 'dead_lettered');
    expect(delivered.length + dead.length).toBe(COUNT);
    expect(dead.map((a) => keyOf(a.body))).toEqual(['L3:103000']);
    expect(dead[0].dead_letter).toBe('http_500: receiver refuses L3');
    // The deduping receiver acted on exactly the delivered alerts: nothing delivered went unseen, nothing extra arrived.
    expect([...actedOn].sort()).toEqual([...delivered].sort());
    // Nothing recorded delivered before the kill was sent by the restarted process.
    for (const k of deliveredBeforeKill) expect(raw[1].get(k) ?? 0, k).toBe(0);
    // The alert in flight at the kill was re-sent after restart (the at-least-once window), same body, new round.
    expect(raw[0].get('L6:106000')).toBe(1);
    expect(raw[1].get('L6:106000')).toBe(1);
    expect(alerts.find((a) => keyOf(a.body) === 'L6:106000')!.rounds).toBe(2);
  });
});
