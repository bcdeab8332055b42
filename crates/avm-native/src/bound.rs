//! `queryBound(slot, n, withRejected)`, the door's per-query call, registered on N-API itself rather than through
//! napi-rs's `#[napi]`: for any function with arguments napi-rs opens a borrow scope and converts each argument through
//! its traits, which cost ~90 ns a call from Node (an empty function of three arguments: 136 ns through `#[napi]`,
//! 44 ns on N-API alone; an empty one without arguments 40 ns either way), about a twentieth of a county query.
//! The same contract as a `#[napi(catch_unwind)]` function: arguments read as N-API's `napi_get_value_*` read them
//! (a number that is no integer truncates), a wrong type or a kernel error thrown as `avm-kernel error <code>`, a
//! panic caught and thrown as an Error.

use avm_kernel::errors;
use napi::sys;
use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

/// Adds `queryBound` to the module's exports.
pub fn register(env: sys::napi_env, exports: sys::napi_value) -> napi::Result<()> {
    const NAME: &std::ffi::CStr = c"queryBound";
    let mut f = ptr::null_mut();
    // SAFETY: env and exports are the module's, handed to its exports hook on the JavaScript thread.
    let status = unsafe {
        let s = sys::napi_create_function(env, NAME.as_ptr(), NAME.count_bytes() as isize, Some(query_bound_callback), ptr::null_mut(), &mut f);
        if s == sys::Status::napi_ok { sys::napi_set_named_property(env, exports, NAME.as_ptr(), f) } else { s }
    };
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::new(napi::Status::GenericFailure, format!("registering queryBound: N-API status {status}")))
    }
}

/// The three arguments, or None when one is missing or of another type.
unsafe fn arguments(env: sys::napi_env, info: sys::napi_callback_info) -> Option<(u32, u32, bool)> {
    let mut argc = 3usize;
    let mut argv = [ptr::null_mut(); 3];
    let ok = |s: sys::napi_status| s == sys::Status::napi_ok;
    if !ok(sys::napi_get_cb_info(env, info, &mut argc, argv.as_mut_ptr(), ptr::null_mut(), ptr::null_mut())) || argc < 3 {
        return None;
    }
    let (mut slot, mut n, mut with_rejected) = (0u32, 0u32, false);
    let read = ok(sys::napi_get_value_uint32(env, argv[0], &mut slot)) && ok(sys::napi_get_value_uint32(env, argv[1], &mut n)) && ok(sys::napi_get_value_bool(env, argv[2], &mut with_rejected));
    read.then_some((slot, n, with_rejected))
}

unsafe extern "C" fn query_bound_callback(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let message = match arguments(env, info) {
        None => format!("avm-kernel error {}", errors::BAD_ARGUMENT),
        Some((slot, n, with_rejected)) => match catch_unwind(AssertUnwindSafe(|| crate::query_bound(slot, n, with_rejected))) {
            Ok(Ok(len)) => {
                let mut out = ptr::null_mut();
                if sys::napi_create_uint32(env, len, &mut out) == sys::Status::napi_ok {
                    return out;
                }
                "queryBound: could not return the records' length".to_string()
            }
            Ok(Err(e)) => e.reason.clone(),
            Err(panic) => format!("avm-native panicked in queryBound: {}", panic.downcast_ref::<&str>().copied().or(panic.downcast_ref::<String>().map(String::as_str)).unwrap_or("(no message)")),
        },
    };
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    sys::napi_throw_error(env, ptr::null(), text.as_ptr());
    ptr::null_mut()
}
