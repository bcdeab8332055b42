// About 200 active listings on generated parcels, with synthetic street addresses, a few re-listed under a second id
// (same address) so dedupe has work, and their price history. Most are priced a little over their as-is value; a
// share of the distressed and dated ones are forced or motivated sales (bank-owned, short, estate) priced below it.
// True values and the sale type go to truth/listings_truth.csv.
import { join } from 'node:path';
import { GENERATOR } from '../../registry/groups/generator.js';
import { LISTINGS, LISTING_HISTORY } from '../layouts.js';
import { PT_CONDO, PT_MF } from './buildings.js';
import { CsvOut, headerFor } from './csv-out.js';
import { isoOfDay } from '../../store/days.js';
import type { Rng } from './rng.js';
import { condAt, valueUsd, type SalesCtx } from './sales.js';
import { CONDITION_NAMES, COND_NEW, COND_RENOVATED, repairCostUsd } from './surface.js';

const G = GENERATOR.v;
const OPTIONAL = ['pin', 'units', 'beds', 'sqft', 'year_built', 'property_type', 'condition', 'county'];
const PTYPE_TEXT = ['sfh', 'mf2_4', 'condo'];
const STREETS = ['Oak', 'Maple', 'Elm', 'Cedar', 'Walnut', 'Linden', 'Hickory', 'Chestnut', 'Willow', 'Birch', 'Spruce', 'Ash', 'Poplar', 'Sycamore', 'Hawthorne', 'Juniper'];
const SUFFIXES = ['St', 'Ave', 'Blvd', 'Ct', 'Pl', 'Dr'];
/** Chicago's address grid: 800 house numbers per mile from State and Madison (41.8819, -87.6278). */
const GRID_ORIGIN = { lat: 41.8819, lon: -87.6278 }, NUMBERS_PER_MI = 800, MI_PER_DEG = 69.09;

type SaleType = 'market' | 'forced';
type Listing = { id: string; parcel: number; address: string; priceUsd: number; saleType: SaleType; listDay: number; events: Array<[number, string, number]> };

const listRound = (x: number): number => Math.max(Math.round(x / 5000) * 5000 - 100, 9_900);

function addressOf(c: SalesCtx, i: number, unitNo: number): string {
  const r = c.rng, p = c.p;
  const northSouth = r.chance(0.5);
  const offsetMi = northSouth ? Math.abs(p.lat[i] - GRID_ORIGIN.lat) * MI_PER_DEG : Math.abs(p.lon[i] - GRID_ORIGIN.lon) * MI_PER_DEG * 0.745;
  const number = Math.max(2, Math.round((offsetMi * NUMBERS_PER_MI) / 2) * 2 + r.int(0, 1));
  const dir = northSouth ? (p.lat[i] >= GRID_ORIGIN.lat ? 'N' : 'S') : p.lon[i] >= GRID_ORIGIN.lon ? 'E' : 'W';
  const street = `${number} ${dir} ${STREETS[r.int(0, STREETS.length - 1)]} ${SUFFIXES[r.int(0, SUFFIXES.length - 1)]}`;
  return p.ptype[i] === PT_CONDO ? `${street} Unit ${unitNo}` : street;
}

/** Distinct parcels by the listings type mix (rejection sampling over the table). */
function pickParcels(c: SalesCtx, n: number): number[] {
  const want = G.listings_ptype_mix.map((s) => Math.round(s * n));
  want[0] += n - want.reduce((a, b) => a + b, 0);
  const chosen = new Set<number>();
  const got = [0, 0, 0];
  for (let tries = 0; chosen.size < n && tries < n * 10_000; tries++) {
    const i = c.rng.int(0, c.p.n - 1);
    const pt = c.p.ptype[i] === PT_MF ? 1 : c.p.ptype[i] === PT_CONDO ? 2 : 0;
    if (got[pt] >= want[pt] || chosen.has(i)) continue;
    chosen.add(i);
    got[pt]++;
  }
  return [...chosen];
}

/**
 * Whether listing i is a forced or motivated sale, and its list price over the as-is value when it is. Drawn from its
 * own stream (`motive`) so every other listing keeps the price, address and history it had without this draw.
 */
function forcedSaleLog(motive: Rng, cond: number): number | null {
  if (!motive.chance(G.listing_forced_sale_share[cond])) return null;
  return G.listing_forced_sale_log_mean[cond] + G.listing_forced_sale_log_sd[cond] * motive.normal();
}

function makeListing(c: SalesCtx, i: number, k: number, asOfDay: number, motive: Rng): Listing {
  const r = c.rng;
  const listDay = asOfDay - r.int(0, G.list_age_days_max);
  const cond = condAt(c, i, asOfDay);
  const value = valueUsd(c, i, cond, asOfDay);
  const marketLog = G.list_premium_log[0] + G.list_premium_log[1] * r.normal();
  const forcedLog = forcedSaleLog(motive, cond);
  let price = listRound(value * Math.exp(forcedLog ?? marketLog));
  const id = `LST-${String(100001 + k)}`;
  const events: Listing['events'] = [[listDay, 'listed', price]];
  if (r.chance(G.listing_price_cut_share) && asOfDay - listDay > 7) {
    price = listRound(price * (1 - r.uniform(G.listing_price_cut_frac[0], G.listing_price_cut_frac[1])));
    events.push([r.int(listDay + 7, asOfDay), 'price_change', price]);
  }
  return { id, parcel: i, address: addressOf(c, i, r.int(1, 30) * 100 + r.int(1, 8)), priceUsd: price, saleType: forcedLog === null ? 'market' : 'forced', listDay, events };
}

/** `motive` is the forced-sale stream (see forcedSaleLog); `c.rng` draws everything else. */
export function writeListings(rawDir: string, truthDir: string, c: SalesCtx, asOfDay: number, zipOf: readonly string[], motive: Rng): { listings: number; events: number } {
  const base = pickParcels(c, G.listings_count - G.listing_duplicates).map((i, k) => makeListing(c, i, k, asOfDay, motive));
  const dups = Array.from({ length: G.listing_duplicates }, (_, d) => {
    const src = base[c.rng.int(0, base.length - 1)];
    const listDay = Math.max(src.listDay - c.rng.int(0, 30), asOfDay - G.list_age_days_max);
    return { ...src, id: `LST-${String(100001 + base.length + d)}`, listDay, events: [[listDay, 'listed', src.priceUsd]] as Listing['events'] };
  });
  const all = [...base, ...dups];
  const out = new CsvOut(join(rawDir, LISTINGS.file), headerFor(LISTINGS, OPTIONAL));
  const hist = new CsvOut(join(rawDir, LISTING_HISTORY.file), headerFor(LISTING_HISTORY, []));
  const truth = new CsvOut(join(truthDir, 'listings_truth.csv'), ['listing_id', 'pin', 'true_value', 'true_arv', 'true_rent', 'condition', 'sale_type', 'true_repair_cost']);
  for (const l of all) {
    const i = l.parcel, p = c.p, t = c.tracts[p.tract[i]];
    const cond = condAt(c, i, asOfDay);
    out.row([
      l.id, l.address, zipOf[p.tract[i]], l.priceUsd, `https://listings.example/listing/${l.id}`, p.lat[i].toFixed(6), p.lon[i].toFixed(6),
      isoOfDay(l.listDay), 'active', p.pin[i], p.units[i], p.beds[i], p.sqft[i], p.yearBuilt[i], PTYPE_TEXT[p.ptype[i]], CONDITION_NAMES[cond], t.county,
    ]);
    for (const [day, event, price] of [...l.events].sort((a, b) => a[0] - b[0])) hist.row([l.id, isoOfDay(day), event, price]);
    const arv = valueUsd(c, i, cond === COND_NEW ? COND_NEW : COND_RENOVATED, asOfDay);
    const repair = Math.round(repairCostUsd(cond, p.sqft[i], p.repairScope[i], asOfDay));
    truth.row([l.id, p.pin[i], Math.round(valueUsd(c, i, cond, asOfDay)), Math.round(arv), c.rents.propertyRentUsd(p, i, cond, asOfDay), CONDITION_NAMES[cond], l.saleType, repair]);
  }
  for (const f of [out, hist, truth]) f.close();
  return { listings: out.rows, events: hist.rows };
}
