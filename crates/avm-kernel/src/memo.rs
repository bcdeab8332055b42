//! A table of memoized values that empties in O(1): each entry carries the generation it was written in, and `clear`
//! starts a new one, so stale entries stop matching without being touched. The kernel's memos across queries keep
//! their values in it: the time-index factors by age (factors.rs) and the window rows by bucket (windows.rs).
#![forbid(unsafe_code)]

#[derive(Clone, Debug)]
pub struct Generations<T> {
    /// Never 0: unwritten entries carry 0.
    generation: u32,
    /// (generation written, value) by position; grown on demand.
    entries: Vec<(u32, T)>,
}

impl<T: Copy + Default> Default for Generations<T> {
    fn default() -> Self {
        Generations { generation: 1, entries: Vec::new() }
    }
}

impl<T: Copy + Default> Generations<T> {
    /// Forgets every entry: O(1), except once in 2^32 clears, when the entries are dropped for real so that none
    /// written long ago can match a generation again.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.clear();
            self.generation = 1;
        }
    }

    /// The value at `i` written since the last `clear`, else `compute()`'s, kept.
    #[inline]
    pub fn get_or_insert_with(&mut self, i: usize, compute: impl FnOnce() -> T) -> T {
        if i >= self.entries.len() {
            self.entries.resize(i + 1, (0, T::default()));
        }
        let e = &mut self.entries[i];
        if e.0 != self.generation {
            *e = (self.generation, compute());
        }
        e.1
    }
}

#[cfg(test)]
mod tests {
    use super::Generations;

    /// Values are computed once per position and generation; a clear forgets all of them, the wrap to generation 0
    /// included (forced here by setting the counter just before it).
    #[test]
    fn entries_live_until_the_next_clear() {
        let mut g = Generations::<u32>::default();
        let mut calls = 0;
        let mut get = |g: &mut Generations<u32>, i: usize, v: u32| g.get_or_insert_with(i, || { calls += 1; v });
        assert_eq!(get(&mut g, 5, 7), 7);
        assert_eq!(get(&mut g, 5, 9), 7, "kept");
        assert_eq!(get(&mut g, 0, 3), 3, "a position before the first written one");
        g.clear();
        assert_eq!(get(&mut g, 5, 9), 9, "forgotten by clear");
        g.generation = u32::MAX;
        assert_eq!(get(&mut g, 5, 11), 11);
        g.clear();
        assert_eq!(g.generation, 1);
        assert_eq!(get(&mut g, 5, 12), 12, "forgotten across the wrap");
        drop(get);
        assert_eq!(calls, 5);
    }
}
