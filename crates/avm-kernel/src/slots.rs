//! Slot layouts of the ABI: a subject as SUBJECT_LEN f64 values in, a query outcome as f64 records out.
//! Mirrored by src/kernel/abi-layout.ts and src/kernel/decode.ts.
#![forbid(unsafe_code)]

use crate::errors;
use crate::query::{Outcome, Subject};
use crate::select::Comp;
use crate::stats::Summary;

/// f64 slots per subject: lat, lon, sqft, beds, ptype, county, as_of_day, stratum_mask, exclude_parcel (-1 none),
/// max_step, override_radius_mi (NaN none), override_window_days (NaN none).
pub const SUBJECT_LEN: usize = 12;
/// Output per query: error, step, n_qualified, n_selected, n_rejected, n, median, q25, q75, fsd; then n_selected
/// records (row, dist_mi, index_factor, indexed_price, gla_adj, adjusted_price, similarity); then n_rejected
/// records (row, reason).
pub const HEADER_LEN: usize = 10;
pub const COMP_LEN: usize = 7;
pub const REJECT_LEN: usize = 2;

fn int_in(v: f64, lo: f64, hi: f64) -> bool {
    v.is_finite() && v.fract() == 0.0 && v >= lo && v <= hi
}

/// Decodes one subject's slots (SUBJECT_LEN); BAD_SUBJECT for an out-of-range slot.
pub fn subject_from_slots(x: &[f64]) -> Result<Subject, i32> {
    let ok = int_in(x[3], -1.0, 127.0) && int_in(x[4], 0.0, 255.0) && int_in(x[5], 0.0, 255.0)
        && int_in(x[6], i32::MIN as f64, i32::MAX as f64) && int_in(x[7], 0.0, 255.0)
        && int_in(x[8], -1.0, u32::MAX as f64) && int_in(x[9], 1.0, 3.0)
        && (x[2].is_nan() || x[2] > 0.0) && (x[10].is_nan() == x[11].is_nan());
    if !ok {
        return Err(errors::BAD_SUBJECT);
    }
    let s = Subject {
        lat: x[0],
        lon: x[1],
        sqft: x[2],
        beds: x[3] as i32,
        ptype: x[4] as u8,
        county: x[5] as u8,
        as_of_day: x[6] as i32,
        stratum_mask: x[7] as u8,
        exclude_parcel: if x[8] < 0.0 { None } else { Some(x[8] as u32) },
        max_step: x[9] as usize,
        override_step: if x[10].is_nan() { None } else { Some((x[10], x[11])) },
    };
    s.validate()?;
    Ok(s)
}

pub fn write_outcome(out: &mut Vec<f64>, r: Result<Outcome, i32>) {
    match r {
        Ok(o) => write_record(out, o.step, o.n_qualified, &o.selected, &o.rejected, &o.summary),
        Err(e) => write_error(out, e),
    }
}

/// The header-only record of a refused subject.
pub fn write_error(out: &mut Vec<f64>, e: i32) {
    out.extend_from_slice(&[e as f64, 0.0, 0.0, 0.0, 0.0, 0.0, f64::NAN, f64::NAN, f64::NAN, f64::NAN]);
}

/// One query's record from its parts (header, selected comps, rejections).
pub fn write_record(out: &mut Vec<f64>, step: usize, n_qualified: usize, selected: &[Comp], rejected: &[(u32, u8)], m: &Summary) {
    out.reserve(HEADER_LEN + selected.len() * COMP_LEN + rejected.len() * REJECT_LEN);
    out.extend_from_slice(&[0.0, step as f64, n_qualified as f64, selected.len() as f64, rejected.len() as f64]);
    out.extend_from_slice(&[m.n as f64, m.median, m.q25, m.q75, m.fsd]);
    for c in selected {
        out.extend_from_slice(&[c.row as f64, c.dist_mi, c.index_factor, c.indexed_price, c.gla_adj, c.adjusted_price, c.similarity]);
    }
    for &(row, reason) in rejected {
        out.extend_from_slice(&[row as f64, reason as f64]);
    }
}

