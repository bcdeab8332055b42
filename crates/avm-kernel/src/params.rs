//! Comp-policy parameters as the kernel receives them: a flat f64 array written by the TypeScript door from
//! src/registry/groups/comp-policy.ts (the one source of the numbers). Slot order is part of the ABI.
#![forbid(unsafe_code)]

use crate::errors;

pub const LADDER_STEPS: usize = 3;
/// Number of f64 slots in the params array (src/kernel/abi-layout.ts PARAM_SLOTS mirrors this).
pub const PARAM_LEN: usize = 25;

/// Deed classes set per deed code: arms-length, quitclaim, other non-arms-length type.
pub const DEED_ARMS: u8 = 0;
pub const DEED_QUITCLAIM: u8 = 1;
pub const DEED_NON_ARMS: u8 = 2;

#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub gla_band_frac: f64,
    pub beds_band: f64,
    pub ladder_radius_mi: [f64; LADDER_STEPS],
    pub ladder_window_days: [f64; LADDER_STEPS],
    pub mad_trim_k: f64,
    pub mad_scale: f64,
    /// "Enough" for the ladder: the first step with at least this many qualified comps stops it (min_comps_point).
    pub ladder_enough: f64,
    pub max_comps: f64,
    pub time_index_max_annual: f64,
    pub time_index_clamp: [f64; 2],
    pub gla_adj_cap_frac: f64,
    /// Marginal $/sf of living area as a fraction of the comp set's median indexed $/sf.
    pub gla_marginal_frac: f64,
    pub price_floor_usd: f64,
    pub duplicate_window_days: f64,
    pub rapid_resale_days: f64,
    /// Similarity weights: distance, recency, living area, bedrooms.
    pub similarity_weights: [f64; 4],
    /// Grid cell side in miles: the largest radius any query uses, so a query touches at most 3 x 3 cells.
    pub grid_cell_mi: f64,
}

impl Params {
    /// Reads the slot array; every slot must be finite and the few structural ones positive.
    pub fn from_slots(s: &[f64]) -> Result<Params, i32> {
        if s.len() != PARAM_LEN || s.iter().any(|x| !x.is_finite()) {
            return Err(errors::BAD_PARAMS);
        }
        let p = Params {
            gla_band_frac: s[0],
            beds_band: s[1],
            ladder_radius_mi: [s[2], s[3], s[4]],
            ladder_window_days: [s[5], s[6], s[7]],
            mad_trim_k: s[8],
            mad_scale: s[9],
            ladder_enough: s[10],
            max_comps: s[11],
            time_index_max_annual: s[12],
            time_index_clamp: [s[13], s[14]],
            gla_adj_cap_frac: s[15],
            gla_marginal_frac: s[16],
            price_floor_usd: s[17],
            duplicate_window_days: s[18],
            rapid_resale_days: s[19],
            similarity_weights: [s[20], s[21], s[22], s[23]],
            grid_cell_mi: s[24],
        };
        let wsum: f64 = p.similarity_weights.iter().sum();
        let ok = p.grid_cell_mi > 0.0
            && p.ladder_radius_mi.iter().all(|r| *r > 0.0)
            && p.ladder_window_days.iter().all(|w| *w > 0.0)
            && p.max_comps >= 1.0
            && p.time_index_clamp[0] > 0.0
            && p.time_index_clamp[0] <= p.time_index_clamp[1]
            && p.similarity_weights.iter().all(|w| *w >= 0.0)
            && wsum > 0.0;
        if ok { Ok(p) } else { Err(errors::BAD_PARAMS) }
    }

    /// The comp-policy v2 values, for native unit tests only (production values come from TypeScript).
    #[cfg(test)]
    pub fn policy_v2() -> Params {
        Params::from_slots(&[
            0.2, 1.0, 0.5, 0.75, 1.0, 180.0, 270.0, 365.0, 3.0, 1.4826, 5.0, 12.0, 0.08, 0.75, 1.3, 0.15, 0.5,
            10_000.0, 365.0, 90.0, 0.4, 0.3, 0.2, 0.1, 1.0,
        ])
        .unwrap()
    }
}
