//! The kernel's transcendental functions (ln, exp, sin, cos, asin), one implementation for every front-end, so the
//! WASM module and the native addon return the same bits. `ln` (and `ln_each`, four lanes at a time) is the kernel's
//! own (ln.rs), the same operations on every target. Rust's `f64::exp` and friends are the platform's: on
//! wasm32-unknown-unknown the `libm` port that compiler-builtins carries, on linux-gnu glibc's libm, and the two
//! differ in the last bit (measured over 200,000 inputs in the kernel's ranges: ln 0.6%, exp 8.7%, sin 5.8%, cos of a
//! latitude 12% of calls), which moved ~0.3% of backtest values by an ulp and so the calibration table's digest and
//! the inputs hash with the front-end. The native addon (crates/avm-native, feature `host-math`) therefore routes
//! these through the same `libm` code the WASM build links (the crates.io `libm` crate at the version whose outputs
//! equal the WASM module's bit for bit: test/kernel/parity.test.ts, "native bulk entry"); everything else (its tests,
//! the examples, the WASM build on Debian's rustc 1.63, which must not see a crates.io dependency) uses `f64`'s
//! methods. `sqrt` is IEEE-754 correctly rounded on every target and stays `f64::sqrt`.
//! No `forbid(unsafe_code)` here: the host variant declares its functions in an `unsafe extern` block (no unsafe
//! block anywhere; they are `safe fn`).

#[cfg(not(feature = "host-math"))]
mod imp {
    #[inline(always)]
    pub fn exp(x: f64) -> f64 {
        x.exp()
    }
    #[inline(always)]
    pub fn sin(x: f64) -> f64 {
        x.sin()
    }
    #[inline(always)]
    pub fn cos(x: f64) -> f64 {
        x.cos()
    }
    #[inline(always)]
    pub fn asin(x: f64) -> f64 {
        x.asin()
    }
}

#[cfg(feature = "host-math")]
#[path = "math_host.rs"]
mod imp;

pub use crate::ln::{ln, ln_each};
pub use imp::{asin, cos, exp, sin};
