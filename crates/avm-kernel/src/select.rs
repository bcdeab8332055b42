//! Per-comp arithmetic of one ladder step: time index, GLA adjustment, MAD trim, similarity, ranking.
//!
//! - index_factor: timeindex (levels of the as-of month and of the row's sale month, capped and clamped), looked up
//!   by sale day in the query's memo (factors.rs: the same value, computed once per day); indexed_price = price ×
//!   index_factor.
//! - marginal $/sf = gla_marginal_frac × median(indexed_price / comp sqft) over the step's passing comps (pre-trim)
//!   with known sqft; gla_adj = marginal × (subject sqft − comp sqft), capped at ±gla_adj_cap_frac × indexed_price;
//!   NaN (not applied) when either sqft is unknown. adjusted_price = indexed_price + gla_adj (or indexed_price).
//! - MAD trim (only when subject sqft is known, so every comp has sqft): x = ln(adjusted_price / comp sqft);
//!   reject |x − median(x)| > mad_trim_k × mad_scale × MAD(x) as ppsf_outlier_mad; MAD = 0 trims nothing.
//! - similarity in [0, 1] = Σ w_k s_k / Σ w_k with weights (distance, recency, GLA, beds) and
//!   s_dist = 1 − dist/radius, s_recency = 1 − age_days/window_days (both clamped to [0, 1]),
//!   s_gla = 1 − min(1, |Δsqft| / (gla_band_frac × subject sqft)), s_beds = 1 − min(1, |Δbeds| / (beds_band + 1));
//!   a GLA or beds term with an unknown side scores 0.5 (neither evidence for nor against).
//! - rank: similarity descending, then distance ascending, then more recent, then lower original row (a strict
//!   total order: rows are unique within a step, so the best k by selection are exactly a full sort's first k).
//! - Medians here are taken by selection (stats::median_select), the same values a sort would give.
#![forbid(unsafe_code)]

use crate::math;
use crate::geo::{hav_to_mi, EARTH_RADIUS_MI};
use crate::index::{Index, R_PPSF_OUTLIER_MAD};
use crate::params::Params;
use crate::query::Subject;
use crate::stats;
use crate::factors::{AsOf, FactorMemo};
use crate::timeindex::TimeIndex;
use std::cmp::Ordering;

/// Score of a similarity term with an unknown side.
pub const UNKNOWN_TERM_SCORE: f64 = 0.5;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comp {
    /// Position in the index (internal).
    pub ix: u32,
    /// Original snapshot row.
    pub row: u32,
    pub hav: f64,
    pub dist_mi: f64,
    pub index_factor: f64,
    pub indexed_price: f64,
    /// NaN when not applied.
    pub gla_adj: f64,
    pub adjusted_price: f64,
    pub similarity: f64,
    pub sale_day: i32,
}

impl Comp {
    pub fn candidate(ix: u32, row: u32, hav: f64) -> Comp {
        Comp { ix, row, hav, dist_mi: 0.0, index_factor: 1.0, indexed_price: 0.0, gla_adj: f64::NAN, adjusted_price: 0.0, similarity: 0.0, sale_day: 0 }
    }
}

/// Candidates of one ladder step.
#[derive(Clone, Debug, Default)]
pub struct StepBuf {
    pub step: usize,
    pub radius_mi: f64,
    pub window_days: f64,
    pub qualified: Vec<Comp>,
    pub rejected: Vec<(u32, u8)>,
}

impl StepBuf {
    pub fn clear(&mut self, step: usize, radius_mi: f64, window_days: f64) {
        self.step = step;
        self.radius_mi = radius_mi;
        self.window_days = window_days;
        self.qualified.clear();
        self.rejected.clear();
    }
}

/// Prices the passing candidates and trims outliers: what the ladder needs to count a step's qualified comps.
/// Distances and similarities are left to score_step, run on the chosen step only.
#[allow(clippy::too_many_arguments)]
pub fn finish_step(ix: &Index, ti: &TimeIndex, p: &Params, s: &Subject, b: &mut StepBuf, f1: &mut Vec<f64>, f2: &mut Vec<f64>, with_rejected: bool) {
    let mut memo = FactorMemo::default();
    let at = memo.prepare(ix, p, ti, s.county, s.as_of_day);
    price_step(ix, p, s, b, &at, &mut memo, f1, f2, with_rejected);
}

/// finish_step with the query's as-of levels and factor memo (prepared for this subject) supplied.
#[allow(clippy::too_many_arguments)]
pub fn price_step(ix: &Index, p: &Params, s: &Subject, b: &mut StepBuf, at: &AsOf, memo: &mut FactorMemo, f1: &mut Vec<f64>, f2: &mut Vec<f64>, with_rejected: bool) {
    f1.clear();
    for c in b.qualified.iter_mut() {
        let i = c.ix as usize;
        let h = &ix.hot[i];
        c.sale_day = h.sale_day;
        c.index_factor = memo.factor(ix, p, at, i);
        c.indexed_price = h.price_usd * c.index_factor;
        if !h.sqft.is_nan() {
            f1.push(c.indexed_price / h.sqft);
        }
    }
    let marginal = if s.sqft_known() && !f1.is_empty() { p.gla_marginal_frac * stats::median_select(f1) } else { f64::NAN };
    for c in b.qualified.iter_mut() {
        let sq = ix.hot[c.ix as usize].sqft;
        if marginal.is_nan() || sq.is_nan() {
            c.adjusted_price = c.indexed_price;
            continue;
        }
        let cap = p.gla_adj_cap_frac * c.indexed_price;
        c.gla_adj = (marginal * (s.sqft - sq)).max(-cap).min(cap);
        c.adjusted_price = c.indexed_price + c.gla_adj;
    }
    if s.sqft_known() {
        trim(ix, p, b, f1, f2, with_rejected);
    }
}

/// Distance in miles (from the haversine term) and similarity of each qualified comp of a finished step.
pub fn score_step(ix: &Index, p: &Params, s: &Subject, b: &mut StepBuf) {
    let (radius_mi, window_days) = (b.radius_mi, b.window_days);
    for c in b.qualified.iter_mut() {
        c.dist_mi = hav_to_mi(c.hav);
        c.similarity = similarity(ix, p, s, radius_mi, window_days, c);
    }
}

/// Comps a step needs before score_top bounds distances instead of computing them all.
const BOUND_FROM: usize = 32;

/// How far `Reciprocals::similarity` may be from `similarity` at the same distance: each quotient there is a product
/// by a rounded reciprocal (within 2 ulps of the quotient, and the clamps to [0, 1] do not widen a gap), so the
/// weighted mean moves by a few ulps of 1; this is a thousand times that.
const RECIPROCAL_SLACK: f64 = 1e-12;

/// score_step then rank_top(keep), computing the distance (an arcsine) and the exact similarity only for comps that
/// can rank in the best `keep` when a step has many (at least BOUND_FROM); the others keep bounds in dist_mi and
/// similarity (they are never reported). Bounds: asin y >= y (also in floating point: asin rounds faithfully, so never
/// below a representable y under its true value), so 2R √h is at most the distance, and similarity does not increase
/// with distance (weights >= 0, every operation on the way monotone), so the similarity from that bound, u, is at
/// least the comp's own, s; and u − s <= δ = 2 (w_dist / Σw) 2R (asin y_max − y_max) / radius + 1e-12 (asin y − y
/// grows with y; the factor 2 and the constant cover rounding). The pass computes u with reciprocals (no division),
/// as ũ with |ũ − u| <= ε (RECIPROCAL_SLACK). With τ = the keep-th largest ũ, `keep` comps have s >= τ − ε − δ, so a
/// comp with ũ < τ − δ − 2ε (s <= ũ + ε) ranks below them and is left out; every other comp is scored exactly and
/// rank_top orders those. So the best `keep`, in order, are those a full scoring gives.
pub fn score_top(ix: &Index, p: &Params, s: &Subject, b: &mut StepBuf, keep: usize, rs: &mut RankScratch) {
    let (radius_mi, window_days) = (b.radius_mi, b.window_days);
    let r = Reciprocals::new(p, s, radius_mi, window_days);
    if b.qualified.len() < BOUND_FROM.max(keep + 1) || keep == 0 || !r.usable(s) {
        score_step(ix, p, s, b);
        rank_top(&mut b.qualified, keep, rs);
        return;
    }
    let q = &mut b.qualified;
    let mut y_max = 0.0f64;
    rs.bounds.clear();
    for c in q.iter_mut() {
        let y = c.hav.min(1.0).sqrt();
        y_max = y_max.max(y);
        c.dist_mi = 2.0 * EARTH_RADIUS_MI * y;
        c.similarity = r.similarity(ix, p, s, c);
        rs.bounds.push(stats::order_key(c.similarity.to_bits()));
    }
    let n = rs.bounds.len();
    let (_, tau, _) = rs.bounds.select_nth_unstable(n - keep);
    let tau = f64::from_bits(stats::order_key(*tau as u64) as u64);
    let w = &p.similarity_weights;
    let delta = 2.0 * (w[0] / (w[0] + w[1] + w[2] + w[3])) * 2.0 * EARTH_RADIUS_MI * (math::asin(y_max) - y_max) / radius_mi + 1e-12;
    let cut = tau - delta - 2.0 * RECIPROCAL_SLACK;
    // Comps that may rank in the best `keep` move to the front, scored exactly (a NaN bound is never left out).
    let mut m = 0;
    for j in 0..n {
        if !(q[j].similarity < cut) {
            let c = &mut q[j];
            c.dist_mi = hav_to_mi(c.hav);
            c.similarity = similarity(ix, p, s, radius_mi, window_days, c);
            q.swap(m, j);
            m += 1;
        }
    }
    rank_top(&mut q[..m], keep, rs);
}

/// The divisors of `similarity` as reciprocals, for score_top's bounds.
struct Reciprocals {
    radius: f64,
    window: f64,
    gla: f64,
    beds: f64,
    weights: f64,
}

impl Reciprocals {
    fn new(p: &Params, s: &Subject, radius_mi: f64, window_days: f64) -> Reciprocals {
        let w = &p.similarity_weights;
        Reciprocals {
            radius: 1.0 / radius_mi,
            window: 1.0 / window_days,
            gla: 1.0 / (p.gla_band_frac * s.sqft),
            beds: 1.0 / (p.beds_band + 1.0),
            weights: 1.0 / (w[0] + w[1] + w[2] + w[3]),
        }
    }

    /// Whether every reciprocal the subject uses is a normal number (a divisor too small or too large has none within the slack).
    fn usable(&self, s: &Subject) -> bool {
        [self.radius, self.window, self.beds, self.weights].iter().all(|x| x.is_normal()) && (!s.sqft_known() || self.gla.is_normal())
    }

    /// `similarity` with every division a product by a reciprocal: within RECIPROCAL_SLACK of it.
    #[inline(always)]
    fn similarity(&self, ix: &Index, p: &Params, s: &Subject, c: &Comp) -> f64 {
        similarity_by(ix, p, s, c, |x, d| {
            x * match d {
                Divisor::Radius => self.radius,
                Divisor::Window => self.window,
                Divisor::Gla => self.gla,
                Divisor::Beds => self.beds,
                Divisor::Weights => self.weights,
            }
        })
    }
}

/// MAD trim of ln(adjusted $/sf); see the module doc. x is computed once per comp (f1, in comp order); its median
/// and MAD are taken in f2.
fn trim(ix: &Index, p: &Params, b: &mut StepBuf, f1: &mut Vec<f64>, f2: &mut Vec<f64>, with_rejected: bool) {
    if b.qualified.is_empty() {
        return;
    }
    f1.clear();
    f1.extend(b.qualified.iter().map(|c| c.adjusted_price / ix.hot[c.ix as usize].sqft));
    math::ln_each(f1);
    f2.clear();
    f2.extend_from_slice(f1);
    let (med, mad) = stats::median_mad(f2);
    if mad == 0.0 {
        return;
    }
    let limit = p.mad_trim_k * p.mad_scale * mad;
    let rejected = &mut b.rejected;
    let mut k = 0;
    b.qualified.retain(|c| {
        let keep = (f1[k] - med).abs() <= limit;
        k += 1;
        if !keep && with_rejected {
            rejected.push((c.row, R_PPSF_OUTLIER_MAD));
        }
        keep
    });
}

fn unit(v: f64) -> f64 {
    v.max(0.0).min(1.0)
}

/// The divisors of `similarity`, named for `similarity_by`.
#[derive(Clone, Copy)]
enum Divisor {
    Radius,
    Window,
    Gla,
    Beds,
    Weights,
}

#[inline(always)]
pub fn similarity(ix: &Index, p: &Params, s: &Subject, radius_mi: f64, window_days: f64, c: &Comp) -> f64 {
    let w = &p.similarity_weights;
    similarity_by(ix, p, s, c, |x, d| {
        x / match d {
            Divisor::Radius => radius_mi,
            Divisor::Window => window_days,
            Divisor::Gla => p.gla_band_frac * s.sqft,
            Divisor::Beds => p.beds_band + 1.0,
            Divisor::Weights => w[0] + w[1] + w[2] + w[3],
        }
    })
}

/// The one definition of the similarity (module doc), with each quotient x / d taken by `quotient(x, d)`: `similarity`
/// divides, score_top's bounds multiply by reciprocals (`Reciprocals`).
#[inline(always)]
fn similarity_by(ix: &Index, p: &Params, s: &Subject, c: &Comp, quotient: impl Fn(f64, Divisor) -> f64) -> f64 {
    let h = &ix.hot[c.ix as usize];
    let w = &p.similarity_weights;
    let s_dist = unit(1.0 - quotient(c.dist_mi, Divisor::Radius));
    let s_time = unit(1.0 - quotient((s.as_of_day - c.sale_day) as f64, Divisor::Window));
    let s_gla = if s.sqft_known() && !h.sqft.is_nan() { 1.0 - quotient((h.sqft - s.sqft).abs(), Divisor::Gla).min(1.0) } else { UNKNOWN_TERM_SCORE };
    let s_beds = if s.beds >= 0 && h.beds >= 0 { 1.0 - quotient((h.beds as i32 - s.beds).abs() as f64, Divisor::Beds).min(1.0) } else { UNKNOWN_TERM_SCORE };
    quotient(w[0] * s_dist + w[1] * s_time + w[2] * s_gla + w[3] * s_beds, Divisor::Weights)
}

fn rank_cmp(a: &Comp, b: &Comp) -> Ordering {
    b.similarity
        .total_cmp(&a.similarity)
        .then(a.dist_mi.total_cmp(&b.dist_mi))
        .then(b.sale_day.cmp(&a.sale_day))
        .then(a.row.cmp(&b.row))
}

/// Sorts comps best first (see module doc).
pub fn rank(v: &mut [Comp]) {
    v.sort_unstable_by(rank_cmp);
}

/// rank_cmp's order as a tuple of integers (compared lexicographically): similarity descending and distance
/// ascending by their total_cmp order keys, then sale day descending, then row ascending.
fn rank_key(c: &Comp) -> (u64, u64, u64) {
    const SIGN: u64 = 1 << 63;
    let unsigned = |x: f64| (stats::order_key(x.to_bits()) as u64) ^ SIGN;
    let day_desc = !((c.sale_day as u32) ^ (1 << 31));
    (!unsigned(c.similarity), unsigned(c.dist_mi), ((day_desc as u64) << 32) | c.row as u64)
}

/// Buffers of rank_top, reused across queries.
#[derive(Clone, Debug, Default)]
pub struct RankScratch {
    keys: Vec<(u64, u64, u64, u32)>,
    /// Current position of each comp (by its position before ranking), and the comp at each position.
    pos: Vec<u32>,
    at: Vec<u32>,
    /// Order keys of score_top's similarity bounds.
    bounds: Vec<i64>,
    /// A copy of the comps rank_all moves into place.
    ranked: Vec<Comp>,
}

/// Puts the best `k` comps first, best first (the rest after them in no order): selection of integer rank keys
/// (rank_key), a sort of those k, then k swaps moving the comps into place.
pub fn rank_top(v: &mut [Comp], k: usize, sc: &mut RankScratch) {
    let k = k.min(v.len());
    if k == 0 {
        return;
    }
    if v.len() <= RANK_COUNT_MAX {
        rank_all(v, sc);
        return;
    }
    let keys = &mut sc.keys;
    keys.clear();
    keys.extend(v.iter().enumerate().map(|(i, c)| {
        let (a, b, d) = rank_key(c);
        (a, b, d, i as u32)
    }));
    if k < keys.len() {
        keys.select_nth_unstable(k - 1);
    }
    keys[..k].sort_unstable();
    sc.pos.clear();
    sc.pos.extend(0..v.len() as u32);
    sc.at.clear();
    sc.at.extend(0..v.len() as u32);
    for (j, key) in keys[..k].iter().enumerate() {
        let from = sc.pos[key.3 as usize] as usize;
        if from != j {
            v.swap(j, from);
            let moved = sc.at[j];
            sc.at.swap(j, from);
            sc.pos[moved as usize] = from as u32;
            sc.pos[key.3 as usize] = j as u32;
        }
    }
}

/// Steps up to this many comps are ranked by counting (rank_all) rather than by selection and a sort.
const RANK_COUNT_MAX: usize = stats::RANK_SORT_MAX;

/// Sorts at most RANK_COUNT_MAX comps best first by counting, for each, the comps whose rank key is below its own (keys
/// are distinct: rows are unique within a step, so the counts are a permutation). The compares are branch-free: the
/// standard selection and sort mispredict about one branch per comp and compare at this size. Similarities are
/// usually distinct, and then they alone give the order: counted first as one key (stats::count_below), the other
/// parts of the key only when two similarities are equal.
fn rank_all(v: &mut [Comp], sc: &mut RankScratch) {
    let n = v.len();
    debug_assert!(n <= RANK_COUNT_MAX);
    let (mut k0, mut k1, mut k2) = ([0u64; RANK_COUNT_MAX], [0u64; RANK_COUNT_MAX], [0u64; RANK_COUNT_MAX]);
    for (i, c) in v.iter().enumerate() {
        (k0[i], k1[i], k2[i]) = rank_key(c);
    }
    // k0 as i64 in the same order (sign bit flipped), for count_below.
    let first: [i64; RANK_COUNT_MAX] = std::array::from_fn(|i| (k0[i] ^ (1 << 63)) as i64);
    let mut by_first = [0i64; RANK_COUNT_MAX];
    stats::count_below(&first, n, &mut by_first);
    let mut rank = [0u64; RANK_COUNT_MAX];
    if stats::rank_mask(&by_first, n) == stats::all_ranks(n) {
        for (r, &c) in rank.iter_mut().zip(&by_first[..n]) {
            *r = c as u64;
        }
    } else {
        let width = (n + 3) & !3;
        for j in 0..n {
            let (a0, a1, a2) = (k0[j], k1[j], k2[j]);
            for i in 0..width {
                let below = (a0 < k0[i]) | ((a0 == k0[i]) & ((a1 < k1[i]) | ((a1 == k1[i]) & (a2 < k2[i]))));
                rank[i] += below as u64;
            }
        }
    }
    sc.ranked.clear();
    sc.ranked.extend_from_slice(v);
    for (c, &r) in sc.ranked.iter().zip(&rank[..n]) {
        v[r as usize] = *c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;
    use crate::query::Subject;

    fn comp(row: u32, similarity: f64, dist_mi: f64, sale_day: i32) -> Comp {
        Comp { similarity, dist_mi, sale_day, ..Comp::candidate(row, row, 0.0) }
    }

    #[test]
    fn score_top_equals_full_scoring() {
        use crate::index::RawColumns;
        use crate::timeindex::TimeIndex;
        let p = Params::policy_v2();
        let n = 90;
        let mut c = RawColumns::with_len(n);
        for k in 0..n {
            c.lat[k] = 42.0;
            c.lon[k] = -87.7;
            c.price_usd[k] = 200_000.0;
            c.sqft[k] = [1200.0, 1500.0, f64::NAN, 1350.0, 1600.0][k % 5];
            c.beds[k] = [3, 2, -1, 4][k % 4];
            c.parcel_idx[k] = k as u32;
        }
        let ix = Index::build(&c, &p, &[0u8; 256], &[0u8; 256], &TimeIndex::default()).unwrap();
        let s = Subject { lat: 42.0, lon: -87.7, sqft: 1400.0, beds: 3, ptype: 0, county: 0, as_of_day: 20_000, stratum_mask: 0xff, exclude_parcel: None, max_step: 3, override_step: None };
        for (count, spread) in [(13usize, 1.0), (40, 1.0), (90, 1.0), (90, 0.0), (90, 1e-9)] {
            let mut b = StepBuf::default();
            b.clear(1, 0.5, 180.0);
            for k in 0..count {
                // Haversine terms up to the 0.5-mile radius's (sin(0.5 / 2R)^2 = 3.99e-9), with ties when spread is 0.
                let h = 3.9e-9 * (((k * 37) % 91) as f64 / 91.0 * spread);
                let mut comp = Comp::candidate(k as u32, k as u32, h);
                comp.sale_day = 20_000 - 1 - ((k * 13) % 170) as i32;
                b.qualified.push(comp);
            }
            let mut full = b.clone();
            score_step(&ix, &p, &s, &mut full);
            rank(&mut full.qualified);
            let mut rs = RankScratch::default();
            score_top(&ix, &p, &s, &mut b, 12, &mut rs);
            let bits = |v: &[Comp]| v.iter().map(|c| (c.row, c.dist_mi.to_bits(), c.similarity.to_bits())).collect::<Vec<_>>();
            assert_eq!(bits(&b.qualified[..12]), bits(&full.qualified[..12]), "count {} spread {}", count, spread);
            assert_eq!(b.qualified.len(), count);
        }
    }

    #[test]
    fn rank_top_orders_as_rank() {
        // Ties on similarity, distance and day exercise every key; negative days and -0.0 the key transforms.
        let mut v = Vec::new();
        for r in 0..40u32 {
            v.push(comp(r, [0.5, 0.25, 0.75, 0.5][r as usize % 4], [0.1, -0.0, 0.0, 0.3, 0.1][r as usize % 5], [-3, 7, 7, 100][r as usize % 4] * (r as i32 % 3)));
        }
        let mut sc = RankScratch::default();
        // 40 comps take selection and a sort; 32 or fewer are ranked by counting (rank_all).
        for n in [40, RANK_COUNT_MAX, 17, 1] {
            let v = &v[40 - n..];
            let mut full = v.to_vec();
            rank(&mut full);
            for k in [1, 5, 12, 39, 40, 41] {
                let mut top = v.to_vec();
                rank_top(&mut top, k, &mut sc);
                let k = k.min(v.len());
                let rows_of = |x: &[Comp]| x.iter().map(|c| c.row).collect::<Vec<u32>>();
                assert_eq!(rows_of(&top[..k]), rows_of(&full[..k]), "n = {}, k = {}", n, k);
                let mut rows: Vec<u32> = top.iter().map(|c| c.row).collect();
                rows.sort_unstable();
                assert_eq!(rows, (40 - n as u32..40).collect::<Vec<u32>>(), "a permutation");
            }
        }
    }
}
