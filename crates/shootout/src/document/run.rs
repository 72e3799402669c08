//! One direction of one measured run: the raw figures a runner writes, and
//! what they give on their own (ns/op, percentiles of the latency histogram).

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use super::histogram::decode_histogram;
use crate::stats;

/// Tukey's fences on the latency samples: below Q1 − 1.5·IQR, above Q3 + 1.5·IQR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outliers {
    pub low: u64,
    pub high: u64,
}

impl Outliers {
    fn of(h: &Histogram<u64>) -> Outliers {
        let (low, high) = stats::outside_tukey_fences(h);
        Outliers { low, high }
    }
}

/// What a runner writes of one direction in one measured run: the raw
/// figures, nothing derived (docs/results-schema.md).
pub struct RawRun {
    /// Sum of the throughput pass's timed window loops.
    pub total_ns: u64,
    pub ops: u64,
    /// `total_ns` round by round: each round is a unit in which every format
    /// ran once (empty from a runner that does not write them).
    pub round_ns: Vec<u64>,
    /// The latency pass's histogram (see [`decode_histogram`]).
    pub histogram: String,
    pub allocations_per_op: Option<f64>,
    pub allocated_bytes_per_op: Option<f64>,
    /// Garbage collections that ended during the throughput pass, and their
    /// time in ms, from a runner with a collector (the JVM).
    pub gc_count: Option<u64>,
    pub gc_pause_ms: Option<u64>,
}

/// A histogram read from a results file: its text, written back as it was,
/// and what it decodes to. Decoded as it is read, so that an encoding beyond
/// [`HISTOGRAM_LIMITS`](super::HISTOGRAM_LIMITS) is refused at its own place in the file.
pub struct StoredHistogram {
    pub text: String,
    pub decoded: Histogram<u64>,
}

impl<'de> Deserialize<'de> for StoredHistogram {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let decoded = decode_histogram(&text).map_err(serde::de::Error::custom)?;
        Ok(StoredHistogram { text, decoded })
    }
}

/// One direction of one measured run: the raw figures and what they give.
/// Throughput figures come from the throughput pass only; percentiles from
/// the latency pass; allocations from their own pass.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunStats {
    pub ns_per_op: f64,
    /// Sum of the timed window loops.
    pub total_ns: u64,
    pub ops: u64,
    /// As [`RawRun::round_ns`]; absent when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub round_ns: Vec<u64>,
    pub ops_per_s: f64,
    pub p50_ns: u64,
    pub p90_ns: u64,
    pub p99_ns: u64,
    pub p999_ns: u64,
    pub max_ns: u64,
    pub latency_mean_ns: f64,
    pub outliers: Outliers,
    /// Allocations per op; null from a runner that cannot count them (the JVM
    /// gives allocated bytes per thread, not a count), and for a codec whose
    /// library allocates where the count cannot see (C malloc).
    pub allocations_per_op: Option<f64>,
    /// Bytes allocated per op; null for such a codec too.
    pub allocated_bytes_per_op: Option<f64>,
    /// As [`RawRun::gc_count`] and [`RawRun::gc_pause_ms`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_pause_ms: Option<u64>,
    /// The latency pass's histogram, HdrHistogram V2 serialization in base64.
    pub histogram: String,
}

impl RunStats {
    /// Everything one run's raw figures give; `latency` is `raw.histogram` decoded.
    pub fn of(raw: RawRun, latency: &Histogram<u64>) -> RunStats {
        let seconds = raw.total_ns as f64 / 1e9;
        RunStats {
            ns_per_op: raw.total_ns as f64 / raw.ops.max(1) as f64,
            total_ns: raw.total_ns,
            ops: raw.ops,
            round_ns: raw.round_ns,
            ops_per_s: if seconds > 0.0 { raw.ops as f64 / seconds } else { 0.0 },
            p50_ns: latency.value_at_quantile(0.50),
            p90_ns: latency.value_at_quantile(0.90),
            p99_ns: latency.value_at_quantile(0.99),
            p999_ns: latency.value_at_quantile(0.999),
            max_ns: latency.max(),
            latency_mean_ns: latency.mean(),
            outliers: Outliers::of(latency),
            allocations_per_op: raw.allocations_per_op,
            allocated_bytes_per_op: raw.allocated_bytes_per_op,
            gc_count: raw.gc_count,
            gc_pause_ms: raw.gc_pause_ms,
            histogram: raw.histogram,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{encode_histogram, new_histogram};

    fn run_of(samples: impl IntoIterator<Item = u64>) -> RunStats {
        let mut h = new_histogram();
        for ns in samples {
            h.record(ns).unwrap();
        }
        let raw = RawRun {
            total_ns: 1_200_000,
            ops: 3000,
            round_ns: vec![400_000; 3],
            histogram: encode_histogram(&h),
            allocations_per_op: Some(0.5),
            allocated_bytes_per_op: Some(4.0),
            gc_count: None,
            gc_pause_ms: None,
        };
        RunStats::of(raw, &h)
    }

    #[test]
    fn throughput_comes_from_the_timed_loops_and_percentiles_from_the_histogram() {
        let r = run_of(1..=1000);
        assert_eq!(r.ns_per_op, 400.0);
        assert_eq!(r.ops_per_s, 3000.0 / 1200e-6);
        assert_eq!((r.p50_ns, r.p99_ns, r.max_ns), (500, 990, 1000));
        assert_eq!((r.allocations_per_op, r.allocated_bytes_per_op), (Some(0.5), Some(4.0)));
    }

    #[test]
    fn the_stored_histogram_recomputes_the_reported_percentiles() {
        let r = run_of((1..=10_000).map(|i| i * 7 % 3001 + 20));
        let h = decode_histogram(&r.histogram).unwrap();
        assert_eq!(h.value_at_quantile(0.99), r.p99_ns);
        assert_eq!(h.max(), r.max_ns);
        assert_eq!(h.len(), 10_000);
    }
}
