//! avm-kernel: the numeric hot path of the valuation service (comp search, time index, GLA adjustment, MAD trim,
//! statistics, split-conformal ranks). Core modules forbid unsafe code; `abi` is the one module facing linear memory
//! (its `#[no_mangle]` exports are what the unsafe_code lint flags there; it holds no `unsafe` block), `math`'s
//! host variant (native addon only) declares its functions in an `unsafe extern` block of `safe fn`s, and `near_x86`
//! (builds with AVX2 only: the addon's x86-64-v3 build) runs the first pass in intrinsics.
//!
//! Where each definition is written: candidates, rejection precedence and the ladder in `query`; arms-length screens,
//! grid and row layout in `index`; the scan's conservative first pass (what it may drop, and why) in `near`;
//! time-index factor (cap, clamp) in `timeindex`, its per-query memo by sale day in `factors`; the memo of each
//! bucket's window rows across queries in `windows`; GLA adjustment, MAD trim (scale 1.4826, k = 3), similarity and
//! ranking in `select`; median, Hyndman–Fan type 7 quantiles, MAD and the split-conformal ranks ⌊(n+1)α/2⌋,
//! ⌈(n+1)(1−α/2)⌉, ⌈(n+1)(1−α)⌉ in `stats`; ABI slot layouts in `slots`.
//! The policy numbers come from TypeScript (src/registry/groups/comp-policy.ts) through `params`.

pub mod abi;
pub mod dates;
pub mod errors;
pub mod factors;
pub mod geo;
pub mod index;
mod ln;
pub mod math;
mod memo;
pub mod near;
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod near_x86;
pub mod params;
pub mod query;
pub mod select;
pub mod slots;
pub mod stats;
pub mod timeindex;
pub mod windows;
