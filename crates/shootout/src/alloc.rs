//! A global allocator that counts allocations, so the harness can report
//! allocations per record. It counts only while the allocation pass has
//! switched counting on, and only the calling thread's allocations, in
//! thread-local counters: the timed passes pay one relaxed load per allocation
//! and no atomic read-modify-write.
//!
//! It can also cap what a process allocates ([`Capped`]): `shootout
//! robustness` decodes hostile bytes in a worker process under a cap, so a
//! decoder that asks for gigabytes is stopped and counted, not left to exhaust
//! the machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

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
            let Allocations { count, bytes: total } = c.get();
            c.set(Allocations { count: count + 1, bytes: total + bytes as u64 });
        });
    }
}

/// The cap in bytes while a [`Capped`] guard is alive; 0: no cap.
static CAP: AtomicUsize = AtomicUsize::new(0);
/// Bytes allocated, net of frees, since the cap was set (by every thread).
/// Frees of blocks allocated before can take it below zero.
static CAPPED_LIVE: AtomicIsize = AtomicIsize::new(0);

/// What a process stopped by the cap writes to stderr before it aborts.
pub const CAP_EXCEEDED: &str = "shootout: allocation cap exceeded";

/// Charges `bytes` (negative: freed) against the cap, if one is set; past it,
/// the process writes [`CAP_EXCEEDED`] and aborts. Aborting, not returning
/// null, because a null makes most code abort anyway, with no marker, and the
/// few that handle it would count a 8 GiB request as a clean error.
#[inline]
fn charge(bytes: isize) {
    let cap = CAP.load(Ordering::Relaxed);
    if cap == 0 {
        return;
    }
    let live = CAPPED_LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    if bytes > 0 && live > cap as isize {
        // Off first: writing the message must not come back here.
        CAP.store(0, Ordering::SeqCst);
        let mut message = [0u8; 192];
        let mut cursor = std::io::Cursor::new(&mut message[..]);
        // A fixed buffer and core formatting: no allocation on the way out.
        let _ = writeln!(
            cursor,
            "{CAP_EXCEEDED}: asked for {bytes} bytes with {} live, cap {cap}",
            live - bytes
        );
        let written = cursor.position() as usize;
        let _ = std::io::stderr().write_all(&message[..written]);
        std::process::abort();
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        charge(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        charge(layout.size() as isize);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        charge(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }

    /// A reallocation is an allocation of `new_size` bytes to its caller.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        charge(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Caps the bytes the process allocates, net of frees, while alive: a request
/// past the cap aborts the process with [`CAP_EXCEEDED`] on stderr. For a
/// process that expects it (the robustness worker), never the harness.
pub struct Capped(());

impl Capped {
    pub fn start(cap_bytes: usize) -> Capped {
        assert!(cap_bytes > 0, "a cap of 0 bytes would be no cap");
        CAPPED_LIVE.store(0, Ordering::SeqCst);
        CAP.store(cap_bytes, Ordering::SeqCst);
        Capped(())
    }
}

impl Drop for Capped {
    fn drop(&mut self) {
        CAP.store(0, Ordering::SeqCst);
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
        let uncounted = snapshot();
        drop(Vec::<u8>::with_capacity(10));
        let before = {
            let _counting = Counting::start();
            let before = snapshot();
            let v: Vec<u8> = Vec::with_capacity(1000);
            let after = snapshot();
            drop(v);
            assert_eq!(after - before, Allocations { count: 1, bytes: 1000 });
            after
        };
        assert!(before.count > uncounted.count);
    }
}
