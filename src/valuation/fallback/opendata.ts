// The open-data comp source: Cook County assessor datasets over Socrata SODA at config.opendataBaseUrl. Finds PINs
// within radius_mi (parcel universe, lat/lon box then haversine), their sales in the lookback window and their
// characteristics, and returns them as snapshot-shaped columns the same kernel/reference can value.
import { AppError } from '../../errors/app-error.js';
import { ccaoClassPtype } from '../../ingest/loaders/classes.js';
import { FALLBACK } from '../../registry/groups/fallback.js';
import { EARTH_RADIUS_MI, haversineMi } from '../../reference/geo.js';
import { encodeSales } from '../../store/arrow-tables.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import { getJson } from './http-get.js';
import { normalizeOpendata, type SodaRow } from './normalize.js';
import { charsQuery, salesQuery, sodaUrl, universeQuery, type SodaParams } from './soda.js';

export type OpendataSubject = { lat: number; lon: number; asOfDay: number };
export type OpendataConfig = { opendataBaseUrl: string; radiusMi?: number; lookbackDays?: number; connectTimeoutMs?: number; requestTimeoutMs?: number; tracts?: readonly string[] };
export type OpendataComps = { columns: SalesColumns; fieldsMissing: string[]; requests: number; dropped: Record<string, number>; parcelsInRadius: number };

/** Miles per degree of latitude on the haversine sphere; the box is then trimmed by exact haversine. */
const MI_PER_DEG_LAT = (Math.PI * EARTH_RADIUS_MI) / 180;

async function fetchRows(cfg: OpendataConfig, dataset: string, q: SodaParams, count: { n: number }): Promise<SodaRow[]> {
  count.n++;
  const body = await getJson(sodaUrl(cfg.opendataBaseUrl, dataset, q), {
    connectTimeoutMs: cfg.connectTimeoutMs ?? FALLBACK.v.connect_timeout_ms,
    requestTimeoutMs: cfg.requestTimeoutMs ?? FALLBACK.v.request_timeout_ms,
  });
  if (!Array.isArray(body)) throw new AppError('opendata_unreachable', `open-data ${dataset} reply is not a JSON array`, { details: { reason: 'not an array' } });
  return body as SodaRow[];
}

function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** Comps from the open-data portal around a Cook subject. Throws opendata_unreachable when the portal cannot be reached. */
export async function fetchOpendataComps(subject: OpendataSubject, cfg: OpendataConfig): Promise<OpendataComps> {
  const radiusMi = cfg.radiusMi ?? FALLBACK.v.radius_mi;
  const dLat = radiusMi / MI_PER_DEG_LAT, dLon = dLat / Math.cos((subject.lat * Math.PI) / 180);
  const count = { n: 0 };
  const box = { minLat: subject.lat - dLat, maxLat: subject.lat + dLat, minLon: subject.lon - dLon, maxLon: subject.lon + dLon };
  const universe = (await fetchRows(cfg, FALLBACK.v.dataset_universe, universeQuery(box), count)).filter(
    (u) => haversineMi(subject.lat, subject.lon, Number(u.lat), Number(u.lon)) <= radiusMi,
  );
  const pins = [...new Set(universe.map((u) => (u.pin ?? '').replace(/\D/g, '')).filter((p) => p.length === 14))].sort();
  const fromDay = subject.asOfDay - (cfg.lookbackDays ?? FALLBACK.v.lookback_days);
  const sales: SodaRow[] = [], chars: SodaRow[] = [];
  for (const part of chunks(pins, FALLBACK.v.pins_per_request)) {
    sales.push(...(await fetchRows(cfg, FALLBACK.v.dataset_sales, salesQuery(part, fromDay, subject.asOfDay), count)));
  }
  // characteristics only for PINs that sold with a 1-4 unit residential class (the rest is dropped by normalize)
  const soldPins = [...new Set(sales.filter((s) => ccaoClassPtype(s.class ?? '') !== null).map((s) => (s.pin ?? '').replace(/\D/g, '')))].filter((p) => p.length === 14).sort();
  for (const part of chunks(soldPins, FALLBACK.v.pins_per_request)) chars.push(...(await fetchRows(cfg, FALLBACK.v.dataset_chars, charsQuery(part), count)));
  const n = normalizeOpendata(universe, sales, chars, cfg.tracts ?? []);
  return { columns: n.columns, fieldsMissing: n.fieldsMissing, requests: count.n, dropped: n.dropped, parcelsInRadius: pins.length };
}

/** The open-data comps as Arrow IPC with exactly the snapshot columns (for the kernel door or a worker transfer). */
export function opendataSalesIpc(c: SalesColumns): Uint8Array {
  return encodeSales({ ...c, pins: c.pin }, c.tracts);
}
