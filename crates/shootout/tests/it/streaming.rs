//! Reading a capture in windows allocates next to nothing once the windows are
//! warm: only a record slot meeting a packet with more messages than any before
//! grows. Alone in its test binary, so the process-wide allocation count is its own.

use std::sync::Arc;

use shootout::alloc;
use shootout::input::Source;
use shootout::input::generate::{Options, generate};
use shootout::input::ingest::Records;

#[test]
fn warm_windows_allocate_next_to_nothing() {
    let bytes = generate(Options { packets: 60_000, seed: 9 });
    let mut reader =
        Records::open(&Source::Memory { name: "g.pcap".into(), bytes: Arc::from(bytes) }).unwrap();
    let mut window = Vec::new();
    for _ in 0..40 {
        assert_eq!(reader.next_window(&mut window, 256).unwrap(), 256, "warm-up");
    }
    let before = alloc::snapshot();
    let mut records = 0;
    while let n @ 1.. = reader.next_window(&mut window, 256).unwrap() {
        records += n;
    }
    let allocations = (alloc::snapshot() - before).count;
    assert!(records > 10_000, "{records} records");
    assert!(allocations * 1000 < records as u64, "{allocations} allocations for {records} records");
}
