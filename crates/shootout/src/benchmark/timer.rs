//! The clocks: throughput loops are timed as a whole, latency samples with
//! serialised (fenced) TSC reads whose own cost is calibrated and subtracted.
//! quanta reads the TSC where it is invariant, else the OS monotonic clock.

use std::time::{Duration, Instant};

use crate::document::Calibration;

pub struct Timer {
    clock: quanta::Clock,
    pub calibration: Calibration,
}

const CALIBRATION_SAMPLES: usize = 100_001;

/// Keeps the CPU from moving work across a clock read (`lfence` orders rdtsc
/// against the instructions around it); the compiler fence does the same for the compiler.
#[inline(always)]
fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: lfence has no preconditions; SSE2 is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_lfence()
    };
    std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
}

impl Timer {
    pub fn new() -> Self {
        let clock = quanta::Clock::new();
        // quanta does not expose its choice; its Debug output names the variant.
        let source = if format!("{clock:?}").starts_with("Clock { inner: Counter") {
            "TSC (quanta), fenced reads"
        } else {
            "OS monotonic clock (quanta fallback)"
        };
        let counter_hz = counter_frequency(&clock);
        let mut timer = Timer {
            clock,
            calibration: Calibration {
                clock: source.to_owned(),
                counter_hz,
                empty_region_ns: 0,
                resolution_ns: 0,
                flag_below_ns: 0,
            },
        };
        let mut samples: Vec<u64> = (0..CALIBRATION_SAMPLES)
            .map(|_| {
                let start = timer.start();
                timer.elapsed_ns(start)
            })
            .collect();
        samples.sort_unstable();
        let calibration = &mut timer.calibration;
        calibration.empty_region_ns = samples[samples.len() / 2];
        calibration.resolution_ns = samples.iter().copied().find(|&ns| ns > 0).unwrap_or(1).max(1);
        calibration.flag_below_ns = 5 * calibration.resolution_ns;
        timer
    }

    /// A serialised read opening a timed region.
    #[inline(always)]
    pub fn start(&self) -> u64 {
        fence();
        let now = self.clock.raw();
        fence();
        now
    }

    /// Nanoseconds since `start`, by a serialised read.
    #[inline(always)]
    pub fn elapsed_ns(&self, start: u64) -> u64 {
        fence();
        let end = self.clock.raw();
        fence();
        self.clock.delta_as_nanos(start, end)
    }

    /// One latency sample: the region's time less the calibrated empty-region cost.
    #[inline(always)]
    pub fn sample_ns(&self, start: u64) -> u64 {
        self.elapsed_ns(start).saturating_sub(self.calibration.empty_region_ns)
    }
}

/// Raw counter ticks per second, measured against the OS clock over 20 ms.
fn counter_frequency(clock: &quanta::Clock) -> f64 {
    let (wall, raw) = (Instant::now(), clock.raw());
    std::thread::sleep(Duration::from_millis(20));
    let (ticks, elapsed) = (clock.raw().wrapping_sub(raw), wall.elapsed());
    ticks as f64 / elapsed.as_secs_f64()
}

impl Default for Timer {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_is_consistent() {
        let timer = Timer::new();
        let c = &timer.calibration;
        assert!(c.resolution_ns >= 1 && c.flag_below_ns == 5 * c.resolution_ns);
        assert!(c.counter_hz > 1e6, "{}", c.counter_hz);
        let start = timer.start();
        std::thread::sleep(Duration::from_millis(2));
        assert!(timer.sample_ns(start) >= 1_000_000);
    }
}
