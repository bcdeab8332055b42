//! Time index: monthly price-level series per county, and the factor that carries a sale price to the as-of date.
//!
//! Definitions:
//! - level(m) = the level of the last series month <= m; months before the first entry use the first level
//!   (flat extrapolation); a county without a series has factor 1. Looked up in a per-month table over the series'
//!   span (built once per series), so a lookup is one index.
//! - raw factor = level(month(as_of)) / level(month(sale)); its log is taken as ln level(as_of) − ln level(sale)
//!   (the per-row log level is precomputed at index build, so a query needs no logarithm per comp).
//! - cap: |ln factor| <= years_elapsed * ln(1 + max_annual), years_elapsed = (as_of - sale_day) / 365.2425
//!   (8%/year compounded); a factor beyond the cap is set to exp(±cap).
//! - clamp: the capped factor is then hard-clamped to [clamp_lo, clamp_hi] = [0.75, 1.30].
#![forbid(unsafe_code)]

use crate::math;
use crate::dates::{month_number, DAYS_PER_YEAR};
use crate::errors;
use crate::params::Params;

#[derive(Clone, Debug, Default)]
pub struct Series {
    months: Vec<i32>,
    levels: Vec<f64>,
    /// level(months[0] + k) for every month of the series' span (empty when the span exceeds DENSE_MONTHS): one
    /// lookup instead of a binary search, same values.
    by_month: Vec<f64>,
}

/// Longest series span (months) given a dense per-month table.
const DENSE_MONTHS: i64 = 1 << 12;

#[derive(Clone, Debug, Default)]
pub struct TimeIndex {
    by_county: Vec<Option<Series>>,
}

impl Series {
    /// Months must be strictly increasing and levels finite and positive.
    pub fn new(months: Vec<i32>, levels: Vec<f64>) -> Result<Series, i32> {
        let ordered = months.windows(2).all(|w| w[0] < w[1]);
        let positive = levels.iter().all(|l| l.is_finite() && *l > 0.0);
        if months.len() != levels.len() || months.is_empty() || !ordered || !positive {
            return Err(errors::BAD_TIME_INDEX);
        }
        let mut s = Series { months, levels, by_month: Vec::new() };
        let span = *s.months.last().unwrap_or(&0) as i64 - s.months[0] as i64 + 1;
        if span <= DENSE_MONTHS {
            s.by_month = (0..span).map(|k| s.search(s.months[0] + k as i32)).collect();
        }
        Ok(s)
    }

    /// Level of `month` (see module doc): the per-month table inside the span, the end levels outside it.
    pub fn level(&self, month: i32) -> f64 {
        if self.by_month.is_empty() {
            return self.search(month);
        }
        let k = month as i64 - self.months[0] as i64;
        if k < 0 {
            self.levels[0]
        } else if k as usize >= self.by_month.len() {
            self.levels[self.levels.len() - 1]
        } else {
            self.by_month[k as usize]
        }
    }

    fn search(&self, month: i32) -> f64 {
        // partition_point = number of entries with month <= m; the entry before it is the last one <= m.
        let k = self.months.partition_point(|&x| x <= month);
        self.levels[if k == 0 { 0 } else { k - 1 }]
    }
}

impl TimeIndex {
    pub fn set(&mut self, county: u8, series: Series) {
        let c = county as usize;
        if self.by_county.len() <= c {
            self.by_county.resize(c + 1, None);
        }
        self.by_county[c] = Some(series);
    }

    pub fn clear(&mut self) {
        self.by_county.clear();
    }

    /// Level of `county` in the month of `day`; NaN when the county has no series.
    pub fn level_of(&self, county: u8, day: i32) -> f64 {
        match self.by_county.get(county as usize) {
            Some(Some(s)) => s.level(month_number(day)),
            _ => f64::NAN,
        }
    }

    /// Factor applied to a sale of `county` on `sale_day` to express it at `as_of_day` (see module doc).
    pub fn factor(&self, p: &Params, county: u8, sale_day: i32, as_of_day: i32) -> f64 {
        let (now, then) = (self.level_of(county, as_of_day), self.level_of(county, sale_day));
        factor_from_levels(p, now, math::ln(now), then, math::ln(then), sale_day, as_of_day)
    }
}

/// The factor from the two levels and their logs; 1 when there is no series (NaN levels).
#[inline]
pub fn factor_from_levels(p: &Params, now: f64, ln_now: f64, then: f64, ln_then: f64, sale_day: i32, as_of_day: i32) -> f64 {
    factor_from_levels_ln(p, ln_growth(p), now, ln_now, then, ln_then, sale_day, as_of_day)
}

/// ln(1 + time_index_max_annual): the cap's log growth per year (a query computes it once per step).
#[inline]
pub fn ln_growth(p: &Params) -> f64 {
    math::ln(1.0 + p.time_index_max_annual)
}

/// factor_from_levels with ln_growth(p) supplied.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn factor_from_levels_ln(p: &Params, ln_g: f64, now: f64, ln_now: f64, then: f64, ln_then: f64, sale_day: i32, as_of_day: i32) -> f64 {
    if now.is_nan() || then.is_nan() {
        return 1.0;
    }
    cap_ln_growth(p, ln_g, now / then, ln_now - ln_then, (as_of_day - sale_day) as f64 / DAYS_PER_YEAR)
}

/// Applies the annual compounding cap then the hard clamp to a raw factor.
pub fn cap_and_clamp(p: &Params, raw: f64, years: f64) -> f64 {
    cap_and_clamp_ln(p, raw, math::ln(raw), years)
}

/// As cap_and_clamp, with the log of the raw factor supplied.
#[inline]
pub fn cap_and_clamp_ln(p: &Params, raw: f64, ln_f: f64, years: f64) -> f64 {
    cap_ln_growth(p, ln_growth(p), raw, ln_f, years)
}

#[inline]
fn cap_ln_growth(p: &Params, ln_g: f64, raw: f64, ln_f: f64, years: f64) -> f64 {
    let max_ln = years.max(0.0) * ln_g;
    let capped = if ln_f > max_ln {
        math::exp(max_ln)
    } else if ln_f < -max_ln {
        math::exp(-max_ln)
    } else {
        raw
    };
    capped.max(p.time_index_clamp[0]).min(p.time_index_clamp[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;

    #[test]
    fn cap_binds_before_clamp() {
        let p = Params::policy_v2();
        // 1 year, raw 1.20: cap exp(ln 1.08) = 1.08.
        assert!((cap_and_clamp(&p, 1.20, 1.0) - 1.08).abs() < 1e-12);
        // 1 year, raw 0.80: cap exp(-ln 1.08) = 1/1.08 = 0.925926.
        assert!((cap_and_clamp(&p, 0.80, 1.0) - 1.0 / 1.08).abs() < 1e-12);
        // within the cap: unchanged.
        assert_eq!(cap_and_clamp(&p, 1.05, 1.0), 1.05);
    }

    #[test]
    fn clamp_binds_after_long_horizons() {
        let p = Params::policy_v2();
        // 5 years: cap 1.08^5 = 1.4693 > 1.30, so raw 1.50 -> cap 1.4693 -> clamp 1.30.
        assert_eq!(cap_and_clamp(&p, 1.50, 5.0), 1.3);
        // 5 years: cap 1/1.4693 = 0.6806 < 0.75, so raw 0.5 -> 0.6806 -> clamp 0.75.
        assert_eq!(cap_and_clamp(&p, 0.5, 5.0), 0.75);
        // zero elapsed time: cap is ln factor <= 0, so any raw becomes 1.
        assert_eq!(cap_and_clamp(&p, 1.1, 0.0), 1.0);
    }

    #[test]
    fn level_lookup_steps_and_extrapolates() {
        let s = Series::new(vec![100, 102], vec![1.0, 2.0]).unwrap();
        assert_eq!(s.level(99), 1.0);
        assert_eq!(s.level(101), 1.0);
        assert_eq!(s.level(102), 2.0);
        assert_eq!(s.level(500), 2.0);
        assert_eq!(s.level(i32::MIN), 1.0);
        assert_eq!(s.level(i32::MAX), 2.0);
        // A span too long for the per-month table falls back to the search, same definition.
        let wide = Series::new(vec![0, 1 << 20], vec![3.0, 4.0]).unwrap();
        assert!(wide.by_month.is_empty());
        assert_eq!((wide.level(-1), wide.level(5), wide.level(1 << 20)), (3.0, 3.0, 4.0));
        assert!(Series::new(vec![2, 1], vec![1.0, 1.0]).is_err());
        assert!(Series::new(vec![1], vec![0.0]).is_err());
    }

    #[test]
    fn county_without_series_is_one() {
        let p = Params::policy_v2();
        let ti = TimeIndex::default();
        assert_eq!(ti.factor(&p, 1, 0, 400), 1.0);
    }
}
