//! The kernel's transcendental functions for the native addon (avm-kernel src/math.rs, feature `host-math`): the
//! `libm` crate's, the same code the WASM module runs, so native and WASM answers are equal bit for bit. Plain glibc
//! (what `f64::ln` calls on linux-gnu) rounds ~0.6–12% of these calls differently in the last bit.

#[no_mangle]
pub fn avm_kernel_math_exp(x: f64) -> f64 {
    libm::exp(x)
}

#[no_mangle]
pub fn avm_kernel_math_sin(x: f64) -> f64 {
    libm::sin(x)
}

#[no_mangle]
pub fn avm_kernel_math_cos(x: f64) -> f64 {
    libm::cos(x)
}

#[no_mangle]
pub fn avm_kernel_math_asin(x: f64) -> f64 {
    libm::asin(x)
}
