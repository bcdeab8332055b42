//! Memo of each bucket's window rows across queries.
//!
//! The rows of a bucket that a step scans are those whose sale day is in [day_lo, as_of) (query::window: two searches
//! of the bucket's day column, each a few mispredicted branches and a cache miss). They are a function of the bucket,
//! the as-of day and day_lo alone, and consecutive queries share them: serving and score-all value every subject as
//! of one day, and the ladder has three windows. A query's Scratch keeps them for the last WINDOW_SLOTS (as-of day,
//! day_lo) pairs, per bucket, keyed by the index build (Index::build_id; an index without one is never memoized), in a
//! memo.rs table: giving a slot to another pair empties it in O(1), so a workload whose as-of days vary (a backtest)
//! pays one compare and one store per bucket, never a clear. Every value is the one the searches give: the memo
//! changes how long a query takes, never what it returns.
#![forbid(unsafe_code)]

use crate::index::Index;
use crate::memo::Generations;

/// (as-of day, day_lo) pairs a memo keeps: the ladder's three windows and an override's.
const WINDOW_SLOTS: usize = 4;

#[derive(Default)]
pub struct WindowMemo {
    slots: Vec<Slot>,
    /// Use counter: the least recently used slot goes to a new pair.
    clock: u64,
}

struct Slot {
    key: (u64, i32, i64),
    used: u64,
    /// Per bucket (its position in Index::buckets): first row, end row.
    rows: Generations<(u32, u32)>,
}

/// The window rows of one (as-of day, day_lo) pair: memoized, or computed every time when the index has no build id.
pub struct StepWindows<'a> {
    slot: Option<&'a mut Slot>,
}

impl WindowMemo {
    /// The memo of this index's buckets for one as-of day and day_lo.
    pub fn for_step(&mut self, ix: &Index, as_of_day: i32, day_lo: i64) -> StepWindows<'_> {
        if ix.build_id == 0 {
            return StepWindows { slot: None };
        }
        let key = (ix.build_id, as_of_day, day_lo);
        self.clock += 1;
        let k = match self.slots.iter().position(|sl| sl.key == key) {
            Some(k) => k,
            None if self.slots.len() < WINDOW_SLOTS => {
                self.slots.push(Slot { key, used: 0, rows: Generations::default() });
                self.slots.len() - 1
            }
            None => {
                let k = (0..self.slots.len()).min_by_key(|&k| self.slots[k].used).unwrap_or(0);
                self.slots[k].key = key;
                self.slots[k].rows.clear();
                k
            }
        };
        let sl = &mut self.slots[k];
        sl.used = self.clock;
        StepWindows { slot: Some(sl) }
    }
}

impl StepWindows<'_> {
    /// The window rows (lo, hi) of bucket `bucket`: the memo's, else `compute()`'s, then kept.
    #[inline]
    pub fn rows(&mut self, bucket: usize, compute: impl FnOnce() -> (usize, usize)) -> (usize, usize) {
        let sl = match self.slot.as_deref_mut() {
            Some(sl) => sl,
            None => return compute(),
        };
        let (lo, hi) = sl.rows.get_or_insert_with(bucket, || {
            let (lo, hi) = compute();
            (lo as u32, hi as u32)
        });
        (lo as usize, hi as usize)
    }
}
