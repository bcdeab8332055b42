//! Great-circle geometry: haversine on a sphere of radius 3958.8 mi, and the exact longitude half-width bound
//! used to prefilter rows before the haversine. Angles in radians unless named `_deg`.
#![forbid(unsafe_code)]

use crate::math;

/// Mean Earth radius in miles (IUGG mean radius 6371.0088 km).
pub const EARTH_RADIUS_MI: f64 = 3958.8;
/// Degrees to radians; computed once as PI / 180 so the TypeScript reference multiplies by the same double.
pub const DEG_TO_RAD: f64 = std::f64::consts::PI / 180.0;
/// Relative widening of prefilter boxes so rounding in the box never drops a row the haversine test keeps.
pub const BOX_SLACK: f64 = 1e-9;

/// Haversine term h = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2); distance = 2 R asin(√h).
#[inline]
pub fn hav_term(lat1: f64, cos1: f64, lon1: f64, lat2: f64, cos2: f64, lon2: f64) -> f64 {
    let s_lat = math::sin((lat2 - lat1) * 0.5);
    let s_lon = math::sin((lon2 - lon1) * 0.5);
    s_lat * s_lat + cos1 * cos2 * s_lon * s_lon
}

/// Haversine term from unit vectors: hav θ = (1 − cos θ) / 2 = |p − q|² / 4 (exact; no trigonometry).
/// Operation order (x2 − x1 per axis, squares summed left to right, then × 0.25) is mirrored by the TS reference.
#[inline]
pub fn hav_chord(x1: f64, y1: f64, z1: f64, x2: f64, y2: f64, z2: f64) -> f64 {
    let (dx, dy, dz) = (x2 - x1, y2 - y1, z2 - z1);
    (dx * dx + dy * dy + dz * dz) * 0.25
}

/// Distance in miles from a haversine term.
#[inline]
pub fn hav_to_mi(h: f64) -> f64 {
    2.0 * EARTH_RADIUS_MI * math::asin(h.min(1.0).sqrt())
}

/// The haversine term of a distance: a row is within `radius_mi` iff its h <= this.
pub fn hav_of_mi(radius_mi: f64) -> f64 {
    let s = math::sin(radius_mi / EARTH_RADIUS_MI * 0.5);
    s * s
}

/// Largest |Δλ| (radians) of any point within `radius_mi` of a point at latitude `lat` (radians):
/// h >= cos φ1 cos φ2 sin²(Δλ/2) with cos φ2 >= cos(|φ1| + r/R), hence
/// Δλ <= 2 asin(√(hav(r/R) / (cos φ1 cos(|φ1| + r/R)))). Returns PI when the bound is vacuous (near a pole).
pub fn lon_half_width(radius_mi: f64, lat: f64) -> f64 {
    let ang = radius_mi / EARTH_RADIUS_MI;
    let far = lat.abs() + ang;
    let denom = math::cos(lat) * math::cos(far);
    if far >= std::f64::consts::FRAC_PI_2 || denom <= 0.0 {
        return std::f64::consts::PI;
    }
    let q = hav_of_mi(radius_mi) / denom;
    if q >= 1.0 { std::f64::consts::PI } else { 2.0 * math::asin(q.sqrt()) }
}

/// Constants of one radius a query needs before its scan (all its trigonometry, computed once per radius).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RadiusConsts {
    pub radius_mi: f64,
    /// hav_of_mi(radius_mi): a row is inside iff its haversine term is <= this.
    pub h_max: f64,
    /// Angular radius r / R, and its cosine and sine.
    pub ang: f64,
    pub cos_ang: f64,
    pub sin_ang: f64,
}

impl RadiusConsts {
    pub fn new(radius_mi: f64) -> RadiusConsts {
        let ang = radius_mi / EARTH_RADIUS_MI;
        RadiusConsts { radius_mi, h_max: hav_of_mi(radius_mi), ang, cos_ang: math::cos(ang), sin_ang: math::sin(ang) }
    }
}

/// An upper bound of lon_half_width(radius, lat) without trigonometry, from cos φ and |sin φ| of the subject and the
/// radius' constants: cos(|φ| + a) by the addition formula, and 2 asin(√q) <= 2 √(q / (1 − q)) (asin y <= tan(asin y)
/// = y / √(1 − y²)). The excess is a relative q/3 (~1e-8 at a mile), far above rounding, so the bound never falls
/// below lon_half_width; it only chooses grid cells, whose rows are then tested exactly.
pub fn lon_half_width_bound(rc: &RadiusConsts, lat_abs: f64, cos_lat: f64, sin_lat_abs: f64) -> f64 {
    let far = lat_abs + rc.ang;
    let denom = cos_lat * (cos_lat * rc.cos_ang - sin_lat_abs * rc.sin_ang);
    if far >= std::f64::consts::FRAC_PI_2 || denom <= 0.0 {
        return std::f64::consts::PI;
    }
    let q = rc.h_max / denom;
    if q >= 1.0 { std::f64::consts::PI } else { 2.0 * (q / (1.0 - q)).sqrt() }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lon_bound_covers_the_exact_bound() {
        for k in 0..=400 {
            let lat = (-89.0 + k as f64 * 0.445) * DEG_TO_RAD;
            for r in [0.01, 0.5, 0.75, 1.0, 3.0, 50.0, 400.0] {
                let rc = RadiusConsts::new(r);
                let exact = lon_half_width(r, lat);
                let bound = lon_half_width_bound(&rc, lat.abs(), math::cos(lat), math::sin(lat).abs());
                assert!(bound >= exact, "lat {} r {}: {} < {}", lat, r, bound, exact);
                assert!(exact > 0.1 || bound <= exact * (1.0 + 1e-3), "lat {} r {}: {} far above {}", lat, r, bound, exact);
            }
        }
    }

    use super::*;
    #[test]
    fn one_degree_of_latitude() {
        // 1° of arc = R * PI / 180 = 3958.8 * 0.0174532925 = 69.0941 mi
        let lat1 = 41.0 * DEG_TO_RAD;
        let lat2 = 42.0 * DEG_TO_RAD;
        let h = hav_term(lat1, math::cos(lat1), 0.0, lat2, math::cos(lat2), 0.0);
        assert!((hav_to_mi(h) - 69.094_1).abs() < 1e-3);
    }
    #[test]
    fn lon_bound_contains_due_east_point() {
        // A point exactly r due east at the same latitude has Δλ below the bound.
        let lat = 42.0 * DEG_TO_RAD;
        let w = lon_half_width(1.0, lat);
        let h = hav_term(lat, math::cos(lat), 0.0, lat, math::cos(lat), w);
        assert!(hav_to_mi(h) >= 1.0 - 1e-9);
    }
}
