//! What one direction accumulates over the windows of one run, before it
//! becomes the raw figures of the results document.

use hdrhistogram::Histogram;

use crate::alloc::Allocations;
use crate::document::{RawRun, RunStats, encode_histogram, new_histogram};

/// One field per pass.
pub struct Samples {
    /// Throughput pass: whole windows timed, no clock inside; `ops` over
    /// every throughput round, `round_ns` each round's share of `loop_ns`.
    pub loop_ns: u64,
    pub ops: u64,
    pub round_ns: Vec<u64>,
    /// Latency pass: one sample per op, the empty region's cost subtracted.
    pub latency: Histogram<u64>,
    /// Allocation pass, and the operations it counted over (one round's).
    pub allocations: Allocations,
    pub allocation_ops: u64,
}

impl Samples {
    /// For a run of `rounds` throughput rounds.
    pub fn new(rounds: usize) -> Self {
        Samples {
            loop_ns: 0,
            ops: 0,
            round_ns: vec![0; rounds],
            latency: new_histogram(),
            allocations: Allocations::default(),
            allocation_ops: 0,
        }
    }

    pub fn finish(&self) -> RunStats {
        let ops = self.allocation_ops.max(1) as f64;
        RunStats::of(
            RawRun {
                total_ns: self.loop_ns,
                ops: self.ops,
                round_ns: self.round_ns.clone(),
                histogram: encode_histogram(&self.latency),
                allocations_per_op: Some(self.allocations.count as f64 / ops),
                allocated_bytes_per_op: Some(self.allocations.bytes as f64 / ops),
                gc_count: None,
                gc_pause_ms: None,
            },
            &self.latency,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_per_operation_of_the_allocation_pass_alone() {
        // Three throughput rounds over 1000 records; one allocation pass over them.
        let mut s = Samples::new(3);
        s.latency.record(100).unwrap();
        (s.loop_ns, s.ops) = (1_200_000, 3000);
        (s.allocations, s.allocation_ops) = (Allocations { count: 500, bytes: 4000 }, 1000);
        let r = s.finish();
        assert_eq!(r.ns_per_op, 400.0);
        assert_eq!((r.allocations_per_op, r.allocated_bytes_per_op), (Some(0.5), Some(4.0)));
    }
}
