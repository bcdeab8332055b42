//! The process-wide index cache: every thread of the process (each Piscina worker loads the addon into the same
//! process, so this static is shared) asks for its index by a content key, and gets the one built copy while any
//! thread still holds it. Entries are weak: an index no kernel object holds any more is freed, and a snapshot that
//! comes back later is rebuilt.

use avm_kernel::index::Index;
use avm_kernel::params::Params;
use avm_kernel::timeindex::TimeIndex;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// What a query reads: immutable once built, so threads share it without locks.
pub struct Shared {
    pub key: u64,
    pub params: Params,
    pub time_index: TimeIndex,
    pub index: Index,
}

fn cache() -> &'static Mutex<HashMap<u64, Weak<Shared>>> {
    static CACHE: OnceLock<Mutex<HashMap<u64, Weak<Shared>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The live index of `key`, or the one `build` makes. The build runs under the cache lock on purpose: workers
/// starting together on the same snapshot wait for the first build instead of each building a copy.
pub fn open(key: u64, build: impl FnOnce() -> Result<Shared, i32>) -> Result<Arc<Shared>, i32> {
    // A panic elsewhere while holding the lock leaves the map itself consistent (inserts are single calls).
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(live) = map.get(&key).and_then(Weak::upgrade) {
        return Ok(live);
    }
    let built = Arc::new(build()?);
    map.retain(|_, w| w.strong_count() > 0);
    map.insert(key, Arc::downgrade(&built));
    Ok(built)
}

/// Indexes alive in this process (held by at least one kernel object).
pub fn live_count() -> usize {
    let map = cache().lock().unwrap_or_else(|e| e.into_inner());
    map.values().filter(|w| w.strong_count() > 0).count()
}

/// Kernel handles (threads) holding the index of `key` in this process; 0 when none does.
pub fn sharers(key: u64) -> usize {
    let map = cache().lock().unwrap_or_else(|e| e.into_inner());
    map.get(&key).map_or(0, Weak::strong_count)
}
