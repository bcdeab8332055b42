//! A conservative first pass over a step's rows: compact f32 copies of what the exact tests read (position as offsets
//! from the row's cell origin, sqft, and a tag of condition bit, screen and bedrooms), tested without branches (8 rows
//! at a time in the addon's x86-64-v3 build, there in AVX2 intrinsics: near_x86.rs, the same operations). It only ever
//! drops a row that an exact test (query.rs) would also drop; every row it keeps goes through the exact tests, so it
//! changes which rows are read in full, never a result.
//!
//! Why each drop is safe (φ latitude, λ longitude, s the subject, r the row, Δ their differences; angles in radians):
//! - Radius. The exact haversine term is H = hav Δφ + cos φs cos φr hav Δλ. The pass computes A = Δφ² + K Δλ² with
//!   K = cos² φs, in f32. With hav x >= (x²/4)(1 − x²/12) and cos φr >= cos φs (1 − Δφ²/2 − tan|φs| |Δφ|), for a row
//!   with |Δφ| <= ρ (ρ = twice the step's angular radius) H >= (A_true/4)(1 − δ) where δ = tan|φs| ρ + ρ²/2 + ρ²/12 +
//!   Λ²/12 and Λ bounds |Δλ| over the cells scanned. The pass keeps a row when A <= T = 4 h_max (1 + 1e-4) / (1 − δ)
//!   plus an absolute term covering f32 rounding of the offsets (each within a few cells and boxes of the origin of
//!   its cell, so off by less than 2^-22 of M, a bound of the offsets), and every row when δ >= 1/2. So a dropped row
//!   with |Δφ| <= ρ has H > h_max; a row with |Δφ| > ρ has H >= hav Δφ > h_max whatever the pass does.
//! - GLA band (bulk form, subject sqft known and between 1 and 1e9): a row is dropped when its f32 sqft is NaN or
//!   |sqft − S| > G with G = F (1 + 1e-5) + S 2^-20 (F = gla_band_frac × S): f32 rounding moves |sqft − S| by less
//!   than 2 (S + F) 2^-23 for a row inside the band, below the margin.
//! - Bedrooms (bulk form): integers, exact: kept iff either is unknown or |Δ| <= ⌊beds_band⌋ (−1 for a negative band).
//! - Screen (bulk form) and condition (a bucket mixing conditions outside the stratum): exact bits.
//!
//! The serving form reports rows inside the radius that fail a band or a screen as rejected, so there the pass tests
//! only the radius and the condition.
#![forbid(unsafe_code)]

use crate::geo::RadiusConsts;
use crate::params::Params;
use crate::query::Subject;

/// Tag bit of a row whose arms-length screen rejects it.
const TAG_SCREENED: u32 = 1 << 8;

/// A row's tag: its condition bit (bits 0–7), screened (bit 8), bedrooms as i16 (bits 16–31, negative unknown).
pub fn tag(cond_bit: u8, screened: bool, beds: i8) -> u32 {
    cond_bit as u32 | (screened as u32) << 8 | ((beds as i16 as u16 as u32) << 16)
}

/// One step's constants of the pass (the subject's offsets differ per cell: `Origin`).
#[derive(Clone, Copy, Debug)]
pub struct Near {
    pub(crate) k: f32,
    pub(crate) t: f32,
    pub(crate) screen_mask: u32,
    pub(crate) beds: i32,
    pub(crate) beds_max: i32,
    pub(crate) gla_on: bool,
    pub(crate) sqft: f32,
    pub(crate) gla_max: f32,
}

/// The subject's offsets from one cell's origin, and the condition bits a row of its bucket needs.
#[derive(Clone, Copy, Debug)]
pub struct Origin {
    pub dlat: f32,
    pub dlon: f32,
    pub cond_req: u32,
}

/// What `Near::new` reads of the step's geometry: the subject's |φ|'s tangent, the box half-widths and cell sizes.
pub struct Geometry {
    pub tan_lat_abs: f64,
    pub lat_box: f64,
    pub lon_box: f64,
    pub cell_lat: f64,
    pub cell_lon: f64,
}

impl Near {
    /// `bulk`: the form without rejection lists (the bands and the screen are tested here too).
    pub fn new(s: &Subject, p: &Params, rc: &RadiusConsts, g: &Geometry, cos_lat: f64, bulk: bool) -> Near {
        let rho = 2.0 * g.lat_box;
        let lambda = g.lon_box + g.cell_lon;
        let delta = g.tan_lat_abs * rho + rho * rho * (0.5 + 1.0 / 12.0) + lambda * lambda / 12.0;
        let m = g.cell_lat.max(g.cell_lon) * 2.0 + g.lat_box.max(g.lon_box);
        let error = 16.0 * (lambda + rho) * m * f64::powi(2.0, -22);
        let t = if delta < 0.5 { 4.0 * rc.h_max * (1.0 + 1e-4) / (1.0 - delta) + error } else { f64::INFINITY };
        // Rounded up to f32 (a NaN or infinite threshold keeps every row).
        let t32 = if t.is_finite() { next_up(t as f32, t) } else { f32::INFINITY };
        let beds_band = p.beds_band;
        let beds_max = if beds_band >= 0.0 { beds_band.floor().min(1e9) as i32 } else { -1 };
        let s_sqft = s.sqft;
        let gla_on = bulk && s_sqft.is_finite() && (1.0..=1e9).contains(&s_sqft);
        let f = p.gla_band_frac * s_sqft;
        let gla_max = f * (1.0 + 1e-5) + s_sqft * f64::powi(2.0, -20);
        Near {
            k: (cos_lat * cos_lat) as f32,
            t: t32,
            screen_mask: if bulk { TAG_SCREENED } else { 0 },
            beds: if bulk { s.beds } else { -1 },
            beds_max,
            gla_on,
            sqft: s_sqft as f32,
            gla_max: if gla_max.is_finite() { next_up(gla_max as f32, gla_max) } else { f32::INFINITY },
        }
    }

    /// flags[k] = 1 when row k of the slices may pass every exact test the pass covers, else 0.
    #[inline]
    pub fn flags(&self, o: &Origin, lat: &[f32], lon: &[f32], sqft: &[f32], tag: &[u32], flags: &mut [u8]) {
        let n = flags.len().min(lat.len()).min(lon.len()).min(sqft.len()).min(tag.len());
        let (lat, lon, sqft, tag, flags) = (&lat[..n], &lon[..n], &sqft[..n], &tag[..n], &mut flags[..n]);
        for k in 0..n {
            let (dy, dx) = (lat[k] - o.dlat, lon[k] - o.dlon);
            let inside = dy * dy + self.k * (dx * dx) <= self.t;
            let t = tag[k];
            let cond = t & o.cond_req != 0;
            let unscreened = t & self.screen_mask == 0;
            let rb = (t as i32) >> 16;
            let beds = (self.beds < 0) | (rb < 0) | ((rb - self.beds).abs() <= self.beds_max);
            let gla = !self.gla_on | ((sqft[k] - self.sqft).abs() <= self.gla_max);
            flags[k] = (inside & cond & unscreened & beds & gla) as u8;
        }
    }
}

/// The least f32 >= x (x the f64 it was rounded from). Written here: `f32::next_up` needs Rust 1.86, and the WASM
/// build is Debian's rustc 1.63.
fn next_up(r: f32, x: f64) -> f32 {
    if (r as f64) >= x || r == f32::INFINITY {
        r
    } else if r == 0.0 {
        f32::from_bits(1)
    } else if r > 0.0 {
        f32::from_bits(r.to_bits() + 1)
    } else {
        f32::from_bits(r.to_bits() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_up_is_not_below() {
        for x in [1e-40f64, 0.1, 1.0 / 3.0, -1.0 / 3.0, 1e30, -1e-50, 0.0, 3.4e38] {
            let r = next_up(x as f32, x);
            assert!(r as f64 >= x, "{x}: {r}");
        }
    }

    #[test]
    fn tag_round_trips_beds() {
        for beds in [-128i8, -1, 0, 1, 5, 127] {
            let t = tag(0x80, true, beds);
            assert_eq!((t as i32) >> 16, beds as i32);
            assert_eq!(t & 0xff, 0x80);
            assert_ne!(t & TAG_SCREENED, 0);
        }
    }
}
