//! The content key of an index: a hash of everything `Index::build` reads (params slots, deed classes, condition
//! groups, time-index series, every column), so two threads handing the same snapshot get the same index and any
//! difference gets its own. SipHash with std's fixed keys: deterministic within a process; an accidental 64-bit
//! collision between two snapshots alive at once is the (negligible) risk accepted here.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;

pub struct Key(DefaultHasher);

impl Key {
    pub fn new() -> Key {
        Key(DefaultHasher::new())
    }
    pub fn f64s(&mut self, xs: &[f64]) -> &mut Self {
        self.0.write_usize(xs.len());
        xs.iter().for_each(|x| self.0.write_u64(x.to_bits()));
        self
    }
    pub fn ints<T: Copy + Into<i64>>(&mut self, xs: &[T]) -> &mut Self {
        self.0.write_usize(xs.len());
        xs.iter().for_each(|&x| self.0.write_i64(x.into()));
        self
    }
    pub fn finish(&self) -> u64 {
        self.0.finish()
    }
}
