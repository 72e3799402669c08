//! What a runner writes after replaying (docs/replay.md,
//! `shootout-replay-runs/1`): Rust's own runs take the same form, so every
//! language's figures go through one statistics path.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::engine::{Recorded, SIZE_CLASSES, Transport};
use super::plan::{PlannedRun, Speed};
use crate::document::encode_histogram;

pub const SCHEMA: &str = "shootout-replay-runs/1";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Runs {
    pub schema: String,
    pub language: String,
    pub versions: BTreeMap<String, String>,
    pub clock: String,
    pub pinning: String,
    pub transports: BTreeMap<String, String>,
    pub runs: Vec<RunEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunEntry {
    pub format: String,
    pub transport: Transport,
    pub speed: Speed,
    pub first: usize,
    pub end: usize,
    pub sent: u64,
    pub received: u64,
    pub duration_ns: u64,
    pub max_backlog: u64,
    /// Histograms: base64 of HdrHistogram's V2 encoding; none for a run that never started.
    pub latency: Option<String>,
    pub busiest: Option<String>,
    pub sizes: Vec<SizeClass>,
    pub allocations: Vec<Allocated>,
    pub gc: Option<Gc>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SizeClass {
    /// The class's largest payload in bytes; none for the last, open class.
    pub max_bytes: Option<u64>,
    pub histogram: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Allocated {
    /// `producer`, `consumer`, or `process` where a language cannot tell threads apart.
    pub who: String,
    pub records: u64,
    pub count: Option<u64>,
    pub bytes: Option<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gc {
    pub collections: u64,
    pub pause_total_ns: u64,
    pub pause_max_ns: u64,
}

impl RunEntry {
    pub fn new(format: &str, transport: Transport, run: &PlannedRun, recorded: Recorded) -> Self {
        let sizes = recorded
            .sizes
            .iter()
            .enumerate()
            .filter(|(_, histogram)| !histogram.is_empty())
            .map(|(class, histogram)| SizeClass {
                max_bytes: SIZE_CLASSES.get(class).copied(),
                histogram: encode_histogram(histogram),
            })
            .collect();
        let allocated = |who: &str, steady: super::engine::Steady| Allocated {
            who: who.to_owned(),
            records: steady.records,
            count: Some(steady.allocations.count),
            bytes: Some(steady.allocations.bytes),
        };
        RunEntry {
            format: format.to_owned(),
            transport,
            speed: run.speed,
            first: run.first,
            end: run.end,
            sent: recorded.sent,
            received: recorded.received,
            duration_ns: recorded.duration_ns,
            max_backlog: recorded.max_backlog,
            latency: Some(encode_histogram(&recorded.latency)),
            busiest: recorded.busiest.as_ref().map(encode_histogram),
            sizes,
            allocations: vec![
                allocated("producer", recorded.producer),
                allocated("consumer", recorded.consumer),
            ],
            gc: None,
            error: recorded.error,
        }
    }
}
