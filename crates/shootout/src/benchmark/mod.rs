//! The harness: encode every record into one stream, decode the stream back
//! into the workload's aggregate, time each record, validate the aggregate.

pub mod alloc;
pub mod stats;
pub mod timer;

use std::marker::PhantomData;

use anyhow::{Context, Result, bail, ensure};

use crate::format::{Codec, Format, FormatInfo, Labels};
use crate::workload::{Dataset, Workload};
use stats::{RunStats, Samples};
use timer::Timer;

/// A format on workload `W`: one line of a registry. Either it can be
/// measured, or the registry says why not, and the results say so too.
pub struct Registered<W: Workload> {
    pub info: &'static FormatInfo,
    /// How the codec uses its library on `W`.
    pub labels: Labels,
    make: Result<MakeBench<W>, &'static str>,
}

type MakeBench<W> = fn() -> Box<dyn Bench<W>>;

impl<W: Workload> Registered<W> {
    pub fn of<C: Codec<W> + 'static>() -> Self {
        Registered {
            info: &C::INFO,
            labels: C::LABELS,
            make: Ok(|| Box::new(Runner::<W, C> { codec: C::new(), stream: Vec::new(), workload: PhantomData })),
        }
    }

    /// A format that cannot express workload `W`, and why.
    pub fn unsupported<F: Format>(reason: &'static str) -> Self {
        Registered { info: &F::INFO, labels: F::INFO.labels, make: Err(reason) }
    }

    /// Why this format does not run on `W`, if it does not.
    pub fn unsupported_reason(&self) -> Option<&'static str> {
        self.make.err()
    }
}

/// One run of one format: both directions plus the stream size.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub encode: RunStats,
    pub decode: RunStats,
    pub encoded_bytes: u64,
}

/// Object-safe face of a codec; the timed loops inside are monomorphized per codec.
pub trait Bench<W: Workload> {
    fn info(&self) -> &'static FormatInfo;
    /// Encodes and decodes every record once; fails if the aggregate is wrong.
    fn run(&mut self, dataset: &Dataset<W>, timer: &Timer) -> Result<Measurement>;
    /// The stream the last run encoded.
    fn stream(&self) -> &[u8];
}

struct Runner<W, C> {
    codec: C,
    /// Kept across runs so its growth happens once, in the warm-up.
    stream: Vec<u8>,
    workload: PhantomData<W>,
}

impl<W: Workload, C: Codec<W>> Bench<W> for Runner<W, C> {
    fn info(&self) -> &'static FormatInfo {
        &C::INFO
    }

    fn stream(&self) -> &[u8] {
        &self.stream
    }

    fn run(&mut self, dataset: &Dataset<W>, timer: &Timer) -> Result<Measurement> {
        let name = C::INFO.name;
        self.stream.clear();
        let mut encode = Samples::new();
        for (index, record) in dataset.operations().enumerate() {
            let allocations = alloc::snapshot();
            let start = timer.start();
            let outcome = self.codec.encode(record, &mut self.stream);
            let ns = timer.elapsed_ns(start);
            let allocations = alloc::snapshot() - allocations;
            outcome.with_context(|| format!("{name}: encoding record {index} failed"))?;
            encode.record(ns, allocations);
        }

        let stream = &self.stream[..];
        let mut sink = W::new_sink(&dataset.reference);
        let mut decode = Samples::new();
        let mut offset = 0;
        let mut decoded = 0usize;
        while offset < stream.len() {
            let allocations = alloc::snapshot();
            let start = timer.start();
            let outcome = self.codec.decode(&stream[offset..], &mut sink);
            let ns = timer.elapsed_ns(start);
            let allocations = alloc::snapshot() - allocations;
            let used = outcome.with_context(|| format!("{name}: decoding record {decoded} at stream byte {offset} failed"))?;
            ensure!(
                used > 0 && used <= stream.len() - offset,
                "{name}: decoding record {decoded} reported {used} bytes used at stream byte {offset} of {}",
                stream.len()
            );
            decode.record(ns, allocations);
            offset += used;
            decoded += 1;
        }
        ensure!(
            decoded == dataset.order.len(),
            "{name}: decoded {decoded} records from the stream, encoded {}",
            dataset.order.len()
        );
        let aggregate = W::finish(sink);
        if let Some(difference) = W::first_difference(&dataset.reference, &aggregate) {
            bail!("{name}: decoded data does not match the reference aggregate: {difference}");
        }
        let bytes = stream.len() as u64;
        Ok(Measurement { encode: encode.finish(bytes), decode: decode.finish(bytes), encoded_bytes: bytes })
    }
}

/// How many passes to make.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Settings {
    /// Unmeasured passes per format before the measured ones (validated all the same).
    pub warmup_runs: usize,
    pub runs: usize,
}

/// All measured runs of one format.
pub struct FormatRuns {
    pub info: &'static FormatInfo,
    pub labels: Labels,
    pub runs: Vec<Measurement>,
    /// The whole encoded stream compressed with zstd at [`ZSTD_LEVEL`].
    pub zstd_bytes: u64,
}

pub const ZSTD_LEVEL: i32 = 3;

/// Measures every format: warm-up passes, then `settings.runs` rounds in which
/// each format runs once, so slow drifts of the machine touch all formats alike.
/// `on_step` is called after every pass (for a progress bar).
pub fn measure<W: Workload>(
    dataset: &Dataset<W>,
    formats: &[Registered<W>],
    settings: Settings,
    timer: &Timer,
    mut on_step: impl FnMut(&str),
) -> Result<Vec<FormatRuns>> {
    ensure!(settings.runs > 0, "--runs must be at least 1");
    ensure!(!dataset.order.is_empty(), "{}: no records to benchmark", dataset.source);
    let runnable: Vec<&Registered<W>> = formats.iter().filter(|f| f.make.is_ok()).collect();
    let mut benches: Vec<Box<dyn Bench<W>>> = runnable.iter().filter_map(|f| f.make.ok()).map(|make| make()).collect();
    for bench in &mut benches {
        for _ in 0..settings.warmup_runs {
            bench.run(dataset, timer)?;
            on_step(bench.info().name);
        }
    }
    let mut results: Vec<FormatRuns> =
        runnable.iter().map(|f| FormatRuns { info: f.info, labels: f.labels, runs: Vec::new(), zstd_bytes: 0 }).collect();
    for _ in 0..settings.runs {
        for (bench, result) in benches.iter_mut().zip(&mut results) {
            result.runs.push(bench.run(dataset, timer)?);
            on_step(bench.info().name);
        }
    }
    for (bench, result) in benches.iter().zip(&mut results) {
        let compressed = zstd::bulk::compress(bench.stream(), ZSTD_LEVEL)
            .with_context(|| format!("{}: zstd compression of the stream failed", result.info.name))?;
        result.zstd_bytes = compressed.len() as u64;
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Access, Api, DecodeStyle, Format, Labels};
    use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, sample_dataset};

    /// Encodes only each record's message count and the first symbol's trades: decodes wrongly.
    struct Forgetful;

    impl Format for Forgetful {
        const INFO: FormatInfo = FormatInfo {
            name: "forgetful",
            family: "test",
            library: "none",
            labels: Labels { buffer_reuse: true, decode: DecodeStyle::Owned, access: Access::Validated, api: Api::Native, lossy: None },
            notes: "",
        };
    }

    impl Codec<Iex> for Forgetful {
        fn new() -> Self {
            Forgetful
        }
        fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
            let size = record.messages.iter().find_map(|m| match m.body {
                Body::Trade { size, .. } => Some(size),
                Body::LevelUpdate { .. } => None,
            });
            stream.extend_from_slice(&size.unwrap_or(0).to_le_bytes());
            Ok(())
        }
        fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
            let size = u32::from_le_bytes(stream[..4].try_into()?);
            if size > 0 {
                sink.trade(0, b"MSFT", 0, size);
            }
            Ok(4)
        }
    }

    #[test]
    fn a_format_that_decodes_wrongly_fails_the_run_naming_format_and_symbol() {
        let dataset = sample_dataset();
        let settings = Settings { warmup_runs: 0, runs: 1 };
        let error = measure(&dataset, &[Registered::of::<Forgetful>()], settings, &Timer::new(), |_| {})
            .err()
            .expect("validation must fail");
        let message = format!("{error:#}");
        assert!(message.starts_with("forgetful: decoded data does not match the reference aggregate"), "{message}");
        assert!(message.contains("symbol "), "{message}");
    }

    #[test]
    fn an_unsupported_format_is_reported_not_run() {
        let formats = [Registered::<Iex>::unsupported::<Forgetful>("cannot express it"), Registered::of::<crate::format::sbe::Sbe>()];
        assert_eq!(formats[0].unsupported_reason(), Some("cannot express it"));
        assert_eq!(formats[1].unsupported_reason(), None);
        let settings = Settings { warmup_runs: 0, runs: 1 };
        let runs = measure(&sample_dataset(), &formats, settings, &Timer::new(), |_| {}).unwrap();
        assert_eq!(runs.iter().map(|r| r.info.name).collect::<Vec<_>>(), ["sbe"]);
    }

    #[test]
    fn every_record_is_timed_once_per_direction() {
        let dataset = sample_dataset();
        let settings = Settings { warmup_runs: 1, runs: 3 };
        let mut steps = 0;
        let runs = measure(&dataset, &[Registered::of::<crate::format::sbe::Sbe>()], settings, &Timer::new(), |_| steps += 1)
            .unwrap();
        assert_eq!(steps, 4);
        assert_eq!(runs[0].runs.len(), 3);
        let records = dataset.order.len() as f64;
        for run in &runs[0].runs {
            for stats in [run.encode, run.decode] {
                assert!((stats.mean_ns * records - stats.total_ns as f64).abs() < 1e-6 * stats.total_ns as f64 + 1.0);
                assert!(stats.p50_ns <= stats.max_ns);
            }
        }
    }
}
