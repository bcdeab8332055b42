//! Great-circle geometry: haversine on a sphere of radius 3958.8 mi, and the exact longitude half-width bound
//! used to prefilter rows before the haversine. Angles in radians unless named `_deg`.
#![forbid(unsafe_code)]

/// Mean Earth radius in miles (IUGG mean radius 6371.0088 km).
pub const EARTH_RADIUS_MI: f64 = 3958.8;
/// Degrees to radians; computed once as PI / 180 so the TypeScript reference multiplies by the same double.
pub const DEG_TO_RAD: f64 = std::f64::consts::PI / 180.0;
/// Relative widening of prefilter boxes so rounding in the box never drops a row the haversine test keeps.
pub const BOX_SLACK: f64 = 1e-9;

/// Haversine term h = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2); distance = 2 R asin(√h).
#[inline]
pub fn hav_term(lat1: f64, cos1: f64, lon1: f64, lat2: f64, cos2: f64, lon2: f64) -> f64 {
    let s_lat = ((lat2 - lat1) * 0.5).sin();
    let s_lon = ((lon2 - lon1) * 0.5).sin();
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
    2.0 * EARTH_RADIUS_MI * h.min(1.0).sqrt().asin()
}

/// The haversine term of a distance: a row is within `radius_mi` iff its h <= this.
pub fn hav_of_mi(radius_mi: f64) -> f64 {
    let s = (radius_mi / EARTH_RADIUS_MI * 0.5).sin();
    s * s
}

/// Largest |Δλ| (radians) of any point within `radius_mi` of a point at latitude `lat` (radians):
/// h >= cos φ1 cos φ2 sin²(Δλ/2) with cos φ2 >= cos(|φ1| + r/R), hence
/// Δλ <= 2 asin(√(hav(r/R) / (cos φ1 cos(|φ1| + r/R)))). Returns PI when the bound is vacuous (near a pole).
pub fn lon_half_width(radius_mi: f64, lat: f64) -> f64 {
    let ang = radius_mi / EARTH_RADIUS_MI;
    let far = lat.abs() + ang;
    let denom = lat.cos() * far.cos();
    if far >= std::f64::consts::FRAC_PI_2 || denom <= 0.0 {
        return std::f64::consts::PI;
    }
    let q = hav_of_mi(radius_mi) / denom;
    if q >= 1.0 { std::f64::consts::PI } else { 2.0 * q.sqrt().asin() }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn one_degree_of_latitude() {
        // 1° of arc = R * PI / 180 = 3958.8 * 0.0174532925 = 69.0941 mi
        let lat1 = 41.0 * DEG_TO_RAD;
        let lat2 = 42.0 * DEG_TO_RAD;
        let h = hav_term(lat1, lat1.cos(), 0.0, lat2, lat2.cos(), 0.0);
        assert!((hav_to_mi(h) - 69.094_1).abs() < 1e-3);
    }
    #[test]
    fn lon_bound_contains_due_east_point() {
        // A point exactly r due east at the same latitude has Δλ below the bound.
        let lat = 42.0 * DEG_TO_RAD;
        let w = lon_half_width(1.0, lat);
        let h = hav_term(lat, lat.cos(), 0.0, lat, lat.cos(), w);
        assert!(hav_to_mi(h) >= 1.0 - 1e-9);
    }
}
