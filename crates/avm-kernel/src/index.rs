//! Sales columns and the spatial grid index built once per snapshot.
//!
//! - Arms-length screens are precomputed per row (see `screen_rows` for the precedence).
//! - Rows with a non-finite coordinate, |lat| > 85° or |lon| > 180° are left out of the grid (never comps). The grid
//!   does not wrap at ±180° longitude (the service covers Cook and Lake counties), so no comp is found across it.
//! - Grid: cells of `grid_cell_mi` of latitude by the longitude width a `grid_cell_mi` circle can span at the
//!   corpus' highest |lat|, so a query of radius <= grid_cell_mi touches at most 3 x 3 cells.
//! - Rows are stored permuted, ordered by (cell, county, ptype, condition group, sale_day, original row). Each cell
//!   lists its buckets (one per county, ptype and condition group present, with the set of conditions inside) in a
//!   small directory; a query reads only the buckets of its county and ptype that hold a condition of its stratum,
//!   binary searches on sale_day bounding the window, and checks the condition per candidate only when the bucket
//!   also holds conditions outside the stratum. Condition groups are the strata the host uses (set by
//!   avm_set_condition_group; default one group per code), so a stratum is usually one bucket per cell. This refines
//!   "(cell, sale_day)": on the 1M-sale corpus most rows of a cell are other types or conditions, and the per-query
//!   cost was cache misses of binary searches over whole cells (perf), not arithmetic. (Cells finer than
//!   grid_cell_mi were measured on the county corpus: fewer rows scanned, more buckets, no faster.)
//! - Structure of arrays by who reads what: a scan's first pass (near.rs) reads only four compact columns (16 bytes
//!   per row: f32 offsets of latitude and longitude from the row's cell origin, f32 sqft, a u32 tag of condition
//!   bit, screen and bedrooms), contiguous along a bucket's day range, and keeps a superset of the rows the exact tests
//!   pass; only a kept row reads its `HotRow` (one 64-byte cache line: unit vector, screen, sqft, beds, condition
//!   bit, parcel, day, original row, and the price, which pricing a qualified row reads next); a factor memo miss its
//!   16-byte `PriceRow` (time-index level of its sale month and its log).
//! - Precomputed per row at build, so no query recomputes them: the unit vector (cos φ cos λ, cos φ sin λ, sin φ) of
//!   its position, so the radius test is a chord length with no trigonometry (hav θ = |p − q|² / 4 exactly); the
//!   arms-length screen; the stratum bit of its condition; sqft as NaN when unusable; the time-index level of its
//!   sale month (the month index is computed once per row here) and ln of that level.
#![forbid(unsafe_code)]

use crate::math;
use crate::errors;
use std::sync::atomic::{AtomicU64, Ordering};
use crate::geo::{lon_half_width, DEG_TO_RAD, EARTH_RADIUS_MI};
use crate::params::{Params, DEED_NON_ARMS, DEED_QUITCLAIM};
use crate::timeindex::TimeIndex;

/// Rejection reason codes; the order is the ABI order of REJECTION_REASONS in src/store/columns.ts.
pub const R_GLA_BAND: u8 = 0;
pub const R_BEDS_BAND: u8 = 1;
pub const R_PPSF_OUTLIER_MAD: u8 = 2;
pub const R_RAPID_RESALE: u8 = 3;
pub const R_PRICE_UNDER_FLOOR: u8 = 4;
pub const R_MULTI_PARCEL: u8 = 5;
pub const R_NON_ARMS_DEED: u8 = 6;
pub const R_QUITCLAIM: u8 = 7;
pub const R_DUPLICATE: u8 = 8;
pub const R_NONE: u8 = 255;

/// Rows of padding after the compact columns of the first pass (Index::near_lat).
pub const NEAR_PAD: usize = 7;

/// Largest grid the kernel will allocate (cells); a wider corpus bounding box is a caller error.
pub const MAX_CELLS: usize = 1 << 22;
const MAX_ABS_LAT_DEG: f64 = 85.0;

/// Columns as loaded from the snapshot, in snapshot row order (names as in src/store/columns.ts).
#[derive(Clone, Debug, Default)]
pub struct RawColumns {
    pub parcel_idx: Vec<u32>,
    pub county: Vec<u8>,
    pub lat: Vec<f64>,
    pub lon: Vec<f64>,
    pub sale_day: Vec<i32>,
    pub price_usd: Vec<f64>,
    pub sqft: Vec<f64>,
    pub beds: Vec<i8>,
    pub ptype: Vec<u8>,
    pub condition: Vec<u8>,
    pub deed_type: Vec<u8>,
    pub num_parcels: Vec<u16>,
}

impl RawColumns {
    pub fn with_len(n: usize) -> RawColumns {
        RawColumns {
            parcel_idx: vec![0; n],
            county: vec![0; n],
            lat: vec![0.0; n],
            lon: vec![0.0; n],
            sale_day: vec![0; n],
            price_usd: vec![0.0; n],
            sqft: vec![0.0; n],
            beds: vec![0; n],
            ptype: vec![0; n],
            condition: vec![0; n],
            deed_type: vec![0; n],
            num_parcels: vec![0; n],
        }
    }
    pub fn len(&self) -> usize {
        self.parcel_idx.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What the exact tests of a row the first pass keeps read, together (one cache line).
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
pub struct HotRow {
    /// Unit vector (x, y, z) of the row's position: the radius test is a chord length, no trigonometry.
    pub unit: [f64; 3],
    /// NaN when unknown or not positive.
    pub sqft: f64,
    pub price_usd: f64,
    pub sale_day: i32,
    pub parcel_idx: u32,
    /// Arms-length screen reason code, R_NONE when the sale passes.
    pub screen: u8,
    pub beds: i8,
    /// Stratum bit of the row's condition (query::condition_bit).
    pub cond_bit: u8,
    /// Original snapshot row.
    pub row: u32,
}

/// One bucket of a cell: rows start..end, all of one county and ptype, with conditions whose stratum bits are
/// cond_bits, by sale_day ascending. Its fields together, since a query reads them together for every bucket of a cell
/// (`end` is the next bucket's `start`, kept here so that the walk reads one record and the last needs no sentinel).
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    pub start: u32,
    pub end: u32,
    pub county: u8,
    pub ptype: u8,
    pub cond_bits: u8,
}

/// What the time-index factor of a sale day reads when the query's memo lacks it (same order as `hot`).
#[derive(Clone, Copy, Debug, Default)]
pub struct PriceRow {
    /// Time-index level of the sale month and its log (NaN without a series for the row's county).
    pub level: f64,
    pub ln_level: f64,
}

/// Indexed rows (permuted) plus the grid.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// Sale day per row: the compact column a bucket's binary search reads.
    pub sale_day: Vec<i32>,
    /// Test record per row (same order).
    pub hot: Vec<HotRow>,
    /// Time-index record per row (same order).
    pub price: Vec<PriceRow>,
    /// What the conservative first pass of a scan reads per row (near.rs), one compact column each, same order:
    /// latitude and longitude as f32 offsets (radians) from the origin of the row's cell, sqft as f32 (NaN when
    /// unusable), and the tag of condition bit, screen and bedrooms (near::tag); then NEAR_PAD rows of padding, so
    /// that the first pass reads whole groups of 8 rows at a bucket's end (their flags are masked off).
    pub near_lat: Vec<f32>,
    pub near_lon: Vec<f32>,
    pub near_sqft: Vec<f32>,
    pub near_tag: Vec<u32>,
    /// Buckets of cell c are buckets[cell_bucket[c]..cell_bucket[c + 1]] (a cell's directory: one or two cache lines).
    pub cell_bucket: Vec<u32>,
    pub buckets: Vec<Bucket>,
    pub lat0_rad: f64,
    pub lon0_rad: f64,
    pub cell_lat_rad: f64,
    pub cell_lon_rad: f64,
    pub nx: usize,
    pub ny: usize,
    /// cell_start[c]..cell_start[c + 1] are the rows of cell c = cy * nx + cx.
    pub cell_start: Vec<u32>,
    /// Distinct per build in this process (0 for an index not built by Index::build): keys per-index memos.
    pub build_id: u64,
}

static BUILDS: AtomicU64 = AtomicU64::new(1);

/// Arms-length screen of each row, one reason per row, in this precedence (first that applies):
/// price_under_10k (price < floor or not finite), multi_parcel_sale (num_parcels > 1), quitclaim_deed,
/// non_arms_deed_type, duplicate_sale_within_365d (an earlier sale of the same parcel_idx at the same price at most
/// `duplicate_window_days` before), rapid_resale_within_90d (an earlier sale of the same parcel at most
/// `rapid_resale_days` before at a different price). "Earlier" = smaller (sale_day, row); only earlier sales
/// count, so a screen never looks into the future of a sale.
pub fn screen_rows(c: &RawColumns, p: &Params, deed_class: &[u8; 256]) -> Vec<u8> {
    let n = c.len();
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_unstable_by_key(|&r| (c.parcel_idx[r as usize], c.sale_day[r as usize], r));
    let mut repeat = vec![R_NONE; n];
    for (k, &r) in order.iter().enumerate() {
        let (r, mut j) = (r as usize, k);
        while j > 0 {
            j -= 1;
            let e = order[j] as usize;
            let gap = (c.sale_day[r] as i64 - c.sale_day[e] as i64) as f64;
            if c.parcel_idx[e] != c.parcel_idx[r] || gap > p.duplicate_window_days.max(p.rapid_resale_days) {
                break;
            }
            if c.price_usd[e] == c.price_usd[r] && gap <= p.duplicate_window_days {
                repeat[r] = R_DUPLICATE;
                break;
            }
            if gap <= p.rapid_resale_days {
                repeat[r] = R_RAPID_RESALE;
            }
        }
    }
    (0..n)
        .map(|r| {
            let price = c.price_usd[r];
            if !(price >= p.price_floor_usd) {
                R_PRICE_UNDER_FLOOR
            } else if c.num_parcels[r] > 1 {
                R_MULTI_PARCEL
            } else if deed_class[c.deed_type[r] as usize] == DEED_QUITCLAIM {
                R_QUITCLAIM
            } else if deed_class[c.deed_type[r] as usize] == DEED_NON_ARMS {
                R_NON_ARMS_DEED
            } else {
                repeat[r]
            }
        })
        .collect()
}

/// Within-cell sort key: ptype << 40 | condition group << 32 | (sale_day + 2^31).
#[inline]
pub fn sort_key(ptype: u8, group: u8, sale_day: i64) -> u64 {
    ((ptype as u64) << 40) | ((group as u64) << 32) | (sale_day.saturating_add(1i64 << 31).max(0).min(u32::MAX as i64) as u64)
}

/// Within-cell sort key with the county first: county << 48 | sort_key.
#[inline]
pub fn bucket_key(county: u8, ptype: u8, group: u8, sale_day: i64) -> u64 {
    ((county as u64) << 48) | sort_key(ptype, group, sale_day)
}

/// Stratum mask bit of a condition code: codes 0..6 use their own bit, anything else (unknown = 255) bit 7.
#[inline]
pub fn condition_bit(code: u8) -> u8 {
    if code < 7 { 1 << code } else { 1 << 7 }
}

fn indexable(lat: f64, lon: f64) -> bool {
    lat.is_finite() && lon.is_finite() && lat.abs() <= MAX_ABS_LAT_DEG && lon.abs() <= 180.0
}

impl Index {
    /// Cell coordinate of an angle along one axis (may be out of range; callers clamp).
    #[inline]
    pub fn cell_of(v: f64, origin: f64, size: f64) -> i64 {
        ((v - origin) / size).floor() as i64
    }

    /// `cond_group[code]` is the condition group of a code (a layout hint only: results do not depend on it).
    pub fn build(c: &RawColumns, p: &Params, deed_class: &[u8; 256], cond_group: &[u8; 256], ti: &TimeIndex) -> Result<Index, i32> {
        let screen = screen_rows(c, p, deed_class);
        let rows: Vec<u32> = (0..c.len() as u32).filter(|&r| indexable(c.lat[r as usize], c.lon[r as usize])).collect();
        let mut ix = Index { build_id: BUILDS.fetch_add(1, Ordering::Relaxed), ..Index::default() };
        if rows.is_empty() {
            ix.cell_start = vec![0];
            return Ok(ix);
        }
        ix.size_grid(c, &rows, p)?;
        let mut keyed: Vec<(u32, u64, u32)> = rows
            .iter()
            .map(|&r| {
                let r_ = r as usize;
                let cell = ix.cell_index(c.lat[r_] * DEG_TO_RAD, c.lon[r_] * DEG_TO_RAD);
                (cell, bucket_key(c.county[r_], c.ptype[r_], cond_group[c.condition[r_] as usize], c.sale_day[r_] as i64), r)
            })
            .collect();
        keyed.sort_unstable();
        ix.cell_start = vec![0; ix.nx * ix.ny + 1];
        for &(cell, _, _) in &keyed {
            ix.cell_start[cell as usize + 1] += 1;
        }
        for k in 1..ix.cell_start.len() {
            ix.cell_start[k] += ix.cell_start[k - 1];
        }
        ix.fill_rows(c, &keyed, &screen, ti);
        ix.fill_buckets(&keyed);
        Ok(ix)
    }

    fn size_grid(&mut self, c: &RawColumns, rows: &[u32], p: &Params) -> Result<(), i32> {
        let (mut lat_lo, mut lat_hi, mut lon_lo, mut lon_hi) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &r in rows {
            let (la, lo) = (c.lat[r as usize] * DEG_TO_RAD, c.lon[r as usize] * DEG_TO_RAD);
            lat_lo = lat_lo.min(la);
            lat_hi = lat_hi.max(la);
            lon_lo = lon_lo.min(lo);
            lon_hi = lon_hi.max(lo);
        }
        let max_abs_lat = lat_lo.abs().max(lat_hi.abs());
        self.lat0_rad = lat_lo;
        self.lon0_rad = lon_lo;
        self.cell_lat_rad = p.grid_cell_mi / EARTH_RADIUS_MI;
        self.cell_lon_rad = lon_half_width(p.grid_cell_mi, max_abs_lat);
        self.ny = (Self::cell_of(lat_hi, lat_lo, self.cell_lat_rad) + 1) as usize;
        self.nx = (Self::cell_of(lon_hi, lon_lo, self.cell_lon_rad) + 1) as usize;
        if self.nx.saturating_mul(self.ny) > MAX_CELLS {
            return Err(errors::GRID_TOO_LARGE);
        }
        Ok(())
    }

    /// (latitude, longitude) in radians of the south-west corner of cell c.
    pub fn cell_origin(&self, c: usize) -> (f64, f64) {
        (self.lat0_rad + (c / self.nx) as f64 * self.cell_lat_rad, self.lon0_rad + (c % self.nx) as f64 * self.cell_lon_rad)
    }

    fn cell_index(&self, lat_rad: f64, lon_rad: f64) -> u32 {
        let cy = Self::cell_of(lat_rad, self.lat0_rad, self.cell_lat_rad).clamp(0, self.ny as i64 - 1) as usize;
        let cx = Self::cell_of(lon_rad, self.lon0_rad, self.cell_lon_rad).clamp(0, self.nx as i64 - 1) as usize;
        (cy * self.nx + cx) as u32
    }

    /// Bucket directory: a new bucket starts where the cell or the (county, ptype, condition group) changes.
    fn fill_buckets(&mut self, keyed: &[(u32, u64, u32)]) {
        let ncell = self.nx * self.ny;
        self.cell_bucket = vec![0; ncell + 1];
        let mut prev: Option<(u32, u64)> = None;
        for (i, &(cell, key, _)) in keyed.iter().enumerate() {
            let group = key >> 32;
            if prev != Some((cell, group)) {
                if let Some(last) = self.buckets.last_mut() {
                    last.end = i as u32;
                }
                self.buckets.push(Bucket { start: i as u32, end: i as u32, county: (group >> 16) as u8, ptype: (group >> 8) as u8, cond_bits: 0 });
                self.cell_bucket[cell as usize + 1] += 1;
                prev = Some((cell, group));
            }
            if let Some(b) = self.buckets.last_mut() {
                b.cond_bits |= self.hot[i].cond_bit;
            }
        }
        if let Some(last) = self.buckets.last_mut() {
            last.end = keyed.len() as u32;
        }
        for k in 1..=ncell {
            self.cell_bucket[k] += self.cell_bucket[k - 1];
        }
    }

    fn fill_rows(&mut self, c: &RawColumns, keyed: &[(u32, u64, u32)], screen: &[u8], ti: &TimeIndex) {
        // Exact capacities: wasm linear memory never shrinks, so doubling growth would stay as dead weight.
        let n = keyed.len();
        self.hot.reserve_exact(n);
        self.price.reserve_exact(n);
        self.sale_day.reserve_exact(n);
        self.near_lat.reserve_exact(n + NEAR_PAD);
        self.near_lon.reserve_exact(n + NEAR_PAD);
        self.near_sqft.reserve_exact(n + NEAR_PAD);
        self.near_tag.reserve_exact(n + NEAR_PAD);
        for &(cell, _, r) in keyed {
            let r = r as usize;
            let (lat, lon) = (c.lat[r] * DEG_TO_RAD, c.lon[r] * DEG_TO_RAD);
            let (ux, uy, uz) = (math::cos(lat) * math::cos(lon), math::cos(lat) * math::sin(lon), math::sin(lat));
            let sqft = if c.sqft[r] > 0.0 && c.sqft[r].is_finite() { c.sqft[r] } else { f64::NAN };
            let (sale_day, parcel_idx, beds) = (c.sale_day[r], c.parcel_idx[r], c.beds[r]);
            let cond_bit = condition_bit(c.condition[r]);
            self.hot.push(HotRow { unit: [ux, uy, uz], sqft, price_usd: c.price_usd[r], sale_day, parcel_idx, screen: screen[r], beds, cond_bit, row: r as u32 });
            let level = ti.level_of(c.county[r], c.sale_day[r]);
            self.price.push(PriceRow { level, ln_level: math::ln(level) });
            self.sale_day.push(c.sale_day[r]);
            let (lat0, lon0) = self.cell_origin(cell as usize);
            self.near_lat.push((lat - lat0) as f32);
            self.near_lon.push((lon - lon0) as f32);
            self.near_sqft.push(sqft as f32);
            self.near_tag.push(crate::near::tag(cond_bit, screen[r] != R_NONE, beds));
        }
        self.near_lat.resize(n + NEAR_PAD, 0.0);
        self.near_lon.resize(n + NEAR_PAD, 0.0);
        self.near_sqft.resize(n + NEAR_PAD, 0.0);
        self.near_tag.resize(n + NEAR_PAD, 0);
    }

    pub fn len(&self) -> usize {
        self.hot.len()
    }
    pub fn is_empty(&self) -> bool {
        self.hot.is_empty()
    }
}
