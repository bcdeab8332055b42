//! avm-kernel: the numeric hot path of the valuation service (comp search, time index, GLA adjustment, MAD trim,
//! statistics, split-conformal ranks). Core modules forbid unsafe code; `abi` is the one module facing linear memory
//! (its `#[no_mangle]` exports are what the unsafe_code lint flags there; it holds no `unsafe` block).

pub mod abi;
pub mod dates;
pub mod errors;
pub mod geo;
pub mod index;
pub mod params;
pub mod query;
pub mod select;
pub mod stats;
pub mod timeindex;
