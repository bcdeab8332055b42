// Real GET /api/property bodies for the evidence-panel tests, one per display-ladder outcome, from running services:
// the served corpus (hedonic fitted, every segment calibrated to a point) answers points, Tier-1 ranges, Tier-2 ranges
// and suppressions; the plain small corpus (no hedonic model) demotes to area context where Tier 1 fails.
import { startService, type ServiceHandle } from '../../src/server.js';
import { roomyLimiter } from '../mcp/support.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { parcelPoints, servedCorpusDir } from '../support/served-corpus.js';

export type Json = Record<string, any>; // parsed bodies
export type Found = { query: string; body: Json };

export const outcomeOf = (b: Json): string => b.investor?.valuation?.display?.outcome ?? 'refusal';

/** Every `stride`-th parcel point asked for by lat/lon (its recorded units, else 1) until each wanted outcome is seen. */
export async function answersByOutcome(service: ServiceHandle, dataDir: string, wanted: readonly string[], stride = 7): Promise<Map<string, Found>> {
  const found = new Map<string, Found>();
  const points = await parcelPoints(dataDir);
  for (let i = 0; i < points.length && found.size < wanted.length; i += stride) {
    const p = points[i];
    const query = `lat=${p.lat}&lon=${p.lon}&units=${p.units > 0 ? p.units : 1}`;
    const res = await fetch(`${service.url}/api/property?${query}`);
    const body = (await res.json()) as Json;
    const outcome = outcomeOf(body);
    if (res.status === 200 && wanted.includes(outcome) && !found.has(outcome)) found.set(outcome, { query, body });
  }
  return found;
}

/** The first of every `stride`-th parcel point whose 200 answer satisfies `pred` (e.g. a point moved by its own earlier sale). */
export async function answerWhere(service: ServiceHandle, dataDir: string, pred: (b: Json) => boolean, stride = 3): Promise<Found | null> {
  const points = await parcelPoints(dataDir);
  for (let i = 0; i < points.length; i += stride) {
    const p = points[i];
    const query = `lat=${p.lat}&lon=${p.lon}&units=${p.units > 0 ? p.units : 1}`;
    const res = await fetch(`${service.url}/api/property?${query}`);
    const body = (await res.json()) as Json;
    if (res.status === 200 && pred(body)) return { query, body };
  }
  return null;
}

/** The two services and their data dirs. */
export async function startPanelServices(): Promise<{ served: ServiceHandle; servedDir: string; plain: ServiceHandle; plainDir: string }> {
  const servedDir = await servedCorpusDir();
  const plainDir = await smallCorpusDir();
  const opts = { installSignalHandlers: false, limiter: roomyLimiter() };
  const [served, plain] = await Promise.all([startService(testConfig(servedDir), opts), startService(testConfig(plainDir), opts)]);
  return { served, servedDir, plain, plainDir };
}
