//! The WebAssembly boundary: `extern "C"` exports over kernel-owned buffers in linear memory. The host asks for a
//! buffer's pointer, writes into it, then calls the operation; results are read from the output buffer. Every export
//! returns an error code (errors.rs) instead of panicking. Slot layouts mirror src/kernel/abi-layout.ts.
//! Kernel-owned buffers mean no raw-pointer reads here, so even this module needs no `unsafe`.

use crate::errors;
use crate::index::{Index, RawColumns};
use crate::params::{Params, PARAM_LEN};
use crate::query::{query_into, Scratch};
use crate::slots::{subject_from_slots, write_error, SUBJECT_LEN};
use crate::stats;
use crate::timeindex::{Series, TimeIndex};
use std::cell::RefCell;
use std::collections::HashMap;

pub const ABI_VERSION: u32 = 1;

#[derive(Default)]
struct State {
    slots: Vec<f64>,
    params: Option<Params>,
    deed_class: Option<[u8; 256]>,
    cond_group: Option<[u8; 256]>,
    raw: RawColumns,
    index: Option<Index>,
    time_index: TimeIndex,
    ti_months: Vec<i32>,
    ti_levels: Vec<f64>,
    scratch: Scratch,
    input: Vec<f64>,
    output: Vec<f64>,
    blocks: HashMap<usize, Vec<u64>>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

#[no_mangle]
pub extern "C" fn avm_abi_version() -> u32 {
    ABI_VERSION
}

/// Allocates a host scratch block of `bytes` (8-byte aligned, zeroed); freed with avm_free. The kernel's own
/// buffers (columns, params, input, output) need no alloc: the host asks for their pointers instead.
#[no_mangle]
pub extern "C" fn avm_alloc(bytes: u32) -> *mut u8 {
    with(|s| {
        // Moving the Vec into the map moves only its header; the heap block (and the pointer) stays put.
        let mut block = vec![0u64; (bytes as usize + 7) / 8 + 1];
        let ptr = block.as_mut_ptr() as *mut u8;
        s.blocks.insert(ptr as usize, block);
        ptr
    })
}

/// Frees a block from avm_alloc; BAD_ARGUMENT for a pointer it did not hand out.
#[no_mangle]
pub extern "C" fn avm_free(ptr: *mut u8) -> i32 {
    with(|s| if s.blocks.remove(&(ptr as usize)).is_some() { errors::OK } else { errors::BAD_ARGUMENT })
}

/// Pointer to the PARAM_LEN f64 slots the host fills before avm_set_params.
#[no_mangle]
pub extern "C" fn avm_params_ptr() -> *mut f64 {
    with(|s| {
        s.slots.resize(PARAM_LEN, f64::NAN);
        s.slots.as_mut_ptr()
    })
}

/// Validates and installs the params slots. Invalidates a built index (screens depend on params).
#[no_mangle]
pub extern "C" fn avm_set_params() -> i32 {
    with(|s| match Params::from_slots(&s.slots) {
        Ok(p) => {
            s.params = Some(p);
            s.index = None;
            errors::OK
        }
        Err(e) => e,
    })
}

/// Sets the class (0 arms-length, 1 quitclaim, 2 other non-arms-length) of one deed code; unset codes are 0.
#[no_mangle]
pub extern "C" fn avm_set_deed_class(code: u32, class: u32) -> i32 {
    if code > 255 || class > 2 {
        return errors::BAD_ARGUMENT;
    }
    with(|s| {
        s.deed_class.get_or_insert([0u8; 256])[code as usize] = class as u8;
        s.index = None;
        errors::OK
    })
}

/// One condition group per code (no merging) until the host sets groups.
fn default_groups() -> [u8; 256] {
    let mut g = [0u8; 256];
    for (code, slot) in g.iter_mut().enumerate() {
        *slot = code as u8;
    }
    g
}

/// Puts condition `code` in `group` for the index layout (rows of one group share a bucket); a layout hint only,
/// results do not depend on it. Drops a built index.
#[no_mangle]
pub extern "C" fn avm_set_condition_group(code: u32, group: u32) -> i32 {
    if code > 255 || group > 255 {
        return errors::BAD_ARGUMENT;
    }
    with(|s| {
        s.cond_group.get_or_insert_with(default_groups)[code as usize] = group as u8;
        s.index = None;
        errors::OK
    })
}

/// Sizes the raw columns for `n` rows (drops any index); the host then writes each via avm_column_ptr.
#[no_mangle]
pub extern "C" fn avm_columns_alloc(n: u32) -> i32 {
    with(|s| {
        s.index = None;
        s.raw = RawColumns::with_len(n as usize);
        errors::OK
    })
}

/// Pointer to raw column `col` in this order: parcel_idx u32, county u8, lat f64, lon f64, sale_day i32,
/// price_usd f64, sqft f64, beds i8, ptype u8, condition u8, deed_type u8, num_parcels u16. Null for a bad id.
#[no_mangle]
pub extern "C" fn avm_column_ptr(col: u32) -> *mut u8 {
    with(|s| {
        let c = &mut s.raw;
        match col {
            0 => c.parcel_idx.as_mut_ptr() as *mut u8,
            1 => c.county.as_mut_ptr(),
            2 => c.lat.as_mut_ptr() as *mut u8,
            3 => c.lon.as_mut_ptr() as *mut u8,
            4 => c.sale_day.as_mut_ptr() as *mut u8,
            5 => c.price_usd.as_mut_ptr() as *mut u8,
            6 => c.sqft.as_mut_ptr() as *mut u8,
            7 => c.beds.as_mut_ptr() as *mut u8,
            8 => c.ptype.as_mut_ptr(),
            9 => c.condition.as_mut_ptr(),
            10 => c.deed_type.as_mut_ptr(),
            11 => c.num_parcels.as_mut_ptr() as *mut u8,
            _ => std::ptr::null_mut(),
        }
    })
}

/// Builds the screens and the grid from the raw columns, then frees the raw columns. Load the params, deed classes
/// and time index first: changing any of them afterwards drops the index.
#[no_mangle]
pub extern "C" fn avm_build_index() -> i32 {
    with(|s| {
        let p = match &s.params {
            Some(p) => p.clone(),
            None => return errors::NOT_READY,
        };
        let deeds = s.deed_class.unwrap_or([0u8; 256]);
        let groups = s.cond_group.unwrap_or_else(default_groups);
        match Index::build(&s.raw, &p, &deeds, &groups, &s.time_index) {
            Ok(ix) => {
                s.index = Some(ix);
                s.raw = RawColumns::default();
                errors::OK
            }
            Err(e) => e,
        }
    })
}

/// Rows in the index (rows with usable coordinates).
#[no_mangle]
pub extern "C" fn avm_index_rows() -> u32 {
    with(|s| s.index.as_ref().map_or(0, |ix| ix.len() as u32))
}

/// Cells in the grid.
#[no_mangle]
pub extern "C" fn avm_index_cells() -> u32 {
    with(|s| s.index.as_ref().map_or(0, |ix| (ix.nx * ix.ny) as u32))
}

/// Sizes the time-index staging buffers for a series of `len` months.
#[no_mangle]
pub extern "C" fn avm_time_index_alloc(len: u32) -> i32 {
    with(|s| {
        s.ti_months = vec![0; len as usize];
        s.ti_levels = vec![0.0; len as usize];
        errors::OK
    })
}

#[no_mangle]
pub extern "C" fn avm_time_index_months_ptr() -> *mut i32 {
    with(|s| s.ti_months.as_mut_ptr())
}

#[no_mangle]
pub extern "C" fn avm_time_index_levels_ptr() -> *mut f64 {
    with(|s| s.ti_levels.as_mut_ptr())
}

/// Installs the staged series (month numbers year*12 + month-1, levels) for `county`.
#[no_mangle]
pub extern "C" fn avm_time_index_set(county: u32) -> i32 {
    if county > 255 {
        return errors::BAD_ARGUMENT;
    }
    with(|s| match Series::new(s.ti_months.clone(), s.ti_levels.clone()) {
        Ok(series) => {
            // The index stores each row's sale-month level, so a new series needs a rebuild.
            s.time_index.set(county as u8, series);
            s.index = None;
            errors::OK
        }
        Err(e) => e,
    })
}

#[no_mangle]
pub extern "C" fn avm_time_index_clear() -> i32 {
    with(|s| {
        s.time_index.clear();
        s.index = None;
        errors::OK
    })
}

/// Sizes the input buffer for `n` f64 values and returns its pointer (subjects, or conformal ratios).
#[no_mangle]
pub extern "C" fn avm_input_ptr(n: u32) -> *mut f64 {
    with(|s| {
        s.input.resize(n as usize, 0.0);
        s.input.as_mut_ptr()
    })
}

#[no_mangle]
pub extern "C" fn avm_output_ptr() -> *const f64 {
    with(|s| s.output.as_ptr())
}

#[no_mangle]
pub extern "C" fn avm_output_len() -> u32 {
    with(|s| s.output.len() as u32)
}

/// Runs `n` subjects from the input buffer; one output record per subject (a bad subject gets its own error code
/// in its header and does not stop the batch). Returns NOT_READY before an index is built.
#[no_mangle]
pub extern "C" fn avm_batch(n: u32, with_rejected: u32) -> i32 {
    with(|s| {
        let State { params, index, time_index, scratch, input, output, .. } = s;
        let (p, ix) = match (params.as_ref(), index.as_ref()) {
            (Some(p), Some(ix)) => (p, ix),
            _ => return errors::NOT_READY,
        };
        if input.len() < n as usize * SUBJECT_LEN {
            return errors::BAD_ARGUMENT;
        }
        output.clear();
        for k in 0..n as usize {
            let slots = &input[k * SUBJECT_LEN..(k + 1) * SUBJECT_LEN];
            let r = subject_from_slots(slots).and_then(|subj| query_into(ix, time_index, p, &subj, scratch, with_rejected != 0, output));
            if let Err(e) = r {
                write_error(output, e);
            }
        }
        errors::OK
    })
}

/// One subject (the first in the input buffer), with its rejections.
#[no_mangle]
pub extern "C" fn avm_query() -> i32 {
    avm_batch(1, 1)
}

/// Split-conformal bounds of the first `n` input values: output [lo, hi] (two-sided, `two_sided` = 1) or [q]
/// (one-sided rank ⌈(n+1)(1-α)⌉). See stats.rs for the rank definitions.
#[no_mangle]
pub extern "C" fn avm_conformal(n: u32, alpha: f64, two_sided: u32) -> i32 {
    with(|s| {
        if s.input.len() < n as usize {
            return errors::BAD_ARGUMENT;
        }
        let mut v = s.input[..n as usize].to_vec();
        s.output.clear();
        let r = if two_sided != 0 {
            stats::conformal_two_sided(&mut v, alpha).map(|(lo, hi)| s.output.extend_from_slice(&[lo, hi]))
        } else {
            stats::conformal_one_sided(&mut v, alpha).map(|q| s.output.push(q))
        };
        r.err().unwrap_or(errors::OK)
    })
}
