//! One comp search: candidate gathering over the grid, the expansion ladder, and the result of the chosen step.
//!
//! Candidate of a subject at a step (radius r, window w): an indexed row with great-circle distance <= r (tested as
//! hav term <= sin²(r / 2R), the hav term computed exactly as |p − q|² / 4 from unit vectors; distance reported as
//! 2R asin(√hav) with R = 3958.8 mi, i.e. the haversine distance), sale_day in
//! [as_of - w, as_of) (strictly before as_of: no future leakage), the subject's ptype and county, a condition in the
//! subject's stratum mask, and a parcel other than the subject's own. Candidates then pass or are rejected with
//! exactly one reason, in this precedence: the arms-length screen of the row (see index::screen_rows), then
//! gla_band (subject sqft known and comp sqft unknown or |Δ| > 20% of subject sqft), then beds_band (both known and
//! |Δ| > 1), then ppsf_outlier_mad (select::trim). Survivors are "qualified".
//!
//! Ladder: steps 1..max_step in order; stop at the first step with qualified >= `ladder_enough` (min_comps_point = 5);
//! if none does, use the step with the most qualified comps (the earliest on ties). An override (radius, window)
//! replaces the ladder by a single step reported as step 0.
#![forbid(unsafe_code)]

use crate::math;
use crate::errors;
use crate::geo::{hav_chord, lon_half_width_bound, RadiusConsts, BOX_SLACK, DEG_TO_RAD};
use crate::index::{HotRow, Index, R_BEDS_BAND, R_GLA_BAND, R_NONE};
use crate::params::{Params, LADDER_STEPS};
use crate::factors::FactorMemo;
use crate::select::{price_step, Comp, StepBuf};
use crate::stats::{self, Summary};
use crate::timeindex::TimeIndex;

pub use crate::index::condition_bit;

#[derive(Clone, Debug, PartialEq)]
pub struct Subject {
    pub lat: f64,
    pub lon: f64,
    /// NaN when unknown.
    pub sqft: f64,
    /// Negative when unknown.
    pub beds: i32,
    pub ptype: u8,
    pub county: u8,
    pub as_of_day: i32,
    pub stratum_mask: u8,
    pub exclude_parcel: Option<u32>,
    pub max_step: usize,
    /// (radius_mi, window_days) replacing the ladder, e.g. the as-is relaxed step.
    pub override_step: Option<(f64, f64)>,
}

impl Subject {
    pub fn validate(&self) -> Result<(), i32> {
        let geo_ok = self.lat.is_finite() && self.lon.is_finite() && self.lat.abs() <= 90.0 && self.lon.abs() <= 180.0;
        let sqft_ok = self.sqft.is_nan() || (self.sqft.is_finite() && self.sqft > 0.0);
        let step_ok = (1..=LADDER_STEPS).contains(&self.max_step);
        let over_ok = match self.override_step {
            Some((r, w)) => r.is_finite() && r > 0.0 && w.is_finite() && w > 0.0,
            None => true,
        };
        if geo_ok && sqft_ok && step_ok && over_ok { Ok(()) } else { Err(errors::BAD_SUBJECT) }
    }
    pub fn sqft_known(&self) -> bool {
        !self.sqft.is_nan()
    }
}

/// Result of one query.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub step: usize,
    pub n_qualified: usize,
    /// Selected comps, best first (at most max_comps).
    pub selected: Vec<Comp>,
    /// (original row, reason code), ascending by row.
    pub rejected: Vec<(u32, u8)>,
    pub summary: Summary,
}

/// Reusable buffers, so a query allocates nothing once warm.
#[derive(Default)]
pub struct Scratch {
    cur: StepBuf,
    best: StepBuf,
    f1: Vec<f64>,
    f2: Vec<f64>,
    factors: FactorMemo,
    rank: crate::select::RankScratch,
    /// Packed (row, reason) keys of the chosen step's rejections while they are sorted.
    rejected_keys: Vec<u64>,
    /// RadiusConsts of the radii seen lately (the ladder's three, an override's), so no query recomputes them.
    radii: Vec<RadiusConsts>,
    /// The buckets a step scans (gather).
    spans: Vec<Span>,
}

/// Radii whose constants a Scratch keeps.
const RADII_KEPT: usize = 8;

impl Scratch {
    fn radius(&mut self, radius_mi: f64) -> RadiusConsts {
        if let Some(rc) = self.radii.iter().find(|rc| rc.radius_mi.to_bits() == radius_mi.to_bits()) {
            return *rc;
        }
        let rc = RadiusConsts::new(radius_mi);
        if self.radii.len() == RADII_KEPT {
            self.radii.remove(0);
        }
        self.radii.push(rc);
        rc
    }
}

/// The subject's position as every step's scan uses it (computed once per query).
struct Position { lat: f64, lon: f64, cos_lat: f64, sin_lat_abs: f64, x: f64, y: f64, z: f64 }

impl Position {
    fn of(s: &Subject) -> Position {
        let (lat, lon) = (s.lat * DEG_TO_RAD, s.lon * DEG_TO_RAD);
        let (cos_lat, sin_lat) = (math::cos(lat), math::sin(lat));
        Position { lat, lon, cos_lat, sin_lat_abs: sin_lat.abs(), x: cos_lat * math::cos(lon), y: cos_lat * math::sin(lon), z: sin_lat }
    }
}

/// Runs the ladder for one subject.
pub fn query(ix: &Index, ti: &TimeIndex, p: &Params, s: &Subject, sc: &mut Scratch, with_rejected: bool) -> Result<Outcome, i32> {
    let (keep, summary) = run(ix, ti, p, s, sc, with_rejected)?;
    let b = &sc.best;
    Ok(Outcome { step: b.step, n_qualified: b.qualified.len(), selected: b.qualified[..keep].to_vec(), rejected: b.rejected.clone(), summary })
}

/// `query` written straight into `out` in the ABI's record layout (slots::write_outcome), without building an
/// Outcome (no allocation per query once warm). On an invalid subject nothing is written and the error returned.
pub fn query_into(ix: &Index, ti: &TimeIndex, p: &Params, s: &Subject, sc: &mut Scratch, with_rejected: bool, out: &mut Vec<f64>) -> Result<(), i32> {
    let (keep, summary) = run(ix, ti, p, s, sc, with_rejected)?;
    let b = &sc.best;
    crate::slots::write_record(out, b.step, b.qualified.len(), &b.qualified[..keep], &b.rejected, &summary);
    Ok(())
}

/// The ladder; leaves the chosen step in sc.best with its best `keep` comps first, best first, and its rejections
/// sorted by row. Returns `keep` and the summary of those comps.
fn run(ix: &Index, ti: &TimeIndex, p: &Params, s: &Subject, sc: &mut Scratch, with_rejected: bool) -> Result<(usize, Summary), i32> {
    s.validate()?;
    let n_steps = if s.override_step.is_some() { 1 } else { s.max_step };
    let mut have_best = false;
    // Every candidate is in the subject's county: one as-of level per query, factors memoized by sale day.
    let at = sc.factors.prepare(ix, p, ti, s.county, s.as_of_day);
    let pos = Position::of(s);
    for k in 0..n_steps {
        let (step, r, w) = match s.override_step {
            Some((r, w)) => (0, r, w),
            None => (k + 1, p.ladder_radius_mi[k], p.ladder_window_days[k]),
        };
        sc.cur.clear(step, r, w);
        let rc = sc.radius(r);
        gather(ix, p, s, &pos, &rc, &mut sc.cur, &mut sc.spans, with_rejected);
        price_step(ix, p, s, &mut sc.cur, &at, &mut sc.factors, &mut sc.f1, &mut sc.f2, with_rejected);
        let enough = sc.cur.qualified.len() as f64 >= p.ladder_enough;
        if enough || !have_best || sc.cur.qualified.len() > sc.best.qualified.len() {
            std::mem::swap(&mut sc.cur, &mut sc.best);
            have_best = true;
        }
        if enough {
            break;
        }
    }
    // Distances and similarities only for the chosen step (the ladder counts qualified comps, nothing more).
    // Only the best `keep` are reported: select them, then sort those alone (arcsines only where they can rank).
    let keep = sc.best.qualified.len().min(p.max_comps as usize);
    crate::select::score_top(ix, p, s, &mut sc.best, keep, &mut sc.rank);
    let b = &mut sc.best;
    sc.f1.clear();
    sc.f1.extend(b.qualified[..keep].iter().map(|c| c.adjusted_price));
    let summary = stats::summarize(&mut sc.f1, p.mad_scale, &mut sc.f2);
    sort_rejected(&mut b.rejected, &mut sc.rejected_keys);
    Ok((keep, summary))
}

/// Sorts rejections by row (then reason: never needed, a row is rejected once per step) as `sort_unstable` on the
/// tuples would, through one u64 key per rejection (row << 8 | reason): a sort of plain integers.
fn sort_rejected(rejected: &mut [(u32, u8)], keys: &mut Vec<u64>) {
    keys.clear();
    keys.extend(rejected.iter().map(|&(row, reason)| (row as u64) << 8 | reason as u64));
    keys.sort_unstable();
    for (r, &k) in rejected.iter_mut().zip(keys.iter()) {
        *r = ((k >> 8) as u32, k as u8);
    }
}

/// Inclusive cell range [lo, hi] along one axis covering [v - half, v + half], or None when off the grid.
fn axis_range(v: f64, half: f64, origin: f64, size: f64, n: usize) -> Option<(usize, usize)> {
    let lo = Index::cell_of(v - half, origin, size).max(0);
    let hi = Index::cell_of(v + half, origin, size).min(n as i64 - 1);
    if n == 0 || lo > hi { None } else { Some((lo as usize, hi as usize)) }
}

/// Walks the cells within the step radius and sorts candidates into rejected and passing (pre-trim).
#[allow(clippy::too_many_arguments)]
fn gather(ix: &Index, p: &Params, s: &Subject, pos: &Position, rc: &RadiusConsts, b: &mut StepBuf, spans: &mut Vec<Span>, with_rejected: bool) {
    let mut inside = [0u32; CHUNK];
    let (slat, slon) = (pos.lat, pos.lon);
    let (sx, sy, sz) = (pos.x, pos.y, pos.z);
    let h_max = rc.h_max;
    let lat_box = rc.ang * (1.0 + BOX_SLACK);
    let lon_box = lon_half_width_bound(rc, slat.abs(), pos.cos_lat, pos.sin_lat_abs) * (1.0 + BOX_SLACK);
    let ys = axis_range(slat, lat_box, ix.lat0_rad, ix.cell_lat_rad, ix.ny);
    let xs = axis_range(slon, lon_box, ix.lon0_rad, ix.cell_lon_rad, ix.nx);
    let ((y0, y1), (x0, x1)) = match (ys, xs) {
        (Some(y), Some(x)) => (y, x),
        _ => return,
    };
    // sale_day >= as_of - window <=> sale_day >= ceil(as_of - window) for integer days.
    let day_lo = (s.as_of_day as f64 - b.window_days).ceil().max(i32::MIN as f64) as i64;
    let q = Probe { sx, sy, sz, h_max, day_lo, has_exclude: s.exclude_parcel.is_some(), exclude: s.exclude_parcel.unwrap_or(0) };
    // Three passes, so that a cold query's cache misses overlap instead of following one another bucket by bucket:
    // the matching buckets of the box (a row of cells is one run of the bucket array), then each one's window
    // bounds, then the rows. Buckets are scanned in the order a cell-by-cell walk meets them.
    spans.clear();
    for cy in y0..=y1 {
        let row = cy * ix.nx;
        for bk in &ix.buckets[ix.cell_bucket[row + x0] as usize..ix.cell_bucket[row + x1 + 1] as usize] {
            if bk.county == s.county && bk.ptype == s.ptype && bk.cond_bits & s.stratum_mask != 0 {
                spans.push(Span { lo: bk.start, hi: bk.end, mixed: bk.cond_bits & !s.stratum_mask != 0 });
            }
        }
    }
    for sp in spans.iter_mut() {
        let (lo, hi) = window(ix, s, q.day_lo, sp.lo as usize, sp.hi as usize);
        (sp.lo, sp.hi) = (lo as u32, hi as u32);
    }
    for sp in spans.iter() {
        if sp.lo < sp.hi {
            scan_rows(ix, p, s, b, &q, sp.lo as usize, sp.hi as usize, sp.mixed, &mut inside, with_rejected);
        }
    }
}

/// Rows of a bucket to scan (index positions lo..hi) and whether the bucket mixes in conditions outside the stratum.
#[derive(Clone, Copy, Debug)]
struct Span {
    lo: u32,
    hi: u32,
    mixed: bool,
}

/// The rows r0..r1 of a bucket (by sale_day) whose day is in the window [day_lo, as_of): binary searches of the
/// compact day column.
fn window(ix: &Index, s: &Subject, day_lo: i64, r0: usize, r1: usize) -> (usize, usize) {
    let days = &ix.sale_day[r0..r1];
    // Serving and bulk as-of days follow every sale: check the last day before searching for the end.
    let hi = if days.last().map_or(true, |&d| d < s.as_of_day) { r1 } else { r0 + days.partition_point(|&d| d < s.as_of_day) };
    (r0 + first_from_end(&days[..hi - r0], day_lo), hi)
}

/// Rows per branch-free radius pass.
const CHUNK: usize = 64;

/// Per-step constants of the subject.
struct Probe { sx: f64, sy: f64, sz: f64, h_max: f64, day_lo: i64, has_exclude: bool, exclude: u32 }

/// Scans the rows lo..hi of one bucket (the subject's county and ptype, one condition group) inside its window: the
/// radius test reads only the unit vectors; a row inside it is checked for its condition (only when the bucket mixes
/// in conditions outside the stratum, `mixed`) and the excluded parcel, and given its reason (`reason_of`). The test
/// order does not matter: all must pass.
#[allow(clippy::too_many_arguments)]
fn scan_rows(ix: &Index, p: &Params, s: &Subject, b: &mut StepBuf, q: &Probe, lo: usize, hi: usize, mixed: bool, inside: &mut [u32; CHUNK], with_rejected: bool) {
    // Rows inside the radius are collected branch-free per chunk (about one row in four passes, unpredictably),
    // then tested (skipped, band_tests, reason_of).
    let mut at = lo;
    for chunk in ix.unit[lo..hi].chunks(CHUNK) {
        let mut n = 0usize;
        for (k, u) in chunk.iter().enumerate() {
            // The chord gives the haversine term exactly (no trigonometry per row).
            // n <= k < CHUNK, so the mask changes nothing; it proves the index in bounds, and the loop then has no
            // panic path (the bounds check's, in the addon's panic = "unwind" build, made this loop half as fast).
            inside[n % CHUNK] = k as u32;
            n += (hav_chord(q.sx, q.sy, q.sz, u[0], u[1], u[2]) <= q.h_max) as usize;
        }
        if with_rejected {
            for &k in &inside[..n] {
                let i = at + k as usize;
                let h = &ix.hot[i];
                if skipped(h, s, q, mixed) {
                    continue;
                }
                let reason = reason_of(h, p, s);
                if reason == R_NONE {
                    let u = &chunk[k as usize];
                    b.qualified.push(Comp::candidate(i as u32, h.row, hav_chord(q.sx, q.sy, q.sz, u[0], u[1], u[2])));
                } else {
                    b.rejected.push((h.row, reason));
                }
            }
        } else {
            // Whether a row inside the radius qualifies is unpredictable: every test is computed and the rows that
            // qualify compacted to the front of `inside` (branch-free, as above; m <= j, so no unread slot is
            // overwritten), then only those become comps (a Comp is 72 bytes: about one in two rows inside qualifies).
            let mut m = 0usize;
            for j in 0..n {
                let k = inside[j];
                let h = &ix.hot[at + k as usize];
                let (gla_off, beds_off) = band_tests(h, p, s);
                let keep = !skipped(h, s, q, mixed) & (h.screen == R_NONE) & !gla_off & !beds_off;
                inside[m % CHUNK] = k;
                m += keep as usize;
            }
            for &k in &inside[..m] {
                let i = at + k as usize;
                let u = &chunk[k as usize];
                b.qualified.push(Comp::candidate(i as u32, ix.hot[i].row, hav_chord(q.sx, q.sy, q.sz, u[0], u[1], u[2])));
            }
        }
        at += chunk.len();
    }
}

/// The first position of `days` (ascending) holding a day >= `day_lo`: a galloping search back from the end, since a
/// window is the last months of years of sales, so its start is near the end (a few probes in the last cache lines,
/// where a binary search over the whole bucket misses the cache at each of its first probes).
fn first_from_end(days: &[i32], day_lo: i64) -> usize {
    // Invariant: every day at or after `hi` is >= day_lo.
    let (mut hi, mut step) = (days.len(), 1usize);
    while hi > 0 {
        let probe = hi.saturating_sub(step);
        if (days[probe] as i64) < day_lo {
            return probe + 1 + days[probe + 1..hi].partition_point(|&d| (d as i64) < day_lo);
        }
        hi = probe;
        step *= 2;
    }
    0
}

/// A row inside the radius that is no candidate at all (not rejected either): a condition outside the stratum (only
/// tested when the bucket mixes them in), another county, or the excluded parcel. Non-short-circuit operators: every
/// test is computed, no branch per test.
#[inline(always)]
fn skipped(h: &HotRow, s: &Subject, q: &Probe, mixed: bool) -> bool {
    (mixed & (h.cond_bit & s.stratum_mask == 0)) | (h.county != s.county) | (q.has_exclude & (h.parcel_idx == q.exclude))
}

/// The GLA and bedroom band tests of a candidate: (off the GLA band, off the bedroom band). GLA: when the subject's
/// sqft is known, the row's is unknown or off by more than gla_band_frac of the subject's; bedrooms: both known and
/// apart by more than beds_band.
#[inline(always)]
fn band_tests(row: &HotRow, p: &Params, s: &Subject) -> (bool, bool) {
    let gla_off = s.sqft_known() & (row.sqft.is_nan() | ((row.sqft - s.sqft).abs() > p.gla_band_frac * s.sqft));
    let beds_off = (s.beds >= 0) & (row.beds >= 0) & (((row.beds as i32 - s.beds).abs() as f64) > p.beds_band);
    (gla_off, beds_off)
}

/// Why a candidate is rejected, R_NONE when it qualifies: its arms-length screen first, then the GLA band, then the
/// bedroom band.
fn reason_of(row: &HotRow, p: &Params, s: &Subject) -> u8 {
    let (gla_off, beds_off) = band_tests(row, p, s);
    if row.screen != R_NONE {
        row.screen
    } else if gla_off {
        R_GLA_BAND
    } else if beds_off {
        R_BEDS_BAND
    } else {
        R_NONE
    }
}

#[cfg(test)]
mod tests {
    use super::sort_rejected;

    #[test]
    fn sort_rejected_orders_as_the_tuple_sort() {
        // Rows across the whole u32 range (the top bits survive the shift into the key) and every reason byte.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for len in [0usize, 1, 2, 17, 300] {
            let v: Vec<(u32, u8)> = (0..len).map(|_| { let r = next(); (r as u32, (r >> 40) as u8) }).collect();
            let mut want = v.clone();
            want.sort_unstable();
            let mut got = v.clone();
            sort_rejected(&mut got, &mut Vec::new());
            assert_eq!(got, want, "len {len}");
        }
    }
}
