//! The per-thread query state of each NativeKernel (its share of the index, query buffers), kept in a thread-local
//! table and reached by slot number, so a single query goes through a free function (`queryBound`): a napi class
//! method pays ~210 ns to unwrap `this` (measured from Node: 244 ns for a method without arguments, 31 ns for a free
//! function), more than the rest of a small query's crossing. Each JS thread has its own table, as it has its own
//! kernel objects; a kernel object's finalizer (on its thread) frees its slot.

use crate::shared::Shared;
use avm_kernel::query::Scratch;
use std::cell::RefCell;
use napi::bindgen_prelude::Float64Array;
use std::sync::Arc;

/// What a query on one handle reads and reuses.
pub struct Querier {
    pub shared: Arc<Shared>,
    pub scratch: Scratch,
    /// Records of the last call.
    pub out: Vec<f64>,
    /// The subjects of the last call (the buffer that brought them also takes the records).
    pub input: Vec<f64>,
    /// The JavaScript buffer `queryBound` reads subjects from and writes records to (lib.rs bind_io).
    pub io: Option<Float64Array>,
}

thread_local! {
    static SLOTS: RefCell<Vec<Option<Querier>>> = const { RefCell::new(Vec::new()) };
}

/// Stores `q` in a free slot of this thread's table; returns the slot.
pub fn insert(q: Querier) -> u32 {
    SLOTS.with(|s| {
        let mut s = s.borrow_mut();
        match s.iter().position(Option::is_none) {
            Some(k) => {
                s[k] = Some(q);
                k as u32
            }
            None => {
                s.push(Some(q));
                (s.len() - 1) as u32
            }
        }
    })
}

/// Frees a slot (dropping its share of the index). A thread already tearing down its locals has freed them all.
pub fn remove(slot: u32) {
    let _ = SLOTS.try_with(|s| s.borrow_mut().get_mut(slot as usize).map(Option::take));
}

/// Runs `f` on the querier of `slot` of this thread, or None when there is none (another thread's slot, or freed).
pub fn with<R>(slot: u32, f: impl FnOnce(&mut Querier) -> R) -> Option<R> {
    SLOTS.with(|s| s.borrow_mut().get_mut(slot as usize).and_then(Option::as_mut).map(f))
}
