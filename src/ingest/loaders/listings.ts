// Loaders for the listings feed and its history: validated listing records keyed by listing_id, each with its events.
import { LISTINGS, LISTING_HISTORY } from '../layouts.js';
import { parseConditionWord } from '../condition.js';
import { invalidFile, parseCoord, parseCookPin, parseDate, parseInteger, parseLakePin, parseNumber, parseZip, requireNumber, type RowRef } from './fields.js';
import { loadCsv, newStats, type FileStats, type ProgressFn } from './run.js';
import { isoOfDay } from '../../store/days.js';

export type ListingEvent = { event_date: string; event: string; price_usd: number | null };

export type ListingRecord = {
  listing_id: string;
  address: string;
  zip: string;
  price_usd: number;
  url: string;
  lat: number;
  lon: number;
  list_date: string; //          YYYY-MM-DD
  status: string; //             as in the feed, lower case (active, pending, sold, withdrawn...)
  pin: string | null; //         normalized 14 (Cook) or 10 (Lake) digits
  county: 'cook' | 'lake' | null;
  units: number | null;
  beds: number | null;
  sqft: number | null;
  year_built: number | null;
  property_type: string | null;
  condition: string | null; //   distressed|dated|renovated|new
  history: ListingEvent[];
};

const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);
const text = (f: string[], i: number): string => (i < 0 ? '' : f[i].trim());

function parseListingPin(ref: RowRef, raw: string, county: string): { pin: string | null; county: 'cook' | 'lake' | null } {
  const digits = raw.trim().replace(/-/g, '');
  if (digits === '') return { pin: null, county: county === 'cook' || county === 'lake' ? county : null };
  const isLake = county === 'lake' || (county === '' && digits.length === 10);
  const pin = isLake ? parseLakePin(ref, 'pin', raw) : parseCookPin(ref, 'pin', raw);
  return { pin: String(pin).padStart(isLake ? 10 : 14, '0'), county: isLake ? 'lake' : 'cook' };
}

export async function loadListings(path: string, onProgress?: ProgressFn): Promise<{ listings: Map<string, ListingRecord>; stats: FileStats }> {
  const stats = newStats(LISTINGS.file);
  const listings = new Map<string, ListingRecord>();
  await loadCsv(path, LISTINGS, stats, (cols) => {
    const ix = (k: string): number => cols.get(k)!;
    return (f, ref) => {
      const id = text(f, ix('listing_id'));
      if (id === '') throw invalidFile(ref.file, ref.pos, 'listing_id', 'listing_id is missing');
      if (listings.has(id)) throw invalidFile(ref.file, ref.pos, 'listing_id', 'duplicate listing_id', id);
      const priceUsd = requireNumber(ref, 'price', f[ix('price')], { money: true });
      if (priceUsd <= 0) throw invalidFile(ref.file, ref.pos, 'price', 'price must be positive', f[ix('price')]);
      const lat = parseCoord(ref, 'lat', f[ix('lat')], 'lat');
      const lon = parseCoord(ref, 'lon', f[ix('lon')], 'lon');
      if (Number.isNaN(lat) || Number.isNaN(lon)) throw invalidFile(ref.file, ref.pos, Number.isNaN(lat) ? 'lat' : 'lon', 'listing location is missing');
      const countyRaw = text(f, ix('county')).toLowerCase();
      if (countyRaw !== '' && countyRaw !== 'cook' && countyRaw !== 'lake') throw invalidFile(ref.file, ref.pos, 'county', 'county must be cook or lake', countyRaw);
      const cond = text(f, ix('condition'));
      if (cond !== '' && parseConditionWord(cond) === null) throw invalidFile(ref.file, ref.pos, 'condition', 'not one of distressed, dated, renovated, new', cond);
      const units = parseInteger(ref, 'units', text(f, ix('units')));
      if (units < 1 || units > 4) throw invalidFile(ref.file, ref.pos, 'units', 'units must be 1-4', String(units));
      listings.set(id, {
        listing_id: id, address: text(f, ix('address')), zip: parseZip(ref, 'zip', f[ix('zip')]), price_usd: priceUsd, url: text(f, ix('url')),
        lat, lon, list_date: isoOfDay(parseDate(ref, 'list_date', f[ix('list_date')]).day), status: text(f, ix('status')).toLowerCase(),
        ...parseListingPin(ref, text(f, ix('pin')), countyRaw),
        units: orNull(units), beds: orNull(parseInteger(ref, 'beds', text(f, ix('beds')))), sqft: orNull(parseNumber(ref, 'sqft', text(f, ix('sqft')))),
        year_built: orNull(parseInteger(ref, 'year_built', text(f, ix('year_built')))), property_type: text(f, ix('property_type')) || null,
        condition: cond === '' ? null : cond.toLowerCase(), history: [],
      });
      stats.rowsKept++;
    };
  }, onProgress);
  return { listings, stats };
}

/** Adds each history event to its listing (events sorted by date, then file order). Unknown listing ids are errors. */
export async function loadListingHistory(path: string, listings: Map<string, ListingRecord>, onProgress?: ProgressFn): Promise<FileStats> {
  const stats = newStats(LISTING_HISTORY.file);
  await loadCsv(path, LISTING_HISTORY, stats, (cols) => {
    const ix = (k: string): number => cols.get(k)!;
    return (f, ref) => {
      const id = text(f, ix('listing_id'));
      const listing = listings.get(id);
      if (!listing) throw invalidFile(ref.file, ref.pos, 'listing_id', 'no such listing in listings.csv', id);
      const event = text(f, ix('event')).toLowerCase();
      if (event === '') throw invalidFile(ref.file, ref.pos, 'event', 'event is missing');
      const price = parseNumber(ref, 'price', f[ix('price')], { money: true });
      if (price < 0) throw invalidFile(ref.file, ref.pos, 'price', 'negative price', f[ix('price')]);
      listing.history.push({ event_date: isoOfDay(parseDate(ref, 'event_date', f[ix('event_date')]).day), event, price_usd: orNull(price) });
      stats.rowsKept++;
    };
  }, onProgress);
  for (const l of listings.values()) l.history.sort((a, b) => (a.event_date < b.event_date ? -1 : a.event_date > b.event_date ? 1 : 0));
  return stats;
}
