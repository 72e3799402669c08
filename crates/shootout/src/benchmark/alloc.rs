//! A global allocator that counts allocations, so the harness can report
//! allocations per record. Counting is two relaxed atomic adds per call; the
//! harness reads the counters immediately around each timed call.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

pub struct CountingAllocator;

/// The allocator behind the numbers, as the results name it.
pub const NAME: &str = "system (counting wrapper)";

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static ALLOCATED_BYTES: AtomicU64 = AtomicU64::new(0);

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[inline]
fn count(bytes: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    ALLOCATED_BYTES.fetch_add(bytes as u64, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    /// A reallocation is an allocation of `new_size` bytes to its caller.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations and bytes allocated so far by the whole process.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Allocations {
    pub count: u64,
    pub bytes: u64,
}

#[inline(always)]
pub fn snapshot() -> Allocations {
    Allocations { count: ALLOCATIONS.load(Ordering::Relaxed), bytes: ALLOCATED_BYTES.load(Ordering::Relaxed) }
}

impl std::ops::Sub for Allocations {
    type Output = Allocations;
    fn sub(self, earlier: Allocations) -> Allocations {
        Allocations { count: self.count - earlier.count, bytes: self.bytes - earlier.bytes }
    }
}

impl std::ops::AddAssign for Allocations {
    fn add_assign(&mut self, other: Allocations) {
        self.count += other.count;
        self.bytes += other.bytes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_allocations_and_bytes() {
        let before = snapshot();
        let v: Vec<u8> = Vec::with_capacity(1000);
        let after = snapshot();
        drop(v);
        // Other test threads may allocate concurrently, so only a lower bound holds.
        let delta = after - before;
        assert!(delta.count >= 1 && delta.bytes >= 1000, "{delta:?}");
    }
}
