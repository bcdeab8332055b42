// The peers' SQL, one text for PostgreSQL and DuckDB (both accept it): the load, the arms-length screen, the Tier-1
// step-1 candidate query of one subject, the whole-county grid join and a step-1 valuation. Definitions are the
// kernel's (crates/avm-kernel/src/{index,query,select,stats,timeindex}.rs); float constants are written as string
// casts so both databases parse the same double, and arithmetic keeps the kernel's operation order.
import { DEED_CLASS } from '../../src/kernel/abi-layout.js';
import type { Policy } from './tables.js';

const DP = 'DOUBLE PRECISION';
/** A double constant both databases read the same way. */
export const d = (x: number): string => `CAST('${x}' AS ${DP})`;

export const DDL = [
  `CREATE TABLE sales_raw (row_id INTEGER, parcel_idx BIGINT, county SMALLINT, ptype SMALLINT, cond_bit SMALLINT, sale_day INTEGER,
    sale_month INTEGER, price ${DP}, sqft ${DP}, beds SMALLINT, deed_class SMALLINT, num_parcels INTEGER, lat ${DP}, lon ${DP},
    ux ${DP}, uy ${DP}, uz ${DP}, cell_x INTEGER, cell_y INTEGER)`,
  `CREATE TABLE subjects (sid INTEGER, lat ${DP}, lon ${DP}, ux ${DP}, uy ${DP}, uz ${DP}, cell_x INTEGER, cell_y INTEGER, ptype SMALLINT,
    county SMALLINT, mask SMALLINT, as_of INTEGER, as_of_month INTEGER, day_lo INTEGER, excl BIGINT, sqft ${DP}, beds SMALLINT)`,
  `CREATE TABLE ti_levels (county SMALLINT, month INTEGER, level ${DP}, ln_level ${DP})`,
];

/** Reason codes of index::screen_rows (src/store/columns.ts REJECTION_REASONS order). */
const R = { rapid: 3, price: 4, multi: 5, nonArms: 6, quitclaim: 7, duplicate: 8, none: 255 };

/** sales = the indexable rows of sales_raw with their screen (price floor, multi-parcel, quitclaim, non-arms deed,
 * duplicate within 365 d, rapid resale within 90 d; "earlier" = smaller (sale_day, row_id); see index.rs). */
export function screenSql(p: Policy, extraColumns = '', orderBy = ''): string {
  const earlier = (days: number, samePrice: boolean) => `EXISTS (SELECT 1 FROM sales_raw e WHERE e.parcel_idx = s.parcel_idx
      AND (e.sale_day < s.sale_day OR (e.sale_day = s.sale_day AND e.row_id < s.row_id)) AND s.sale_day - e.sale_day <= ${days}
      ${samePrice ? 'AND e.price = s.price' : ''})`;
  return `CREATE TABLE sales AS SELECT s.*, CASE
      WHEN s.price IS NULL OR s.price < ${d(p.priceFloor)} THEN ${R.price}
      WHEN s.num_parcels > 1 THEN ${R.multi}
      WHEN s.deed_class = ${DEED_CLASS.quitclaim} THEN ${R.quitclaim}
      WHEN s.deed_class = ${DEED_CLASS.nonArms} THEN ${R.nonArms}
      WHEN ${earlier(p.dupDays, true)} THEN ${R.duplicate}
      WHEN ${earlier(p.rapidDays, false)} THEN ${R.rapid}
      ELSE ${R.none} END AS screen${extraColumns ? `, ${extraColumns}` : ''}
    FROM sales_raw s WHERE s.lat IS NOT NULL ${orderBy}`;
}

/** The chord form of the haversine term (geo.rs hav_chord: row minus subject per axis, squares summed, × 0.25). */
const chord = (x: string, y: string, z: string) => `((c.ux - ${x}) * (c.ux - ${x}) + (c.uy - ${y}) * (c.uy - ${y}) + (c.uz - ${z}) * (c.uz - ${z})) * ${d(0.25)}`;

/** Candidate filters of query.rs (window strictly before as-of, stratum, own parcel excluded, radius) plus the
 * arms-length screen and the GLA and bedroom bands: the rows the kernel qualifies before the MAD trim. */
function passing(p: Policy, s: { ux: string; uy: string; uz: string; hMax: string; dayLo: string; asOf: string; mask: string; excl: string; sqft: string; beds: string }): string {
  return `(c.cond_bit & ${s.mask}) <> 0 AND c.sale_day >= ${s.dayLo} AND c.sale_day < ${s.asOf} AND c.parcel_idx <> ${s.excl}
    AND ${chord(s.ux, s.uy, s.uz)} <= ${s.hMax} AND c.screen = ${R.none}
    AND (${s.sqft} IS NULL OR (c.sqft IS NOT NULL AND abs(c.sqft - ${s.sqft}) <= ${d(p.glaBand)} * ${s.sqft}))
    AND (${s.beds} IS NULL OR c.beds IS NULL OR abs(c.beds - ${s.beds}) <= ${d(p.bedsBand)})`;
}

/** Index prefilters of the per-subject query: $13..$16 = lat0, lat1, lon0, lon1 (box) or $13..$15 = lon, lat, metres. */
export const PREFILTER = {
  box: 'c.lat BETWEEN $13 AND $14 AND c.lon BETWEEN $15 AND $16',
  geom: 'c.geom && ST_MakeEnvelope($15, $13, $16, $14, 4326)',
  geog: 'ST_DWithin(c.geog, ST_SetSRID(ST_MakePoint($13, $14), 4326)::geography, $15, false)',
} as const;
export type Prefilter = keyof typeof PREFILTER;

/** One subject's step-1 candidates. $1..$3 unit vector, $4 hav bound, $5 day_lo, $6 as_of, $7 ptype, $8 county,
 * $9 stratum mask, $10 own parcel (-1: none), $11 sqft, $12 beds (NULL: unknown), then the prefilter's. */
export function candidateSql(p: Policy, pre: Prefilter): string {
  const f = passing(p, {
    ux: `$1::${DP}`, uy: `$2::${DP}`, uz: `$3::${DP}`, hMax: `$4::${DP}`, dayLo: '$5::INTEGER', asOf: '$6::INTEGER', mask: '$9::INTEGER',
    excl: '$10::BIGINT', sqft: `$11::${DP}`, beds: '$12::INTEGER',
  });
  return `SELECT c.row_id FROM sales c WHERE ${PREFILTER[pre]} AND c.ptype = $7::INTEGER AND c.county = $8::INTEGER AND ${f}`;
}

const subjectCols = (hMax: number) => ({ ux: 's.ux', uy: 's.uy', uz: 's.uz', hMax: d(hMax), dayLo: 's.day_lo', asOf: 's.as_of', mask: 's.mask', excl: 's.excl', sqft: 's.sqft', beds: 's.beds' });

/** The grid join: each subject's cell and its 8 neighbours, same ptype and county, then the candidate filters. */
function gridJoin(p: Policy, hMax: number, subjects: string, select: string): string {
  // The 9 cells as plain columns of a derived table, so the join is an equi-join on (cell, ptype, county): with
  // cell_x + dx in the ON clause DuckDB hashed on (ptype, county) alone and filtered the cross product (88 s).
  return `SELECT ${select} FROM (SELECT t.*, t.cell_x + g.dx AS jx, t.cell_y + g.dy AS jy FROM ${subjects} t
      CROSS JOIN (VALUES (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1)) AS g(dx, dy)) s
    JOIN sales c ON c.cell_x = s.jx AND c.cell_y = s.jy AND c.ptype = s.ptype AND c.county = s.county
    WHERE ${passing(p, subjectCols(hMax))}`;
}

/** Whole-county bare candidate search into `out`: per subject the count, sum and xor of the candidate rows. */
export function batchCandidatesSql(p: Policy, hMax: number, subjects: string, out: string): string {
  return `CREATE TABLE ${out} AS SELECT sid, count(*) AS n, sum(row_id) AS sum_row, bit_xor(row_id) AS xor_row
    FROM (${gridJoin(p, hMax, subjects, 's.sid, c.row_id')}) q GROUP BY sid`;
}

const median = (x: string) => `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${x})`;
const unit = (x: string) => `LEAST(GREATEST(${x}, ${d(0)}), ${d(1)})`;

/** Whole-county step-1 valuation into `out` (sid, n_qualified, n, value): time-index factor (cap, clamp), GLA
 * adjustment at marginal_frac × median indexed $/sf, MAD trim of ln adjusted $/sf, similarity rank, median of the
 * top max_comps adjusted prices (select.rs, stats.rs, timeindex.rs). */
export function batchValuationSql(p: Policy, hMax: number, subjects: string, out: string): string {
  const wsum = p.w[0] + p.w[1] + p.w[2] + p.w[3];
  return `CREATE TABLE ${out} AS
  WITH cand AS (${gridJoin(p, hMax, subjects, `s.sid, c.row_id, c.sale_day, c.sale_month, c.county, c.price, c.sqft, c.beds, ${chord('s.ux', 's.uy', 's.uz')} AS hav`)}),
  sub AS (SELECT s.sid, s.as_of, s.sqft AS s_sqft, s.beds AS s_beds, l.level AS now_level, l.ln_level AS ln_now
    FROM ${subjects} s LEFT JOIN ti_levels l ON l.county = s.county AND l.month = s.as_of_month),
  logs AS (SELECT c.*, s.as_of, s.s_sqft, s.s_beds, s.now_level, l.level AS then_level, s.ln_now - l.ln_level AS ln_f,
      GREATEST(CAST(s.as_of - c.sale_day AS ${DP}) / ${d(365.2425)}, ${d(0)}) * ${d(p.lnMaxAnnual)} AS max_ln
    FROM cand c JOIN sub s ON s.sid = c.sid LEFT JOIN ti_levels l ON l.county = c.county AND l.month = c.sale_month),
  priced AS (SELECT g.*, g.price * CASE WHEN g.now_level IS NULL OR g.then_level IS NULL THEN ${d(1)} ELSE LEAST(GREATEST(
      CASE WHEN g.ln_f > g.max_ln THEN exp(g.max_ln) WHEN g.ln_f < -g.max_ln THEN exp(-g.max_ln) ELSE g.now_level / g.then_level END,
      ${d(p.clampLo)}), ${d(p.clampHi)}) END AS indexed FROM logs g),
  marg AS (SELECT sid, ${d(p.marginalFrac)} * ${median('indexed / sqft')} AS marginal FROM priced WHERE sqft IS NOT NULL AND s_sqft IS NOT NULL GROUP BY sid),
  adj AS (SELECT q.*, CASE WHEN m.marginal IS NULL OR q.sqft IS NULL THEN q.indexed ELSE q.indexed + LEAST(GREATEST(m.marginal * (q.s_sqft - q.sqft),
      -(${d(p.capFrac)} * q.indexed)), ${d(p.capFrac)} * q.indexed) END AS adjusted FROM priced q LEFT JOIN marg m ON m.sid = q.sid),
  lx AS (SELECT a.*, CASE WHEN a.s_sqft IS NOT NULL THEN ln(a.adjusted / a.sqft) END AS x FROM adj a),
  med AS (SELECT sid, ${median('x')} AS mx FROM lx WHERE x IS NOT NULL GROUP BY sid),
  mad AS (SELECT l.sid, m.mx, ${median('abs(l.x - m.mx)')} AS mad FROM lx l JOIN med m ON m.sid = l.sid GROUP BY l.sid, m.mx),
  kept AS (SELECT l.*, ${d(2)} * ${d(3958.8)} * asin(sqrt(LEAST(l.hav, ${d(1)}))) AS dist FROM lx l LEFT JOIN mad t ON t.sid = l.sid
    WHERE l.x IS NULL OR t.mad = 0 OR abs(l.x - t.mx) <= ${d(p.madTrimK)} * ${d(p.madScale)} * t.mad),
  scored AS (SELECT k.sid, k.row_id, k.sale_day, k.adjusted, k.dist, (
      ${d(p.w[0])} * ${unit(`${d(1)} - k.dist / ${d(p.radiusMi)}`)}
      + ${d(p.w[1])} * ${unit(`${d(1)} - CAST(k.as_of - k.sale_day AS ${DP}) / ${d(p.windowDays)}`)}
      + ${d(p.w[2])} * CASE WHEN k.s_sqft IS NOT NULL AND k.sqft IS NOT NULL THEN ${d(1)} - LEAST(abs(k.sqft - k.s_sqft) / (${d(p.glaBand)} * k.s_sqft), ${d(1)}) ELSE ${d(0.5)} END
      + ${d(p.w[3])} * CASE WHEN k.s_beds IS NOT NULL AND k.beds IS NOT NULL THEN ${d(1)} - LEAST(CAST(abs(k.beds - k.s_beds) AS ${DP}) / ${d(p.bedsBand + 1)}, ${d(1)}) ELSE ${d(0.5)} END
    ) / ${d(wsum)} AS sim FROM kept k),
  ranked AS (SELECT sid, adjusted, row_number() OVER (PARTITION BY sid ORDER BY sim DESC, dist ASC, sale_day DESC, row_id ASC) AS rk,
      count(*) OVER (PARTITION BY sid) AS nq FROM scored)
  SELECT sid, max(nq) AS n_qualified, count(*) AS n, ${median('adjusted')} AS value FROM ranked WHERE rk <= ${p.maxComps} GROUP BY sid`;
}
