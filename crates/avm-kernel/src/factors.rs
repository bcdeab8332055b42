//! Per-query memo of the time-index factor by sale day.
//!
//! Every candidate of a query is in the subject's county and the as-of day is the query's, so a comp's factor is a
//! function of its sale day alone: F(d) = factor_from_levels(level(county, as_of), level(county, d), d, as_of)
//! (timeindex.rs), where level(county, d) is the row's precomputed sale-month level. The memo keeps F by age
//! (as_of − d, in days) and computes each age once with exactly that function, so the value is the one a direct
//! computation gives, bit for bit. It is keyed by the index build (a rebuild follows any change of params or time
//! index), the county, the as-of day and the params the factor reads; a key change empties it in O(1) (entries carry
//! the generation they were written in). Consecutive queries with one as-of day (a serving snapshot, score-all)
//! share it; ages beyond MEMO_DAYS are computed directly.
#![forbid(unsafe_code)]

use crate::math;
use crate::memo::Generations;
use crate::index::Index;
use crate::params::Params;
use crate::timeindex::{factor_from_levels_ln, ln_growth, TimeIndex};

/// Ages (days) the memo holds: four years covers every ladder window and the as-is relaxed step.
pub const MEMO_DAYS: usize = 1461;

type Key = (u64, u8, i32, u64, u64, u64);

/// Reusable across queries (lives in query::Scratch).
#[derive(Clone, Debug, Default)]
pub struct FactorMemo {
    key: Option<Key>,
    /// Factor by age, for this key.
    by_age: Generations<f64>,
    /// The AsOf of the key, with the level it was computed from.
    as_of: Option<(u64, AsOf)>,
}

/// The as-of level and logs one query's factors share.
#[derive(Clone, Copy, Debug)]
pub struct AsOf {
    pub now: f64,
    pub ln_now: f64,
    pub ln_g: f64,
    pub day: i32,
}

impl AsOf {
    pub fn new(p: &Params, now: f64, day: i32) -> AsOf {
        AsOf { now, ln_now: math::ln(now), ln_g: ln_growth(p), day }
    }
}

impl FactorMemo {
    /// Points the memo at a query: keeps its entries when the key is unchanged, else starts a new generation.
    /// Returns the query's AsOf (its logs computed once per key and as-of level).
    pub fn prepare(&mut self, ix: &Index, p: &Params, ti: &TimeIndex, county: u8, as_of_day: i32) -> AsOf {
        let key = (ix.build_id, county, as_of_day, p.time_index_max_annual.to_bits(), p.time_index_clamp[0].to_bits(), p.time_index_clamp[1].to_bits());
        // An index built by Index::build (build_id > 0) fixes the time index it was built with, so the key fixes the
        // as-of level: consecutive queries of one key reuse it without looking it up.
        if self.key == Some(key) && ix.build_id > 0 {
            if let Some((_, at)) = self.as_of {
                return at;
            }
        }
        if self.key != Some(key) {
            self.key = Some(key);
            self.as_of = None;
            self.by_age.clear();
        }
        let now = ti.level_of(county, as_of_day);
        match self.as_of {
            Some((bits, at)) if bits == now.to_bits() => at,
            _ => {
                let at = AsOf::new(p, now, as_of_day);
                self.as_of = Some((now.to_bits(), at));
                at
            }
        }
    }

    /// F of index row `i` (see module doc); `prepare` must have been called for this query.
    #[inline]
    pub fn factor(&mut self, ix: &Index, p: &Params, a: &AsOf, i: usize) -> f64 {
        let (day, pr) = (ix.hot[i].sale_day, &ix.price[i]);
        let direct = || factor_from_levels_ln(p, a.ln_g, a.now, a.ln_now, pr.level, pr.ln_level, day, a.day);
        let age = a.day as i64 - day as i64;
        if age < 0 || age as usize >= MEMO_DAYS {
            return direct();
        }
        self.by_age.get_or_insert_with(age as usize, direct)
    }
}
