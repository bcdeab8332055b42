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
use crate::near::{Geometry, Near, Origin};
use crate::index::{HotRow, Index, R_BEDS_BAND, R_GLA_BAND, R_NONE};
use crate::params::{Params, LADDER_STEPS};
use crate::factors::FactorMemo;
use crate::select::{price_step, Comp, StepBuf};
use crate::stats::{self, Summary};
use crate::timeindex::TimeIndex;
use crate::windows::WindowMemo;

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
    /// The buckets a step scans, and the rows of those the first pass keeps (gather).
    spans: Vec<Span>,
    kept: Kept,
    /// Window rows of the buckets by (as-of day, window start), across queries (windows.rs).
    windows: WindowMemo,
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
struct Position { lat: f64, lon: f64, cos_lat: f64, sin_lat_abs: f64, tan_lat_abs: f64, x: f64, y: f64, z: f64 }

impl Position {
    fn of(s: &Subject) -> Position {
        let (lat, lon) = (s.lat * DEG_TO_RAD, s.lon * DEG_TO_RAD);
        let (cos_lat, sin_lat) = (math::cos(lat), math::sin(lat));
        Position { lat, lon, cos_lat, sin_lat_abs: sin_lat.abs(), tan_lat_abs: sin_lat.abs() / cos_lat, x: cos_lat * math::cos(lon), y: cos_lat * math::sin(lon), z: sin_lat }
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
        gather(ix, p, s, &pos, &rc, &mut sc.cur, &mut sc.spans, &mut sc.kept, &mut sc.windows, with_rejected);
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
/// tuples would, through one integer key per rejection (row << 8 | reason): up to RANK_SORT_MAX of them by counting
/// ranks, without the standard sort's data-dependent branches (a median subject's step rejects about two dozen rows;
/// serving-form county replay median 2.56 -> 2.49 us), more by a sort of plain integers.
fn sort_rejected(rejected: &mut [(u32, u8)], keys: &mut Vec<u64>) {
    let key = |(row, reason): (u32, u8)| (row as u64) << 8 | reason as u64;
    if rejected.len() <= stats::RANK_SORT_MAX {
        stats::rank_sort_by(rejected, |r| key(r) as i64);
        return;
    }
    keys.clear();
    keys.extend(rejected.iter().map(|&r| key(r)));
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
fn gather(ix: &Index, p: &Params, s: &Subject, pos: &Position, rc: &RadiusConsts, b: &mut StepBuf, spans: &mut Vec<Span>, kept: &mut Kept, windows: &mut WindowMemo, with_rejected: bool) {
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
    let geometry = Geometry { tan_lat_abs: pos.tan_lat_abs, lat_box, lon_box, cell_lat: ix.cell_lat_rad, cell_lon: ix.cell_lon_rad };
    let near = Near::new(s, p, rc, &geometry, pos.cos_lat, !with_rejected);
    // In passes, so that a cold query's cache misses overlap instead of following one another bucket by bucket or
    // row by row: the matching buckets of the box; each one's window bounds; the first pass over their rows (near.rs,
    // compact columns read in order); the haversine term of every row it keeps (each a cache line of `hot`, loaded
    // independently of the others); then the exact tests. Buckets are scanned in the order a cell-by-cell walk meets
    // them, rows in index order.
    spans.clear();
    for cy in y0..=y1 {
        for c in cy * ix.nx + x0..=cy * ix.nx + x1 {
            let mut origin = None;
            let first = ix.cell_bucket[c] as usize;
            for (k, bk) in ix.buckets[first..ix.cell_bucket[c + 1] as usize].iter().enumerate() {
                // A cell's buckets ascend by (county, ptype, condition group) (index::bucket_key): past the subject's
                // county and ptype none can match. (Most subjects are of the first county and ptype: on the county
                // replay this skips about half the buckets a query reads, 2.09 -> 2.02 us median.)
                if (bk.county, bk.ptype) > (s.county, s.ptype) {
                    break;
                }
                if bk.county == s.county && bk.ptype == s.ptype && bk.cond_bits & s.stratum_mask != 0 {
                    let (lat0, lon0) = *origin.get_or_insert_with(|| ix.cell_origin(c));
                    let mixed = bk.cond_bits & !s.stratum_mask != 0;
                    let cond_req = if mixed { s.stratum_mask as u32 } else { 0xff };
                    spans.push(Span { lo: bk.start, hi: bk.end, bucket: (first + k) as u32, origin: Origin { dlat: (slat - lat0) as f32, dlon: (slon - lon0) as f32, cond_req } });
                }
            }
        }
    }
    let mut step_windows = windows.for_step(ix, s.as_of_day, q.day_lo);
    for sp in spans.iter_mut() {
        let (lo, hi) = step_windows.rows(sp.bucket as usize, || window(ix, s, q.day_lo, sp.lo as usize, sp.hi as usize));
        (sp.lo, sp.hi) = (lo as u32, hi as u32);
    }
    kept.rows.clear();
    for sp in spans.iter() {
        first_pass(ix, &near, sp, &mut kept.rows);
    }
    kept.havs.clear();
    kept.havs.extend(kept.rows.iter().map(|&i| {
        let u = &ix.hot[i as usize].unit;
        hav_chord(q.sx, q.sy, q.sz, u[0], u[1], u[2])
    }));
    if with_rejected {
        classify_all(ix, p, s, &q, kept, b);
        return;
    }
    for (&i, &hav) in kept.rows.iter().zip(&kept.havs) {
        let h = &ix.hot[i as usize];
        if hav <= q.h_max && !excluded(h, &q) && reason_of(h, p, s) == R_NONE {
            b.qualified.push(Comp::candidate(i, h.row, hav));
        }
    }
}

/// The exact tests of the serving form, where a kept row is about as likely rejected as qualified (a branch on its
/// reason mispredicted often): each row is written to both staging lists and counted in the one it belongs to, then
/// the counted prefixes are appended in order. Serving-form county replay median 2.49 -> 2.34 us, p99 13.1 -> 11.9.
/// The staging lists only ever grow: writing into the step's own lists, grown by every kept row and cut back, filled
/// those slots on every step (2.44-2.50 us). The bulk form keeps its branch: its first pass has already dropped nearly
/// every row these tests would reject, and the branch-free form was slower there (1.75-1.78 -> 1.82-1.86 us).
fn classify_all(ix: &Index, p: &Params, s: &Subject, q: &Probe, kept: &mut Kept, b: &mut StepBuf) {
    let n = kept.rows.len();
    if kept.qualified.len() < n {
        kept.qualified.resize(n, (0, 0, 0.0));
        kept.rejected.resize(n, (0, 0));
    }
    let (mut nq, mut nr) = (0, 0);
    for (&i, &hav) in kept.rows.iter().zip(&kept.havs) {
        let h = &ix.hot[i as usize];
        let inside = (hav <= q.h_max) & !excluded(h, q);
        let reason = reason_of(h, p, s);
        kept.qualified[nq] = (i, h.row, hav);
        kept.rejected[nr] = (h.row, reason);
        nq += (inside & (reason == R_NONE)) as usize;
        nr += (inside & (reason != R_NONE)) as usize;
    }
    b.qualified.extend(kept.qualified[..nq].iter().map(|&(i, row, hav)| Comp::candidate(i, row, hav)));
    b.rejected.extend_from_slice(&kept.rejected[..nr]);
}

/// The rows of a step the first pass keeps (index positions, ascending within each span) and their haversine terms.
#[derive(Default)]
struct Kept {
    rows: Vec<u32>,
    havs: Vec<f64>,
    /// The serving form's staging slots (classify_all): candidates (index position, row, haversine term) and
    /// rejections, as long as the longest step's kept rows so far.
    qualified: Vec<(u32, u32, f64)>,
    rejected: Vec<(u32, u8)>,
}

/// Rows of a bucket to scan (index positions lo..hi; the bucket's position in Index::buckets) and the subject's place
/// seen from the bucket's cell, with the condition bits its rows need (near.rs).
#[derive(Clone, Copy, Debug)]
struct Span {
    lo: u32,
    hi: u32,
    bucket: u32,
    origin: Origin,
}

/// The rows r0..r1 of a bucket (by sale_day) whose day is in the window [day_lo, as_of): binary searches of the
/// compact day column.
fn window(ix: &Index, s: &Subject, day_lo: i64, r0: usize, r1: usize) -> (usize, usize) {
    let days = &ix.sale_day[r0..r1];
    // Serving and bulk as-of days follow every sale: check the last day before searching for the end.
    let hi = if days.last().map_or(true, |&d| d < s.as_of_day) { r1 } else { r0 + days.partition_point(|&d| d < s.as_of_day) };
    (r0 + first_from_end(&days[..hi - r0], day_lo), hi)
}

/// Rows per pass of the conservative filter (portable form).
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
const CHUNK: usize = 64;

/// Bit k set when flags[k] is 1 (flags are 0 or 1): eight at a time, a multiplication gathering the low bit of
/// each byte into the top byte.
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
fn bits_of(flags: &[u8; CHUNK]) -> u64 {
    let mut bits = 0u64;
    for (j, eight) in flags.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes([eight[0], eight[1], eight[2], eight[3], eight[4], eight[5], eight[6], eight[7]]);
        bits |= (w.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * j);
    }
    bits
}

/// Per-step constants of the subject.
struct Probe { sx: f64, sy: f64, sz: f64, h_max: f64, day_lo: i64, has_exclude: bool, exclude: u32 }

/// The first pass over a span's rows (inside its window) with AVX2 (the addon's x86-64-v3 build): appends the
/// rows it keeps to `kept`, 8 at a time (near_x86::keep_rows). County replay median 1.80 -> 1.65 us with the movemask
/// alone, then 1.68 -> 1.60 with the packed appends (alternated in one process, fastest of 10 per subject; Intel Xeon).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
fn first_pass(ix: &Index, near: &Near, sp: &Span, kept: &mut Vec<u32>) {
    let cols = crate::near_x86::Columns { lat: &ix.near_lat, lon: &ix.near_lon, sqft: &ix.near_sqft, tag: &ix.near_tag };
    crate::near_x86::keep_rows(near, &sp.origin, cols, sp.lo as usize, sp.hi as usize, kept);
}

/// The first pass over a span's rows (inside its window), a chunk at a time: appends the rows it keeps to `kept`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
fn first_pass(ix: &Index, near: &Near, sp: &Span, kept: &mut Vec<u32>) {
    let mut flags = [0u8; CHUNK];
    let (mut at, hi) = (sp.lo as usize, sp.hi as usize);
    while at < hi {
        let end = hi.min(at + CHUNK);
        let len = end - at;
        // Whole groups of 8 rows (vector width; the columns are padded for it), so no row goes through a scalar tail.
        let wide = (at + ((len + 7) & !7)).min(ix.near_lat.len());
        near.flags(&sp.origin, &ix.near_lat[at..wide], &ix.near_lon[at..wide], &ix.near_sqft[at..wide], &ix.near_tag[at..wide], &mut flags[..wide - at]);
        // Rows past `end` (the padding, the next bucket's), and after a last, shorter chunk the previous chunk's
        // flags after its own: masked off.
        let mut bits = bits_of(&flags) & (u64::MAX >> (CHUNK - len));
        while bits != 0 {
            kept.push((at + bits.trailing_zeros() as usize) as u32);
            bits &= bits - 1;
        }
        at = end;
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

/// A row inside the radius (and of a condition in the stratum: the first pass tests it; of the subject's county and
/// ptype: its bucket's) that is no candidate at all, not rejected either: the excluded parcel.
#[inline(always)]
fn excluded(h: &HotRow, q: &Probe) -> bool {
    q.has_exclude & (h.parcel_idx == q.exclude)
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
    use super::*;
    use crate::index::RawColumns;

    /// xorshift64: the tests' pseudo-random numbers.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
        fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
            xs[(self.next() % xs.len() as u64) as usize]
        }
    }

    /// The point `d_mi` from (lat, lon) (degrees) on bearing `b` (radians), by the spherical destination formula.
    fn destination(lat: f64, lon: f64, d_mi: f64, b: f64) -> (f64, f64) {
        let (p1, l1, a) = (lat * DEG_TO_RAD, lon * DEG_TO_RAD, d_mi / crate::geo::EARTH_RADIUS_MI);
        let p2 = (p1.sin() * a.cos() + p1.cos() * a.sin() * b.cos()).asin();
        let l2 = l1 + (b.sin() * a.sin() * p1.cos()).atan2(a.cos() - p1.sin() * p2.sin());
        (p2 / DEG_TO_RAD, l2 / DEG_TO_RAD)
    }

    /// What gather must find, from every row of the index with the exact tests alone (no grid, no first pass).
    fn gather_by_brute_force(ix: &Index, c: &RawColumns, p: &Params, s: &Subject, r: f64, w: f64, with_rejected: bool) -> (Vec<(u32, u64)>, Vec<(u32, u8)>) {
        let pos = Position::of(s);
        let h_max = RadiusConsts::new(r).h_max;
        let day_lo = (s.as_of_day as f64 - w).ceil() as i64;
        let q = Probe { sx: pos.x, sy: pos.y, sz: pos.z, h_max, day_lo, has_exclude: s.exclude_parcel.is_some(), exclude: s.exclude_parcel.unwrap_or(0) };
        let (mut qualified, mut rejected) = (Vec::new(), Vec::new());
        for (i, h) in ix.hot.iter().enumerate() {
            let raw = h.row as usize;
            let day = h.sale_day as i64;
            let hav = hav_chord(pos.x, pos.y, pos.z, h.unit[0], h.unit[1], h.unit[2]);
            let candidate = c.ptype[raw] == s.ptype && c.county[raw] == s.county && h.cond_bit & s.stratum_mask != 0 && day >= day_lo && day < s.as_of_day as i64 && hav <= h_max;
            if !candidate || excluded(h, &q) {
                continue;
            }
            match reason_of(h, p, s) {
                R_NONE => qualified.push((i as u32, hav.to_bits())),
                reason if with_rejected => rejected.push((h.row, reason)),
                _ => {}
            }
        }
        (qualified, rejected)
    }

    /// Rows crowded at the edges the first pass must never cut: distances within 1e-12 to 1e-3 of the radius (and
    /// anywhere inside and around it), sqft within a hair of the GLA band, every bedroom gap, screened sales, a bucket
    /// mixing conditions in and out of the stratum, other ptypes and counties, days at the window's edges; subjects
    /// at 42°, 84.9° and -60°, radii from 0.01 to 3 miles, both forms. gather's rows (and their haversine bits) equal
    /// the brute force's. Each of these drops, made a little too eager, fails it: the radius, the GLA band, the
    /// bedroom band, the condition.
    #[test]
    fn gather_equals_brute_force_at_every_edge() {
        let p = Params::policy_v2();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let centres = [(42.0, -87.7), (84.9, 10.0), (-60.0, 120.0)];
        let radii = [0.5, 0.01, 1.0, 3.0, 400.0];
        let sqft_s = 1500.0;
        let mut deed = [0u8; 256];
        deed[1] = crate::params::DEED_QUITCLAIM;
        deed[2] = crate::params::DEED_NON_ARMS;
        let groups: [u8; 256] = std::array::from_fn(|k| if k < 2 { 0 } else { k as u8 });
        let mut checked = 0;
        // One index per centre (the three together would be a grid of the whole globe).
        for &(lat, lon) in &centres {
            let mut c = RawColumns::default();
            for &r in &radii {
                for _ in 0..1500 {
                    let rel = rng.pick(&[1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6, 1e-4, -1e-4, 1e-3, -1e-3, 0.0]);
                    let d = if rng.unit() < 0.7 { r * (1.0 + rel) } else { r * 1.6 * rng.unit() };
                    let (la, lo) = destination(lat, lon, d, rng.unit() * std::f64::consts::TAU);
                    let band = sqft_s * 0.2 * (1.0 + rng.pick(&[0.0, 1e-9, -1e-9, 1e-6, -1e-6, 0.5, -0.5]));
                    let sqft = match rng.next() % 6 {
                        0 => f64::NAN,
                        1 => 0.0,
                        2 => sqft_s + band,
                        3 => sqft_s - band,
                        _ => 600.0 + 2400.0 * rng.unit(),
                    };
                    c.parcel_idx.push((rng.next() % 3000) as u32);
                    c.county.push(rng.pick(&[1u8, 1, 1, 2]));
                    c.lat.push(la);
                    c.lon.push(lo);
                    c.sale_day.push(20_000 - rng.pick(&[0, 1, 179, 180, 181, 269, 270, 271, 500]) - (rng.next() % 3) as i32);
                    c.price_usd.push(rng.pick(&[5_000.0, 150_000.0, 320_000.0, 410_000.0]) * (1.0 + rng.unit()));
                    c.sqft.push(sqft);
                    c.beds.push(rng.pick(&[-1i8, 0, 1, 2, 3, 4, 5, 6]));
                    c.ptype.push(rng.pick(&[0u8, 0, 0, 1]));
                    c.condition.push(rng.pick(&[0u8, 1, 2, 3, 4, 255]));
                    c.deed_type.push(rng.pick(&[0u8, 0, 0, 1, 2]));
                    c.num_parcels.push(rng.pick(&[1u16, 1, 1, 1, 2]));
                }
            }
            let ix = Index::build(&c, &p, &deed, &groups, &crate::timeindex::TimeIndex::default()).unwrap();
            for &r in &radii {
                // Subjects of every county and ptype of the rows: buckets of other counties and ptypes before and
                // after theirs in a cell.
                let kinds = [(sqft_s, 3, 0xffu8, None, 1, 0), (f64::NAN, -1, 0b0001, Some(17), 2, 0), (sqft_s, 0, 0b1000_0100, None, 1, 1), (sqft_s, 2, 0xff, None, 2, 1)];
                for (sqft, beds, mask, exclude, county, ptype) in kinds {
                    for with_rejected in [false, true] {
                        let s = Subject { lat, lon, sqft, beds, ptype, county, as_of_day: 20_000, stratum_mask: mask, exclude_parcel: exclude, max_step: 1, override_step: Some((r, 180.0)) };
                        let (want_q, want_r) = gather_by_brute_force(&ix, &c, &p, &s, r, 180.0, with_rejected);
                        let mut b = StepBuf::default();
                        b.clear(0, r, 180.0);
                        let rc = RadiusConsts::new(r);
                        gather(&ix, &p, &s, &Position::of(&s), &rc, &mut b, &mut Vec::new(), &mut Kept::default(), &mut WindowMemo::default(), with_rejected);
                        let got_q: Vec<(u32, u64)> = b.qualified.iter().map(|c| (c.ix, c.hav.to_bits())).collect();
                        let mut got_r = b.rejected.clone();
                        got_r.sort_unstable();
                        let mut want_r = want_r;
                        want_r.sort_unstable();
                        assert_eq!(got_q, want_q, "qualified at ({lat}, {lon}) r {r} sqft {sqft} rejected {with_rejected}");
                        assert_eq!(got_r, want_r, "rejected at ({lat}, {lon}) r {r} sqft {sqft} rejected {with_rejected}");
                        checked += got_q.len() + got_r.len();
                    }
                }
            }
        }
        assert!(checked > 5_000, "the cases reach rows: {checked}");
    }

    /// One memo across a sequence of (as-of day, window) pairs, more than it keeps (so slots are reused, their entries
    /// stale by generation) and repeated (so entries are read back): every bucket's rows equal `window`'s.
    #[test]
    fn window_memo_equals_window() {
        let p = Params::policy_v2();
        let mut rng = Rng(0x5851_F42D_4C95_7F2D);
        let mut c = RawColumns::default();
        for _ in 0..4000 {
            c.parcel_idx.push((rng.next() % 3000) as u32);
            c.county.push(1);
            c.lat.push(42.0 + 0.2 * rng.unit());
            c.lon.push(-87.7 + 0.2 * rng.unit());
            c.sale_day.push(19_000 + (rng.next() % 1200) as i32);
            c.price_usd.push(200_000.0);
            c.sqft.push(1500.0);
            c.beds.push(3);
            c.ptype.push(rng.pick(&[0u8, 1]));
            c.condition.push(rng.pick(&[0u8, 1, 2]));
            c.deed_type.push(0);
            c.num_parcels.push(1);
        }
        let groups: [u8; 256] = std::array::from_fn(|k| k as u8);
        let ix = Index::build(&c, &p, &[0u8; 256], &groups, &crate::timeindex::TimeIndex::default()).unwrap();
        assert!(ix.buckets.len() > 20, "buckets: {}", ix.buckets.len());
        let pairs = [(20_300, 180.0), (20_300, 270.0), (20_300, 365.0), (19_800, 180.0), (20_100, 90.5), (19_500, 30.0), (20_300, 180.0)];
        let mut memo = WindowMemo::default();
        let mut hits = 0;
        for round in 0..60 {
            let (as_of, w) = pairs[(rng.next() % pairs.len() as u64) as usize];
            let s = Subject { lat: 42.1, lon: -87.6, sqft: 1500.0, beds: 3, ptype: 0, county: 1, as_of_day: as_of, stratum_mask: 0xff, exclude_parcel: None, max_step: 1, override_step: None };
            let day_lo = (as_of as f64 - w).ceil() as i64;
            let mut rows = memo.for_step(&ix, as_of, day_lo);
            for (b, bk) in ix.buckets.iter().enumerate().filter(|(b, _)| (b + round) % 3 != 0) {
                let want = window(&ix, &s, day_lo, bk.start as usize, bk.end as usize);
                let mut computed = false;
                let got = rows.rows(b, || {
                    computed = true;
                    window(&ix, &s, day_lo, bk.start as usize, bk.end as usize)
                });
                assert_eq!(got, want, "round {round} bucket {b} as of {as_of} window {w}");
                hits += !computed as usize;
            }
        }
        assert!(hits > 500, "entries read back: {hits}");
    }

    #[test]
    fn first_from_end_equals_a_binary_search() {
        // Short and long columns, runs of equal days, bounds before, inside and after them.
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for n in (0..40).chain([127, 128, 129, 130, 300, 1000]) {
            for _ in 0..40 {
                let mut days: Vec<i32> = (0..n).map(|_| (rng.next() % 400) as i32).collect();
                days.sort_unstable();
                for day_lo in [-5i64, 0, 1, 200, 399, 400, 1000, (rng.next() % 400) as i64] {
                    let want = days.partition_point(|&d| (d as i64) < day_lo);
                    assert_eq!(first_from_end(&days, day_lo), want, "n {n} day_lo {day_lo}");
                }
            }
        }
    }

    #[test]
    fn sort_rejected_orders_as_the_tuple_sort() {
        // Rows across the whole u32 range (the top bits survive the shift into the key) and every reason byte, sizes on
        // both sides of RANK_SORT_MAX (counted ranks below, the integer sort above), some with repeated rows and
        // repeated rejections (never made by a step, but ordered as the tuple sort would all the same).
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (len, repeats) in [(0usize, false), (1, false), (2, false), (17, false), (31, true), (32, false), (32, true), (33, false), (33, true), (300, false)] {
            let mut v: Vec<(u32, u8)> = (0..len).map(|_| { let r = next(); (r as u32, (r >> 40) as u8) }).collect();
            if repeats {
                for k in (3..len).step_by(3) {
                    v[k] = if k % 2 == 0 { v[k - 3] } else { (v[k - 3].0, v[k].1) };
                }
            }
            let mut want = v.clone();
            want.sort_unstable();
            let mut got = v.clone();
            sort_rejected(&mut got, &mut Vec::new());
            assert_eq!(got, want, "len {len}");
        }
    }
}
