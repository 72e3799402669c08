//! Per-run statistics of one direction, and their spread across runs.

use hdrhistogram::Histogram;
use serde::Serialize;

use super::alloc::Allocations;

/// Samples of one direction (encode or decode) in one run.
pub struct Samples {
    histogram: Histogram<u64>,
    total_ns: u64,
    records: u64,
    allocations: Allocations,
}

/// Enough range for one record taking a minute; 3 significant digits.
const HIGHEST_NS: u64 = 60_000_000_000;

impl Samples {
    pub fn new() -> Self {
        Samples {
            histogram: Histogram::new_with_bounds(1, HIGHEST_NS, 3).expect("valid histogram bounds"),
            total_ns: 0,
            records: 0,
            allocations: Allocations::default(),
        }
    }

    #[inline]
    pub fn record(&mut self, ns: u64, allocations: Allocations) {
        self.histogram.saturating_record(ns);
        self.total_ns += ns;
        self.records += 1;
        self.allocations += allocations;
    }

    /// `bytes` is the stream size the direction produced or consumed.
    pub fn finish(&self, bytes: u64) -> RunStats {
        let h = &self.histogram;
        let records = self.records.max(1) as f64;
        let seconds = self.total_ns as f64 / 1e9;
        RunStats {
            p50_ns: h.value_at_quantile(0.50),
            p90_ns: h.value_at_quantile(0.90),
            p99_ns: h.value_at_quantile(0.99),
            p999_ns: h.value_at_quantile(0.999),
            max_ns: h.max(),
            mean_ns: self.total_ns as f64 / records,
            total_ns: self.total_ns,
            records_per_s: if seconds > 0.0 { self.records as f64 / seconds } else { 0.0 },
            mb_per_s: if seconds > 0.0 { bytes as f64 / 1e6 / seconds } else { 0.0 },
            allocations_per_record: self.allocations.count as f64 / records,
            allocated_bytes_per_record: self.allocations.bytes as f64 / records,
        }
    }
}

impl Default for Samples {
    fn default() -> Self {
        Self::new()
    }
}

/// Percentiles come from the histogram (3 significant digits); total and mean
/// are exact sums of the samples.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RunStats {
    pub p50_ns: u64,
    pub p90_ns: u64,
    pub p99_ns: u64,
    pub p999_ns: u64,
    pub max_ns: u64,
    pub mean_ns: f64,
    pub total_ns: u64,
    pub records_per_s: f64,
    /// Encoded stream bytes (10^6) per second.
    pub mb_per_s: f64,
    pub allocations_per_record: f64,
    pub allocated_bytes_per_record: f64,
}

/// Median across runs, with the smallest and largest run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// Median of an odd count is the middle run; of an even count, the mean of the middle two.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Spread {
        let mut v: Vec<f64> = values.into_iter().collect();
        assert!(!v.is_empty(), "spread of no runs");
        v.sort_by(f64::total_cmp);
        let mid = v.len() / 2;
        let median = if v.len() % 2 == 1 { v[mid] } else { (v[mid - 1] + v[mid]) / 2.0 };
        Spread { median, min: v[0], max: v[v.len() - 1] }
    }
}

/// Each statistic of [`RunStats`] summarized across runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    pub p50_ns: Spread,
    pub p90_ns: Spread,
    pub p99_ns: Spread,
    pub p999_ns: Spread,
    pub max_ns: Spread,
    pub mean_ns: Spread,
    pub total_ns: Spread,
    pub records_per_s: Spread,
    pub mb_per_s: Spread,
    pub allocations_per_record: Spread,
    pub allocated_bytes_per_record: Spread,
}

impl Summary {
    pub fn of(runs: &[RunStats]) -> Summary {
        let spread = |f: fn(&RunStats) -> f64| Spread::of(runs.iter().map(f));
        Summary {
            p50_ns: spread(|r| r.p50_ns as f64),
            p90_ns: spread(|r| r.p90_ns as f64),
            p99_ns: spread(|r| r.p99_ns as f64),
            p999_ns: spread(|r| r.p999_ns as f64),
            max_ns: spread(|r| r.max_ns as f64),
            mean_ns: spread(|r| r.mean_ns),
            total_ns: spread(|r| r.total_ns as f64),
            records_per_s: spread(|r| r.records_per_s),
            mb_per_s: spread(|r| r.mb_per_s),
            allocations_per_record: spread(|r| r.allocations_per_record),
            allocated_bytes_per_record: spread(|r| r.allocated_bytes_per_record),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_totals_and_rates_follow_the_samples() {
        let mut s = Samples::new();
        for ns in 1..=1000u64 {
            s.record(ns, Allocations { count: (ns % 2), bytes: 8 * (ns % 2) });
        }
        let r = s.finish(2_000_000);
        assert_eq!(r.total_ns, 500_500);
        assert_eq!(r.p50_ns, 500);
        assert_eq!(r.p99_ns, 990);
        assert_eq!(r.max_ns, 1000);
        assert!((r.mean_ns - 500.5).abs() < 1e-9);
        assert!((r.allocations_per_record - 0.5).abs() < 1e-9);
        assert!((r.allocated_bytes_per_record - 4.0).abs() < 1e-9);
        // 1000 records in 500.5 µs.
        assert!((r.records_per_s - 1000.0 / 500.5e-6).abs() < 1e-3);
        assert!((r.mb_per_s - 2.0 / 500.5e-6).abs() < 1e-6);
    }

    #[test]
    fn spread_takes_the_median_run() {
        assert_eq!(Spread::of([5.0, 1.0, 3.0]), Spread { median: 3.0, min: 1.0, max: 5.0 });
        assert_eq!(Spread::of([4.0, 1.0, 3.0, 2.0]).median, 2.5);
    }
}
