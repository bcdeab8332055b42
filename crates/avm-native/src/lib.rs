//! avm-native: the N-API front-end of avm-kernel (the same crate the WASM kernel is built from), for Node.
//!
//! - One index per process: `NativeKernel.open` keys the index by the content of its inputs (key.rs) and shares the
//!   built copy with every thread that asks for the same one (shared.rs), so memory does not grow with workers.
//! - `queryBound` answers on the calling thread, through the buffer `bindIo` bound to the handle (the door's single
//!   queries and small batches); `batchParallel` spreads many subjects over rayon's pool and returns the records in
//!   subject order, byte for byte what `queryBound` returns for them.
//! - Records are the ABI's (slots.rs), so src/kernel/decode.ts decodes both front-ends alike. Errors are kernel error
//!   codes (errors.rs) in the message `avm-kernel error <code>`, which the TypeScript door maps to the taxonomy.

mod bound;
mod heap;
mod inputs;
mod key;
mod math;
mod ordered;
mod querier;
mod shared;

use avm_kernel::errors;
use avm_kernel::query::{query_into, Scratch};
use avm_kernel::slots::{subject_from_slots, write_error, SUBJECT_LEN};
use avm_kernel::stats;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use inputs::{build, content_key, Columns, SeriesInput};
use querier::Querier;
use shared::Shared;

/// Kernel results carry a kernel error code (errors.rs); `Result` alone is napi's.
pub(crate) type KResult<T> = std::result::Result<T, i32>;

#[global_allocator]
static ALLOC: heap::Counting = heap::Counting;

/// Subjects per task of the bulk entry (ordered.rs): a task is claimed, queried into its part and committed as one,
/// so this is large enough to make a claim and a commit rare and small enough to balance uneven query costs.
const SUBJECTS_PER_TASK: usize = 32;
/// Output slots a handle keeps between calls (larger bulk buffers are freed after their copy).
const KEEP_OUTPUT_SLOTS: usize = 1 << 16;

fn kernel_error(code: i32) -> Error {
    Error::new(Status::GenericFailure, format!("avm-kernel error {code}"))
}

/// Runs `input`'s subjects in order into `out` (what abi.rs avm_batch does for its buffers: records written in place,
/// no allocation per query once the buffers are warm).
fn run_subjects(s: &Shared, input: &[f64], with_rejected: bool, scratch: &mut Scratch, out: &mut Vec<f64>) {
    for slots in input.chunks_exact(SUBJECT_LEN) {
        let r = subject_from_slots(slots).and_then(|subj| query_into(&s.index, &s.time_index, &s.params, &subj, scratch, with_rejected, out));
        if let Err(e) = r {
            write_error(out, e);
        }
    }
}

fn check_input(input: &[f64]) -> Result<()> {
    if !input.len().is_multiple_of(SUBJECT_LEN) {
        return Err(kernel_error(errors::BAD_ARGUMENT));
    }
    Ok(())
}

/// A handle on the process's shared index plus this handle's own query buffers (one handle per JS thread); both live
/// in this thread's querier table (querier.rs) under `slot`.
#[napi]
pub struct NativeKernel {
    slot: u32,
}

impl Drop for NativeKernel {
    fn drop(&mut self) {
        querier::remove(self.slot);
    }
}

/// Runs `f` on the querier of `slot` (a handle used on another thread than its own has none: an error).
fn on<R>(slot: u32, f: impl FnOnce(&mut Querier) -> R) -> Result<R> {
    querier::with(slot, f).ok_or_else(|| kernel_error(errors::BAD_ARGUMENT))
}

/// Copies a call's records `out` into `dst` when they fit; returns their length either way.
fn copy_out(out: &[f64], dst: &mut [f64]) -> u32 {
    if let Some(d) = dst.get_mut(..out.len()) {
        d.copy_from_slice(out);
    }
    out.len() as u32
}

#[napi]
impl NativeKernel {
    /// The process's index for these inputs, built now when no thread holds it. `deedClass` and `conditionGroups`
    /// are 256 entries (code → class, code → group); `params` the PARAM_LEN slots of params.rs.
    #[napi(factory, catch_unwind)]
    pub fn open(params: Float64Array, deed_class: Uint8Array, condition_groups: Uint8Array, series: Vec<SeriesInput>, columns: Columns) -> Result<NativeKernel> {
        let key = content_key(&params, &deed_class, &condition_groups, &series, &columns);
        let shared = shared::open(key, || build(&params, &deed_class, &condition_groups, &series, &columns, key)).map_err(kernel_error)?;
        let slot = querier::insert(Querier { shared, scratch: Scratch::default(), out: Vec::new(), input: Vec::new(), io: None });
        Ok(NativeKernel { slot })
    }

    /// This handle's slot for `bindIo` and `queryBound` (valid on the thread that opened it).
    #[napi(getter)]
    pub fn slot(&self) -> u32 {
        self.slot
    }

    #[napi(getter)]
    pub fn index_rows(&self) -> Result<u32> {
        on(self.slot, |q| q.shared.index.len() as u32)
    }

    #[napi(getter)]
    pub fn grid_cells(&self) -> Result<u32> {
        on(self.slot, |q| (q.shared.index.nx * q.shared.index.ny) as u32)
    }

    /// The content key (hex) naming the shared index: equal keys in one process mean one copy.
    #[napi(getter)]
    pub fn index_key(&self) -> Result<String> {
        on(self.slot, |q| format!("{:016x}", q.shared.key))
    }

    /// Copies the records of the last call into `out` (at least as long as they are), then drops a large buffer
    /// (a bulk output), so a thread's handle keeps only a single query's worth between calls.
    #[napi]
    pub fn take_output(&mut self, mut out: Float64ArraySlice) -> Result<u32> {
        on(self.slot, |q| {
            // SAFETY: JavaScript is blocked in this call; nothing else reads or writes `out` during the copy.
            let dst = unsafe { out.as_mut() }.get_mut(..q.out.len()).ok_or_else(|| kernel_error(errors::BAD_ARGUMENT))?;
            dst.copy_from_slice(&q.out);
            let len = q.out.len() as u32;
            if q.out.capacity() > KEEP_OUTPUT_SLOTS {
                q.out = Vec::new();
            }
            Ok(len)
        })?
    }

    /// The bulk entry: `queryBound` without rejections, the subjects spread over rayon's threads (ordered.rs), records
    /// in subject order, each task's part copied into `out` as soon as the tasks before it are in (one copy, made
    /// while the other threads query); returns their length either way (larger than `out`: they wait in the handle
    /// for `takeOutput`). The records end in memory the garbage collector counts (an external buffer per call let
    /// score-all's RSS grow to 4.1 GB).
    #[napi(catch_unwind)]
    pub fn batch_parallel(&mut self, input: &[f64], mut out: Float64ArraySlice) -> Result<u32> {
        check_input(input)?;
        on(self.slot, |q| {
            let s = &*q.shared;
            // SAFETY: JavaScript is blocked in this call and the door never passes one array as both input and out.
            let dst = unsafe { out.as_mut() };
            let (len, overflow) = ordered::run_in_order(input, SUBJECTS_PER_TASK, dst, |chunk, scratch, part| run_subjects(s, chunk, false, scratch, part));
            q.out.clear();
            if let Some(all) = overflow {
                q.out = all;
            }
            len as u32
        })
    }
}

/// Binds `io` to the handle of `slot` as its buffer both ways for `queryBound` (replacing any bound before): the
/// handle keeps a reference to it, so it lives while bound. Passing a typed array on every call cost ~60 ns of an
/// empty call's ~215 (measured from Node); a bound buffer is passed once.
#[napi]
pub fn bind_io(slot: u32, io: Float64Array) -> Result<()> {
    on(slot, |q| q.io = Some(io))
}

/// Subjects (SUBJECT_LEN slots each) answered on this thread for the handle of `slot`, one record each, in order,
/// through the buffer `bindIo` bound to it: its first `n` slots are read, then the records written over them when
/// they fit; returns the records' length (larger than the buffer: call `takeOutput`). Exported as `queryBound`
/// (bound.rs): a free function, so a single query pays no `this` unwrap (querier.rs), registered on N-API directly.
pub(crate) fn query_bound(slot: u32, n: u32, with_rejected: bool) -> Result<u32> {
    let n = n as usize;
    on(slot, |q| {
        let Querier { io, input, out, shared, scratch } = q;
        // SAFETY: JavaScript is blocked in this call, and the bound array is reached only through its querier here.
        let io = match io.as_mut() {
            Some(io) if n <= io.len() => unsafe { io.as_mut() },
            _ => return Err(kernel_error(errors::BAD_ARGUMENT)),
        };
        check_input(&io[..n])?;
        input.clear();
        input.extend_from_slice(&io[..n]);
        out.clear();
        run_subjects(shared, input, with_rejected, scratch, out);
        Ok(copy_out(out, io))
    })?
}

/// The exports napi-rs does not generate (bound.rs).
#[napi(module_exports)]
pub fn raw_exports(exports: Object, env: Env) -> Result<()> {
    bound::register(env.raw(), exports.raw())
}

/// ABI version of the linked avm-kernel (the door checks it as it checks the WASM module's).
#[napi]
pub fn abi_version() -> u32 {
    avm_kernel::abi::ABI_VERSION
}

/// Indexes alive in this process, whatever the number of threads holding them.
#[napi]
pub fn live_indexes() -> u32 {
    shared::live_count() as u32
}

/// Kernel handles holding the index of `key` (hex, as `indexKey`) in this process: one per thread that opened it.
#[napi]
pub fn index_sharers(key: String) -> u32 {
    u64::from_str_radix(&key, 16).map_or(0, |k| shared::sharers(k) as u32)
}

/// Live bytes of the addon's Rust heap (all indexes and buffers of the process).
#[napi]
pub fn heap_bytes() -> f64 {
    heap::live_bytes() as f64
}

/// Threads of the bulk entry's pool.
#[napi]
pub fn bulk_threads() -> u32 {
    rayon::current_num_threads() as u32
}

/// Split-conformal bounds as abi.rs avm_conformal computes them: [lo, hi] two-sided, [q] one-sided.
#[napi(catch_unwind)]
pub fn conformal(values: Float64Array, alpha: f64, two_sided: bool) -> Result<Float64Array> {
    let mut v = values.to_vec();
    let r = if two_sided { stats::conformal_two_sided(&mut v, alpha).map(|(lo, hi)| vec![lo, hi]) } else { stats::conformal_one_sided(&mut v, alpha).map(|q| vec![q]) };
    r.map(Float64Array::new).map_err(kernel_error)
}
