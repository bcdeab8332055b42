//! `math` under the feature `host-math`: the functions the host crate (crates/avm-native) defines with the `libm`
//! crate, linked by symbol name. Read only by a toolchain that builds the native addon (this file uses `unsafe
//! extern` with `safe fn`, Rust 1.82+); the WASM build on rustc 1.63 never compiles it.

unsafe extern "Rust" {
    safe fn avm_kernel_math_exp(x: f64) -> f64;
    safe fn avm_kernel_math_sin(x: f64) -> f64;
    safe fn avm_kernel_math_cos(x: f64) -> f64;
    safe fn avm_kernel_math_asin(x: f64) -> f64;
}

#[inline(always)]
pub fn exp(x: f64) -> f64 {
    avm_kernel_math_exp(x)
}
#[inline(always)]
pub fn sin(x: f64) -> f64 {
    avm_kernel_math_sin(x)
}
#[inline(always)]
pub fn cos(x: f64) -> f64 {
    avm_kernel_math_cos(x)
}
#[inline(always)]
pub fn asin(x: f64) -> f64 {
    avm_kernel_math_asin(x)
}
