//! Error codes crossing the ABI (never panics): the TypeScript door maps every non-zero code to `kernel_error`.
//! Numbering is part of the ABI (src/kernel/abi-layout.ts mirrors it).
#![forbid(unsafe_code)]

pub const OK: i32 = 0;
pub const BAD_PARAMS: i32 = 1;
pub const NOT_READY: i32 = 2;
pub const BAD_COLUMNS: i32 = 3;
pub const GRID_TOO_LARGE: i32 = 4;
pub const BAD_SUBJECT: i32 = 5;
pub const BAD_TIME_INDEX: i32 = 6;
pub const BAD_CONFORMAL_INPUT: i32 = 7;
pub const BAD_ARGUMENT: i32 = 8;
