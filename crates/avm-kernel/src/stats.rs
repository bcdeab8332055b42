//! Order statistics used by the kernel. Definitions:
//! - median: middle value of the sorted sample; for even n the mean of the two middle values (= type 7 at p = 0.5).
//! - quantile: Hyndman–Fan type 7 (R default): h = (n - 1) p, q = x[⌊h⌋] + (h - ⌊h⌋)(x[⌊h⌋+1] - x[⌊h⌋]).
//! - MAD: median(|x - median(x)|), unscaled; callers multiply by the consistency constant 1.4826.
//! - split-conformal: sorted calibration ratios r(1..n); two-sided (1 - alpha) interval
//!   [r(⌊(n+1)α/2⌋), r(⌈(n+1)(1-α/2)⌉)], ranks clamped to [1, n]; one-sided rank ⌈(n+1)(1-α)⌉ clamped to [1, n].
//! Empty samples give NaN (callers check n).
#![forbid(unsafe_code)]

use crate::errors;

fn sort(v: &mut [f64]) {
    v.sort_unstable_by(|a, b| a.total_cmp(b));
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
/// middle ones, added in the same order), without sorting. Reorders `x`.
pub fn median_select(x: &mut [f64]) -> f64 {
    let n = x.len();
    if n == 0 {
        return f64::NAN;
    }
    let (below, mid, _) = x.select_nth_unstable_by(n / 2, |a, b| a.total_cmp(b));
    let mid = *mid;
    if n % 2 == 1 {
        return mid;
    }
    // The lower middle is the largest element below the upper one.
    let mut lo = below[0];
    for &v in below.iter() {
        if v.total_cmp(&lo) == std::cmp::Ordering::Greater {
            lo = v;
        }
    }
    (lo + mid) * 0.5
}

/// Median and unscaled MAD of `x`; `scratch` is overwritten. Reorders `x` (selection, no sort).
pub fn median_mad(x: &mut [f64], scratch: &mut Vec<f64>) -> (f64, f64) {
    let med = median_select(x);
    scratch.clear();
    scratch.extend(x.iter().map(|v| (v - med).abs()));
    (med, median_select(scratch))
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

pub fn summarize(prices: &mut [f64], mad_scale: f64, scratch: &mut Vec<f64>, logs: &mut Vec<f64>) -> Summary {
    sort(prices);
    logs.clear();
    logs.extend(prices.iter().map(|p| p.ln()));
    let (_, mad) = median_mad(logs, scratch);
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
        let samples: [&[f64]; 6] = [&[3.0], &[2.0, 1.0], &[5.0, 1.0, 4.0, 1.0], &[0.0, -0.0, 1.0, -1.0], &[7.0, 7.0, 7.0, 1.0, 9.0, 9.0], &[1e300, -1e300, 2.5, 0.1, 0.2]];
        for s in samples {
            let (mut a, mut b) = (s.to_vec(), s.to_vec());
            assert_eq!(median_select(&mut a).to_bits(), median_mut(&mut b).to_bits(), "{:?}", s);
        }
        assert!(median_select(&mut []).is_nan());
    }

    #[test]
    fn mad_of_small_sample() {
        // x = 1,2,3,4,100: median 3, |dev| = 2,1,0,1,97 -> MAD 1.
        let mut x = vec![100.0, 1.0, 2.0, 3.0, 4.0];
        let mut s = Vec::new();
        assert_eq!(median_mad(&mut x, &mut s), (3.0, 1.0));
    }

    #[test]
    fn summary_single_and_pair() {
        let (mut s, mut l) = (Vec::new(), Vec::new());
        let one = summarize(&mut [200_000.0], 1.4826, &mut s, &mut l);
        assert_eq!((one.n, one.median, one.q25, one.q75, one.fsd), (1, 200_000.0, 200_000.0, 200_000.0, 0.0));
        // pair 100k, 400k: ln values 11.5129, 12.8992, median in the middle, |dev| both ln(4)/2 = 0.693147.
        let two = summarize(&mut [400_000.0, 100_000.0], 1.4826, &mut s, &mut l);
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
