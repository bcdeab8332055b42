//! Order statistics used by the kernel. Definitions:
//! - median: middle value of the sorted sample; for even n the mean of the two middle values (= type 7 at p = 0.5).
//! - quantile: Hyndman–Fan type 7 (R default): h = (n - 1) p, q = x[⌊h⌋] + (h - ⌊h⌋)(x[⌊h⌋+1] - x[⌊h⌋]).
//! - MAD: median(|x - median(x)|), unscaled; callers multiply by the consistency constant 1.4826.
//! - split-conformal: sorted calibration ratios r(1..n); two-sided (1 - alpha) interval
//!   [r(⌊(n+1)α/2⌋), r(⌈(n+1)(1-α/2)⌉)], ranks clamped to [1, n]; one-sided rank ⌈(n+1)(1-α)⌉ clamped to [1, n].
//! Empty samples give NaN (callers check n).
#![forbid(unsafe_code)]

use crate::math;
use crate::errors;

/// Sort key of a double in total_cmp order, as total_cmp computes it: the bits as i64 with the 63 low bits flipped
/// when the sign is set. An involution: applied to a key it gives the double's bits back.
#[inline]
pub fn order_key(bits: u64) -> i64 {
    let k = bits as i64;
    k ^ ((((k >> 63) as u64) >> 1) as i64)
}

/// Replaces every value by its order key (stored in the f64's bits), or back: comparisons in between are integer
/// compares of `key_of`, total_cmp's order without its per-comparison bit twiddling.
fn flip(x: &mut [f64]) {
    x.iter_mut().for_each(|v| *v = f64::from_bits(order_key(v.to_bits()) as u64));
}

#[inline]
fn key_of(v: &f64) -> i64 {
    v.to_bits() as i64
}

/// Samples up to this size are sorted by counting ranks (rank_sort) instead of the standard sort: the kernel's samples
/// are a step's comps (a dozen or two), where the standard sort's insertion sort mispredicts about a branch per element
/// (random samples: 16 values 98–109 against 162–196 ns, 24 values 117 against 141–153, 32 values 183 against 170).
/// On the county replay a limit of 32 was faster than 16 or 24.
pub const RANK_SORT_MAX: usize = 32;
// rank_mask keeps one bit per rank in a u64.
const _: () = assert!(RANK_SORT_MAX < 64);

/// Sorts in total_cmp order (the order `sort_unstable_by(total_cmp)` gives: equal keys are equal bits).
fn sort(v: &mut [f64]) {
    if v.len() <= RANK_SORT_MAX {
        rank_sort(v);
        return;
    }
    flip(v);
    v.sort_unstable_by_key(key_of);
    flip(v);
}

/// `sort` of at most RANK_SORT_MAX values without a data-dependent branch in its n² compares (rank_sort_by on the
/// order keys).
fn rank_sort(v: &mut [f64]) {
    rank_sort_by(v, |x| order_key(x.to_bits()));
}

/// Sorts at most RANK_SORT_MAX items ascending by `key` without a data-dependent branch in its n² compares: each item
/// goes to the slot given by the count of items whose key is below its own. Equal keys share a count, so only the
/// first slot of a run of equal keys is written; each slot left unwritten takes the item before it (one of equal
/// key: for items equal when their keys are, the order `sort_unstable_by_key` gives).
pub fn rank_sort_by<T: Copy + Default>(v: &mut [T], key: impl Fn(T) -> i64) {
    let n = v.len();
    debug_assert!(n <= RANK_SORT_MAX);
    let mut keys = [0i64; RANK_SORT_MAX];
    let mut items = [T::default(); RANK_SORT_MAX];
    for (k, &x) in v.iter().enumerate() {
        keys[k] = key(x);
        items[k] = x;
    }
    let mut rank = [0i64; RANK_SORT_MAX];
    count_below(&keys, n, &mut rank);
    for i in 0..n {
        v[rank[i] as usize] = items[i];
    }
    let written = rank_mask(&rank, n);
    if written != all_ranks(n) {
        for i in 1..n {
            if written >> i & 1 == 0 {
                v[i] = v[i - 1];
            }
        }
    }
}

/// counts[i] = the number of keys[..n] below keys[i], for i < n: the ranks of a sample of at most RANK_SORT_MAX keys,
/// equal keys sharing their first rank. Four i at a time (to a multiple of 4: the keys past n are zeros whose counts
/// are never read), the four counts in one vector register while every key goes by; counting key by key over all i
/// loaded and stored the whole count array n times (county replay median 2.01 -> 1.94 us).
pub fn count_below(keys: &[i64; RANK_SORT_MAX], n: usize, counts: &mut [i64; RANK_SORT_MAX]) {
    let width = (n + 3) & !3;
    for i0 in (0..width).step_by(4) {
        let block = [keys[i0], keys[i0 + 1], keys[i0 + 2], keys[i0 + 3]];
        let mut count = [0i64; 4];
        for &kj in &keys[..n] {
            for l in 0..4 {
                count[l] += (kj < block[l]) as i64;
            }
        }
        counts[i0..i0 + 4].copy_from_slice(&count);
    }
}

/// The ranks present in `counts[..n]` (count_below's), one bit each in a u64. They are all of 0..n (all_ranks) iff
/// the keys were distinct; with equal keys, the slots after the first of each run of equals are missing.
pub fn rank_mask(counts: &[i64; RANK_SORT_MAX], n: usize) -> u64 {
    counts[..n].iter().fold(0u64, |m, &r| m | 1 << r)
}

/// The rank_mask of n distinct keys.
pub fn all_ranks(n: usize) -> u64 {
    (1u64 << n) - 1
}

/// Type 7 quantile of an already sorted, non-empty slice.
pub fn quantile7_sorted(x: &[f64], p: f64) -> f64 {
    if x.is_empty() {
        return f64::NAN;
    }
    let h = (x.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = if lo + 1 < x.len() { lo + 1 } else { lo };
    x[lo] + (h - lo as f64) * (x[hi] - x[lo])
}

/// Median of an already sorted slice (mean of the two middle values for even n).
pub fn median_sorted(x: &[f64]) -> f64 {
    let n = x.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        x[n / 2]
    } else {
        (x[n / 2 - 1] + x[n / 2]) * 0.5
    }
}

/// Median of any slice; sorts it in place.
pub fn median_mut(x: &mut [f64]) -> f64 {
    sort(x);
    median_sorted(x)
}

/// Median by selection: the value median_mut gives (the middle element of the total_cmp order, or the mean of the two
/// middle ones, added in the same order), without a full sort (a sample of at most RANK_SORT_MAX values is sorted by
/// rank_sort, faster there than selecting). Reorders `x`. Compares order keys (see `flip`); `x` holds them meanwhile
/// and gets its values back.
pub fn median_select(x: &mut [f64]) -> f64 {
    let n = x.len();
    if n == 0 {
        return f64::NAN;
    }
    if n <= RANK_SORT_MAX {
        rank_sort(x);
        return median_sorted(x);
    }
    flip(x);
    let (below, mid, _) = x.select_nth_unstable_by_key(n / 2, key_of);
    let mid = key_of(mid);
    // For even n the lower middle is the largest element below the upper one.
    let lo = if n % 2 == 0 { below.iter().map(key_of).max().unwrap_or(mid) } else { mid };
    flip(x);
    let (lo, mid) = (f64::from_bits(order_key(lo as u64) as u64), f64::from_bits(order_key(mid as u64) as u64));
    if n % 2 == 1 { mid } else { (lo + mid) * 0.5 }
}

/// Median and unscaled MAD of a sample already sorted in total_cmp order, without selection: the deviations
/// |x − median| fall (in floating point too: subtraction and abs are monotone) along the values below the median and
/// rise along the rest, so a merge of the two runs from the median outwards meets them in ascending order and stops at
/// the middle. The values the two selections of median_mad give (same deviations, same middle, same sum for even n).
/// None when the sample holds a NaN (total_cmp puts NaNs at the ends): median_mad then selects.
pub fn median_mad_sorted(x: &[f64]) -> Option<(f64, f64)> {
    let n = x.len();
    if n == 0 || x[0].is_nan() || x[n - 1].is_nan() {
        return None;
    }
    let med = median_sorted(x);
    let dev = |i: usize| (x[i] - med).abs();
    let (mut below, mut above) = (x.partition_point(|v| *v < med), x.partition_point(|v| *v < med));
    let (mut prev, mut cur) = (f64::NAN, f64::NAN);
    for _ in 0..=n / 2 {
        // Take the smaller next deviation: from below (index below - 1) or from above (index above).
        let take_below = below > 0 && (above >= n || dev(below - 1) <= dev(above));
        prev = cur;
        if take_below {
            below -= 1;
            cur = dev(below);
        } else {
            cur = dev(above);
            above += 1;
        }
    }
    Some((med, if n % 2 == 1 { cur } else { (prev + cur) * 0.5 }))
}

/// Samples up to this size take their median and MAD from one sort and a merge (median_mad_sorted) rather than two
/// selections: faster below it, slower above (measured on random samples: 16 values 245 against 342 ns, 32 values 348
/// against 379, 48 values 530 against 469).
const SORT_MAX: usize = 32;

/// Median and unscaled MAD of `x`: the median of `x` by selection (median_select), then the median of the deviations
/// |x − median| by selection; for samples up to SORT_MAX the same values from one sort and a merge
/// (median_mad_sorted). `x` is overwritten (sorted, or its deviations).
pub fn median_mad(x: &mut [f64]) -> (f64, f64) {
    if x.len() <= SORT_MAX {
        sort(x);
        if let Some(r) = median_mad_sorted(x) {
            return r;
        }
    }
    let med = median_select(x);
    x.iter_mut().for_each(|v| *v = (*v - med).abs());
    (med, median_select(x))
}

/// Summary of the selected comps' adjusted prices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub median: f64,
    pub q25: f64,
    pub q75: f64,
    /// Robust dispersion as a fraction: mad_scale × MAD(ln adjusted price).
    pub fsd: f64,
}

/// The summary of `prices` (sorted in place); `logs` is overwritten. The logs of sorted prices come sorted (ln is
/// non-decreasing), so their median and MAD come from the merge alone (median_mad_sorted); were they ever out of order,
/// median_mad sorts them first.
pub fn summarize(prices: &mut [f64], mad_scale: f64, logs: &mut Vec<f64>) -> Summary {
    sort(prices);
    logs.clear();
    logs.extend_from_slice(prices);
    math::ln_each(logs);
    let in_order = logs.windows(2).all(|w| order_key(w[0].to_bits()) <= order_key(w[1].to_bits()));
    let (_, mad) = if in_order { median_mad_sorted(logs) } else { None }.unwrap_or_else(|| median_mad(logs));
    Summary {
        n: prices.len(),
        median: median_sorted(prices),
        q25: quantile7_sorted(prices, 0.25),
        q75: quantile7_sorted(prices, 0.75),
        fsd: mad_scale * mad,
    }
}

fn check(n: usize, alpha: f64) -> Result<(), i32> {
    if n == 0 || !(alpha > 0.0 && alpha < 1.0) { Err(errors::BAD_CONFORMAL_INPUT) } else { Ok(()) }
}

fn clamp_rank(rank: f64, n: usize) -> usize {
    (rank.max(1.0) as usize).min(n)
}

/// Two-sided split-conformal bounds; sorts `ratios` in place.
pub fn conformal_two_sided(ratios: &mut [f64], alpha: f64) -> Result<(f64, f64), i32> {
    check(ratios.len(), alpha)?;
    if ratios.iter().any(|r| !r.is_finite()) {
        return Err(errors::BAD_CONFORMAL_INPUT);
    }
    sort(ratios);
    let n = ratios.len();
    let n1 = (n + 1) as f64;
    let lo = clamp_rank((n1 * alpha / 2.0).floor(), n);
    let hi = clamp_rank((n1 * (1.0 - alpha / 2.0)).ceil(), n);
    Ok((ratios[lo - 1], ratios[hi - 1]))
}

/// One-sided split-conformal quantile at rank ⌈(n+1)(1-α)⌉; sorts `scores` in place.
pub fn conformal_one_sided(scores: &mut [f64], alpha: f64) -> Result<f64, i32> {
    check(scores.len(), alpha)?;
    if scores.iter().any(|r| !r.is_finite()) {
        return Err(errors::BAD_CONFORMAL_INPUT);
    }
    sort(scores);
    let n = scores.len();
    let k = clamp_rank(((n + 1) as f64 * (1.0 - alpha)).ceil(), n);
    Ok(scores[k - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_sort_equals_total_cmp_sort() {
        // Every size on both sides of RANK_SORT_MAX, with ties, signed zeros, infinities and NaNs of both signs.
        let specials = [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN, 1e-310, -1e300];
        for n in 0..=RANK_SORT_MAX + 8 {
            for seed in 0..12u64 {
                let x: Vec<f64> = (0..n as u64)
                    .map(|k| {
                        let h = (k * 2_654_435_761 + seed * 40_503) % 97;
                        if seed % 3 == 0 && h % 7 == 0 { specials[(h as usize / 7) % specials.len()] } else { (h % (5 + seed * 9)) as f64 * if h % 2 == 0 { -1.5 } else { 2.25 } }
                    })
                    .collect();
                let (mut a, mut b) = (x.clone(), x.clone());
                sort(&mut a);
                b.sort_unstable_by(|p, q| p.total_cmp(q));
                assert_eq!(a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), b.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), "{:?}", x);
                // The median of the same samples (by rank_sort up to RANK_SORT_MAX values, by selection above) is the sorted one's.
                if n > 0 {
                    assert_eq!(median_select(&mut x.clone()).to_bits(), median_sorted(&b).to_bits(), "{:?}", x);
                }
            }
        }
    }

    #[test]
    fn type7_quantiles_by_hand() {
        // x = 1,2,3,4: q25 h = 0.75 -> 1 + 0.75 = 1.75; q75 h = 2.25 -> 3.25; median 2.5.
        let x = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile7_sorted(&x, 0.25), 1.75);
        assert_eq!(quantile7_sorted(&x, 0.75), 3.25);
        assert_eq!(median_sorted(&x), 2.5);
        assert_eq!(quantile7_sorted(&[7.0], 0.25), 7.0);
        assert!(median_sorted(&[]).is_nan());
    }

    #[test]
    fn selection_median_equals_sorted_median() {
        // Odd, even, ties, signed zeros: selection must return the sorted median bit for bit.
        let big: Vec<f64> = (0..61).map(|k| ((k * 37 % 61) as f64 - 30.0) * 0.25).collect();
        let samples: [&[f64]; 9] = [&big, &big[..40], &[-3.0, 2.0, -0.5, 8.0, -0.0, 1.0],&[3.0], &[2.0, 1.0], &[5.0, 1.0, 4.0, 1.0], &[0.0, -0.0, 1.0, -1.0], &[7.0, 7.0, 7.0, 1.0, 9.0, 9.0], &[1e300, -1e300, 2.5, 0.1, 0.2]];
        for s in samples {
            let (mut a, mut b) = (s.to_vec(), s.to_vec());
            // Against a sort by total_cmp itself (median_mut and median_select both compare order keys).
            b.sort_unstable_by(|x, y| x.total_cmp(y));
            assert_eq!(median_select(&mut a).to_bits(), median_sorted(&b).to_bits(), "{:?}", s);
            let mut c = s.to_vec();
            assert_eq!(median_mut(&mut c).to_bits(), median_sorted(&b).to_bits(), "{:?}", s);
            // The sample keeps its values (reordered).
            a.sort_unstable_by(|x, y| x.total_cmp(y));
            assert_eq!(a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), b.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
        }
        assert!(median_select(&mut []).is_nan());
    }

    /// Median and MAD by their definitions: two selections, the deviations in a second sample.
    fn by_selection(x: &[f64]) -> (f64, f64) {
        let med = median_select(&mut x.to_vec());
        let mut dev: Vec<f64> = x.iter().map(|v| (v - med).abs()).collect();
        (med, median_select(&mut dev))
    }

    #[test]
    fn sorted_median_mad_equals_selection() {
        for n in 1..40usize {
            for seed in 0..20u64 {
                // Skewed samples with ties and negative values.
                let mut x: Vec<f64> = (0..n as u64).map(|k| ((k * 7 + seed * 13) % 11) as f64 * if (k + seed) % 3 == 0 { -0.5 } else { 1.25 } + (k % 2) as f64 * (seed as f64)).collect();
                let (m2, d2) = by_selection(&x);
                x.sort_unstable_by(|a, b| a.total_cmp(b));
                let (m1, d1) = median_mad_sorted(&x).unwrap();
                assert_eq!((m1.to_bits(), d1.to_bits()), (m2.to_bits(), d2.to_bits()), "{:?}", x);
            }
        }
        assert!(median_mad_sorted(&[]).is_none());
        assert!(median_mad_sorted(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn median_mad_equals_selection() {
        // Both sides of SORT_MAX, ties, negative values and a NaN (the sorted merge refuses it: selection then).
        for n in [1usize, 2, 5, 31, 32, 33, 64, 101] {
            for seed in 0..10u64 {
                let x: Vec<f64> = (0..n as u64).map(|k| ((k * 7 + seed * 13) % 11) as f64 * if (k + seed) % 3 == 0 { -0.5 } else { 1.25 }).collect();
                let (m1, d1) = median_mad(&mut x.clone());
                let (m2, d2) = by_selection(&x);
                assert_eq!((m1.to_bits(), d1.to_bits()), (m2.to_bits(), d2.to_bits()), "{:?}", x);
            }
        }
        let with_nan = [3.0, f64::NAN, 1.0, 2.0];
        let (m1, d1) = median_mad(&mut with_nan.clone());
        let (m2, d2) = by_selection(&with_nan);
        assert_eq!((m1.to_bits(), d1.to_bits()), (m2.to_bits(), d2.to_bits()));
    }

    #[test]
    fn mad_of_small_sample() {
        // x = 1,2,3,4,100: median 3, |dev| = 2,1,0,1,97 -> MAD 1.
        let mut x = vec![100.0, 1.0, 2.0, 3.0, 4.0];
        assert_eq!(median_mad(&mut x), (3.0, 1.0));
        // Negative values (their order keys differ from their bits): -4,-3,-2,-1,96 -> median -2, MAD 1.
        let mut y = vec![96.0, -4.0, -3.0, -2.0, -1.0];
        assert_eq!(median_mad(&mut y), (-2.0, 1.0));
    }

    #[test]
    fn summary_single_and_pair() {
        let mut l = Vec::new();
        let one = summarize(&mut [200_000.0], 1.4826, &mut l);
        assert_eq!((one.n, one.median, one.q25, one.q75, one.fsd), (1, 200_000.0, 200_000.0, 200_000.0, 0.0));
        // pair 100k, 400k: ln values 11.5129, 12.8992, median in the middle, |dev| both ln(4)/2 = 0.693147.
        let two = summarize(&mut [400_000.0, 100_000.0], 1.4826, &mut l);
        assert_eq!(two.median, 250_000.0);
        assert!((two.fsd - 1.4826 * (4.0f64).ln() / 2.0).abs() < 1e-12);
    }

    #[test]
    fn conformal_ranks() {
        // n = 9, alpha = 0.2: lo rank floor(10 * 0.1) = 1, hi rank ceil(10 * 0.9) = 9; one-sided ceil(10*0.8) = 8.
        let mut r: Vec<f64> = (1..=9).rev().map(|i| i as f64).collect();
        assert_eq!(conformal_two_sided(&mut r, 0.2).unwrap(), (1.0, 9.0));
        assert_eq!(conformal_one_sided(&mut r, 0.2).unwrap(), 8.0);
        // n = 3, alpha = 0.1: lo floor(0.2) = 0 -> clamped to 1; hi ceil(3.8) = 4 -> clamped to 3.
        let mut r3 = vec![0.9, 1.1, 1.0];
        assert_eq!(conformal_two_sided(&mut r3, 0.1).unwrap(), (0.9, 1.1));
        assert!(conformal_two_sided(&mut [], 0.2).is_err());
        assert!(conformal_one_sided(&mut [1.0], 1.5).is_err());
    }
}
