//! The bulk entry's fan-out (lib.rs batchParallel): the subjects in tasks of a few dozen, claimed in order by one loop
//! per rayon thread, each task's records written into a part of its own and then into the output, in task order, by
//! whichever thread completes the run of finished tasks. So the records reach the output while the other thread is
//! still querying, from a part still in cache, instead of in one copy by one thread after every task has finished
//! (that copy left the second core idle for 5–15% of the county batch). rayon's indexed collect keeps the order
//! only by waiting for all of it; this keeps it task by task, which is ours to write.
//!
//! Each thread queries with a Scratch it keeps across calls (thread-local): one made per call started every call
//! with cold memos (each bucket's window rows searched again, the per-bucket table grown again from empty) and
//! empty buffers. The county batch in calls of 2,500 subjects (600 calls) spent 950–1,010 ms in the kernel with a
//! Scratch per call, 876–949 ms with one per thread (2026-12-07, 15 runs each of the peers bench's bulkStep1 walk
//! timed call by call, 2 cores).

use avm_kernel::query::Scratch;
use avm_kernel::slots::SUBJECT_LEN;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Where a call's records go, in subject order: `dst` while they fit; once one does not, `overflow` holds all of them
/// (what `dst` took first) and `dst` is left alone.
struct Sink<'a> {
    dst: &'a mut [f64],
    len: usize,
    overflow: Option<Vec<f64>>,
}

impl Sink<'_> {
    fn write(&mut self, part: &[f64]) {
        let end = self.len + part.len();
        match (&mut self.overflow, self.dst.get_mut(self.len..end)) {
            (Some(o), _) => o.extend_from_slice(part),
            (None, Some(d)) => d.copy_from_slice(part),
            (None, None) => {
                let mut o = Vec::with_capacity(2 * end);
                o.extend_from_slice(&self.dst[..self.len]);
                o.extend_from_slice(part);
                self.overflow = Some(o);
            }
        }
        self.len = end;
    }
}

/// Finished parts waiting for the ones before them, and emptied parts to reuse.
struct Commit<'a> {
    sink: Sink<'a>,
    next: usize,
    done: Vec<Option<Vec<f64>>>,
    spare: Vec<Vec<f64>>,
}

thread_local! {
    /// The query buffers and memos of each rayon thread, kept from one bulk call to the next.
    static THREAD_SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// `f` with this thread's Scratch. A worker never runs another while it runs (nothing in it waits on rayon), so the
/// Scratch is free; were it ever not, `f` gets a new one. Reading memos left by another handle's call is safe: they
/// are keyed by the index build (Index::build_id, unique in the process).
fn with_thread_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    THREAD_SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut kept) => f(&mut kept),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Runs `input`'s subjects (SUBJECT_LEN slots each) `per_task` at a time through `run` on rayon's threads, writing
/// the records into `dst` in subject order. Returns their length and, when they did not fit in `dst`, all of them.
pub fn run_in_order(
    input: &[f64],
    per_task: usize,
    dst: &mut [f64],
    run: impl Fn(&[f64], &mut Scratch, &mut Vec<f64>) + Sync,
) -> (usize, Option<Vec<f64>>) {
    let task_slots = per_task * SUBJECT_LEN;
    let tasks = input.len().div_ceil(task_slots);
    let claimed = AtomicUsize::new(0);
    let commit = Mutex::new(Commit { sink: Sink { dst, len: 0, overflow: None }, next: 0, done: (0..tasks).map(|_| None).collect(), spare: Vec::new() });
    let worker = || with_thread_scratch(|scratch| {
        let mut part = Vec::new();
        loop {
            let k = claimed.fetch_add(1, Ordering::Relaxed);
            if k >= tasks {
                return;
            }
            part.clear();
            run(&input[k * task_slots..((k + 1) * task_slots).min(input.len())], scratch, &mut part);
            // A panic in `run` unwinds out of the scope before this lock: it is never poisoned by a write here.
            let mut guard = commit.lock().unwrap_or_else(|e| e.into_inner());
            let c = &mut *guard;
            c.done[k] = Some(std::mem::take(&mut part));
            while let Some(p) = c.done.get_mut(c.next).and_then(Option::take) {
                c.sink.write(&p);
                c.spare.push(p);
                c.next += 1;
            }
            part = c.spare.pop().unwrap_or_default();
        }
    });
    rayon::scope(|s| {
        for _ in 0..rayon::current_num_threads() {
            s.spawn(|_| worker());
        }
    });
    let c = commit.into_inner().unwrap_or_else(|e| e.into_inner());
    (c.sink.len, c.sink.overflow)
}
