//! A global allocator that counts allocations, so the harness can report
//! allocations per record. It counts only while the allocation pass has
//! switched counting on, and only the calling thread's allocations, in
//! thread-local counters: the timed passes pay one relaxed load per allocation
//! and no atomic read-modify-write.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct CountingAllocator;

/// The allocator behind the numbers, as the results name it.
pub const NAME: &str = "system (counting wrapper)";

/// How many `Counting` guards are alive (tests may hold several at once).
static COUNTING: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTS: Cell<Allocations> = const { Cell::new(Allocations { count: 0, bytes: 0 }) };
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[inline]
fn count(bytes: usize) {
    if COUNTING.load(Ordering::Relaxed) > 0 {
        // try_with: a thread being torn down has no counters left; its allocations are not ours.
        let _ = COUNTS.try_with(|c| {
            let Allocations {
                count,
                bytes: total,
            } = c.get();
            c.set(Allocations {
                count: count + 1,
                bytes: total + bytes as u64,
            });
        });
    }
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

/// Counts allocations while alive (the allocation pass holds one).
pub struct Counting(());

impl Counting {
    pub fn start() -> Counting {
        COUNTING.fetch_add(1, Ordering::SeqCst);
        Counting(())
    }
}

impl Drop for Counting {
    fn drop(&mut self) {
        COUNTING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Allocations and bytes this thread allocated while counting was on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Allocations {
    pub count: u64,
    pub bytes: u64,
}

#[inline(always)]
pub fn snapshot() -> Allocations {
    COUNTS.with(Cell::get)
}

impl std::ops::Sub for Allocations {
    type Output = Allocations;
    fn sub(self, earlier: Allocations) -> Allocations {
        Allocations {
            count: self.count - earlier.count,
            bytes: self.bytes - earlier.bytes,
        }
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
        let uncounted = snapshot();
        drop(Vec::<u8>::with_capacity(10));
        let before = {
            let _counting = Counting::start();
            let before = snapshot();
            let v: Vec<u8> = Vec::with_capacity(1000);
            let after = snapshot();
            drop(v);
            assert_eq!(
                after - before,
                Allocations {
                    count: 1,
                    bytes: 1000
                }
            );
            after
        };
        assert!(before.count > uncounted.count);
    }
}
