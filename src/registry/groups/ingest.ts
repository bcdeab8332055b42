// Ingest and store constants: condition derivation, location validation, snapshot retention.
import { c, defineGroup } from '../define.js';

export const INGEST = defineGroup({
  name: 'ingest',
  version: '1.0.0',
  owner: 'data',
  entries: {
    new_build_max_age_years: c(2, 'years', 'a building with char_yrblt >= sale year - 2 is condition "new" when no sale_condition is given', 'team brief, issue 2 item 6 (condition rule)'),
    snapshots_retained: c(3, 'snapshots', 'sales snapshots kept after a switch so readers holding an older id keep reading it', 'team brief, issue 2 item 6'),
    illinois_lat_deg: c([36.97, 42.51], 'degrees latitude', 'a parcel or listing latitude outside the Illinois extent is a bad value, not a location', 'USGS state extent of Illinois'),
    illinois_lon_deg: c([-91.52, -87.02], 'degrees longitude', 'a parcel or listing longitude outside the Illinois extent is a bad value, not a location', 'USGS state extent of Illinois'),
    tract_grid_cell_deg: c(0.01, 'degrees', 'cell size of the point-in-tract grid (about 0.7 mi): a few tracts per cell keeps lookups near constant time', 'engineering choice, tract sizes in Cook/Lake (0.2-10 sq mi)'),
    plausible_year_bounds: c([1800, 2200], 'calendar year', 'a tax year, sale date or year built outside this range is a malformed value (ingest_invalid_file; validation_failed for a reference-table lookup year), not data; wide on purpose so only garbage is refused', 'engineering choice (Cook County records start well after 1800)'),
    csv_chunk_bytes: c(1048576, 'bytes', 'read size of the streaming CSV parser: large enough to amortize I/O, small enough for steady memory', 'engineering choice'),
  },
});
