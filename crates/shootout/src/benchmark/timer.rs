//! The clock behind every sample: quanta reads the TSC where it is invariant
//! (a few ns per read), else falls back to the OS monotonic clock.

use serde::Serialize;

pub struct Timer {
    clock: quanta::Clock,
    pub calibration: Calibration,
}

#[derive(Debug, Clone, Serialize)]
pub struct Calibration {
    /// Which clock source quanta chose.
    pub clock: &'static str,
    /// Median duration of an empty timed region: the floor under every sample. Not subtracted.
    pub empty_region_ns: u64,
    /// Smallest non-zero step the clock showed: no sample is finer than this.
    pub resolution_ns: u64,
}

const CALIBRATION_SAMPLES: usize = 100_001;

impl Timer {
    pub fn new() -> Self {
        let clock = quanta::Clock::new();
        // quanta does not expose its choice; its Debug output names the variant.
        let source = if format!("{clock:?}").starts_with("Clock { inner: Counter") {
            "TSC (quanta)"
        } else {
            "OS monotonic clock (quanta fallback)"
        };
        let mut timer = Timer { clock, calibration: Calibration { clock: source, empty_region_ns: 0, resolution_ns: 0 } };
        let mut samples: Vec<u64> = (0..CALIBRATION_SAMPLES)
            .map(|_| {
                let start = timer.start();
                timer.elapsed_ns(start)
            })
            .collect();
        samples.sort_unstable();
        timer.calibration.empty_region_ns = samples[samples.len() / 2];
        timer.calibration.resolution_ns = samples.iter().copied().find(|&ns| ns > 0).unwrap_or(0);
        timer
    }

    #[inline(always)]
    pub fn start(&self) -> u64 {
        self.clock.raw()
    }

    #[inline(always)]
    pub fn elapsed_ns(&self, start: u64) -> u64 {
        let end = self.clock.raw();
        self.clock.delta_as_nanos(start, end)
    }
}

impl Default for Timer {
    fn default() -> Self {
        Self::new()
    }
}
