//! The harness. Each run is one pass over the input, window by window; in each
//! window every format, in a shuffled order, encodes the window into one reused
//! stream and decodes it back into its aggregate three times: a throughput pass
//! timed as a whole, a latency pass timed per record, an allocation pass. At
//! the end of the run every pass's aggregate is checked against the reference.

pub mod baseline;
pub mod counting;
mod document;
mod sample;
mod samples;
pub mod timer;
mod validation;

use std::hint::black_box;
use std::io::Write;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Result, anyhow, bail, ensure};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

pub use document::{RunContext, results};

use crate::alloc;
use crate::document::{Failure, RunInfo, RunStats, Sampled, Settings};
use crate::format::{Codec, Coding, Format, FormatInfo, Labels};
use crate::input::{Input, Scanned, Window};
use crate::workload::Workload;
use samples::Samples;
use timer::Timer;

/// A format on workload `W`: one line of a registry. Either it can be
/// measured, or the registry says why not, and the results say so too.
pub struct Registered<W: Workload> {
    pub info: &'static FormatInfo,
    /// How the codec uses its library on `W`.
    pub labels: Labels,
    make: Result<MakeBench<W>, String>,
    make_codec: Option<MakeCodec<W>>,
}

type MakeBench<W> = Arc<dyn Fn() -> Box<dyn Bench<W>> + Send + Sync>;
type MakeCodec<W> = Arc<dyn Fn() -> Box<dyn DynCodec<W>> + Send + Sync>;

/// A codec of `W` behind a pointer, for the untimed tools (interop,
/// robustness) that call one record at a time and need no monomorphized loop.
pub trait DynCodec<W: Workload> {
    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()>;
    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize>;
}

struct Dyn<C>(C);

impl<W: Workload, C: Coding<W>> DynCodec<W> for Dyn<C> {
    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        self.0.encode(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        self.0.decode(stream, sink)
    }
}

impl<W: Workload> Registered<W> {
    pub fn of<C: Codec<W> + 'static>() -> Self {
        Self::made_by(C::new)
    }

    /// A format whose codecs `make` makes: one that needs what the run read
    /// (a user's schema) to exist.
    pub fn made_by<C: Coding<W> + 'static>(
        make: impl Fn() -> C + Clone + Send + Sync + 'static,
    ) -> Self {
        let make_codec = make.clone();
        Registered {
            info: &C::INFO,
            labels: C::LABELS,
            make: Ok(Arc::new(move || {
                Box::new(Runner::<W, C> { codec: make(), workload: PhantomData })
            })),
            make_codec: Some(Arc::new(move || Box::new(Dyn(make_codec())))),
        }
    }

    /// A format that cannot express workload `W`, and why.
    pub fn unsupported<F: Format>(reason: impl Into<String>) -> Self {
        Registered {
            info: &F::INFO,
            labels: F::INFO.labels,
            make: Err(reason.into()),
            make_codec: None,
        }
    }

    /// A fresh codec, for a format that runs on `W`.
    pub fn codec(&self) -> Option<Box<dyn DynCodec<W>>> {
        self.make_codec.as_ref().map(|make| make())
    }

    /// Why this format does not run on `W`, if it does not.
    pub fn unsupported_reason(&self) -> Option<&str> {
        self.make.as_ref().err().map(String::as_str)
    }
}

pub const DEFAULT_RUNS: usize = 1;
pub const DEFAULT_THROUGHPUT_ROUNDS: usize = 6;
pub const DEFAULT_MIN_PROCESSES: usize = 3;
pub const DEFAULT_MAX_PROCESSES: usize = 30;
/// Seconds each format and direction may take on generated data: with the
/// Rust formats of today the README's first command stays under a minute.
pub const DEFAULT_SECONDS_PER_FORMAT_GENERATED: f64 = 0.7;
/// Seconds on an input the user gives: IEX's DEEP sample stays under two
/// minutes, with room for more processes than the generated sample gets.
pub const DEFAULT_SECONDS_PER_FORMAT_INPUT: f64 = 1.4;
/// Windows each process times of a larger input ([`sample`]): short
/// processes, so that many fit the time, and the interval over processes
/// rests on many.
pub const DEFAULT_SAMPLE_WINDOWS: usize = 4;
pub const ZSTD_LEVEL: i32 = 3;

/// One measured run of one format.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub encode: RunStats,
    pub decode: RunStats,
    /// Mean position of the format in the windows' shuffled order (0 = first).
    pub order_position: f64,
}

/// Everything measured of one format.
pub struct FormatRuns {
    pub info: &'static FormatInfo,
    pub labels: Labels,
    pub runs: Vec<Measurement>,
    /// The encoded stream's size, summed over windows (the first run's; every run encodes the same records).
    pub encoded_bytes: u64,
    /// The same streams fed, window by window, to one zstd compressor at
    /// [`ZSTD_LEVEL`]; on a large sampled input, the whole input's bytes at
    /// the ratio of the windows compressed ([`validation`]).
    pub zstd_bytes: u64,
    pub failure: Option<Failure>,
}

pub struct Measured<W: Workload> {
    pub formats: Vec<FormatRuns>,
    pub runs: Vec<RunInfo>,
    /// The first pass's findings: operations, input file, warnings, CSV size.
    pub scanned: Scanned<W>,
    /// The windows the timed passes ran on, when not every window.
    pub sampled: Option<Sampled>,
}

/// What the harness reports while it works.
pub enum Progress<'a> {
    /// The first pass over the input, no format yet: input bytes read, and the total when known.
    Scanning(u64, Option<u64>),
    /// `operations` more done in run `run` (0-based over warm-up and measured runs) of `runs`, by
    /// every format; `planned`: the operations of all runs together.
    Window { run: usize, runs: usize, operations: u64, planned: u64, warmup: bool, format: &'a str },
}

/// Object-safe face of a codec; the loops inside are monomorphized per codec.
pub trait Bench<W: Workload> {
    /// All three passes over one window; `stream` is shared by every format.
    fn window(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
        state: &mut RunState<W>,
        timer: &Timer,
    ) -> Result<(), WindowError>;

    /// One more throughput pass over the window (round `round`, from 1),
    /// decoding into that round's own sink.
    fn throughput_round(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
        state: &mut RunState<W>,
        timer: &Timer,
        round: usize,
    ) -> Result<(), WindowError>;

    /// The throughput pass alone, for its sizes and its check: the
    /// validation pass over the whole input that precedes a sample's runs.
    fn validation(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
        state: &mut RunState<W>,
        timer: &Timer,
    ) -> Result<(), WindowError>;

    /// Encodes the window into `stream` (cleared first), untimed: the pass
    /// [`counting`] counts the instructions of.
    fn encode_window(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
    ) -> Result<(), WindowError>;

    /// Decodes `stream`, a window of `records` records, into `sink`, untimed.
    fn decode_window(
        &mut self,
        stream: &[u8],
        records: usize,
        sink: &mut W::Sink,
    ) -> Result<(), WindowError>;
}

/// A failure inside a window, located by operation within it.
#[derive(Debug)]
pub struct WindowError {
    pub operation: Option<usize>,
    pub error: anyhow::Error,
}

impl WindowError {
    fn at(operation: usize, error: anyhow::Error) -> Self {
        WindowError { operation: Some(operation), error }
    }

    /// The failure of run `run`, whose window began at operation `first` of the input.
    fn into_failure<W: Workload>(self, input: &dyn Input<W>, run: usize, first: u64) -> Failure {
        let operation = self.operation.map(|i| first + i as u64);
        Failure {
            reason: format!("{:#}", self.error),
            run,
            operation,
            position: operation.map(|op| input.position(op)),
        }
    }
}

/// One format's accumulators for one run.
pub struct RunState<W: Workload> {
    /// The throughput, latency and allocation passes each decode into their own sink, each validated.
    sinks: [W::Sink; 3],
    /// The further throughput rounds' sinks (round 1 first), validated too.
    round_sinks: Vec<W::Sink>,
    encode: Samples,
    decode: Samples,
    encoded_bytes: u64,
    zstd: Option<zstd::stream::write::Encoder<'static, ByteCount>>,
    position_sum: u64,
    windows: u64,
}

/// Counts what zstd writes, keeping none of it.
#[derive(Default)]
struct ByteCount(u64);

impl Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const PASSES: [&str; 3] = ["throughput", "latency", "allocation"];

impl<W: Workload> RunState<W> {
    fn new(reference: &W::Aggregate, compress: bool, rounds: usize) -> Result<Self> {
        let zstd = if compress {
            Some(zstd::stream::write::Encoder::new(ByteCount::default(), ZSTD_LEVEL)?)
        } else {
            None
        };
        Ok(RunState {
            sinks: std::array::from_fn(|_| W::new_sink(reference)),
            round_sinks: (1..rounds).map(|_| W::new_sink(reference)).collect(),
            encode: Samples::new(rounds),
            decode: Samples::new(rounds),
            encoded_bytes: 0,
            zstd,
            position_sum: 0,
            windows: 0,
        })
    }

    /// Adds a window's encoded stream to the sizes.
    fn count_size(&mut self, stream: &[u8]) -> Result<(), WindowError> {
        self.encoded_bytes += stream.len() as u64;
        if let Some(zstd) = &mut self.zstd {
            zstd.write_all(stream)
                .map_err(|e| WindowError { operation: None, error: anyhow!("zstd: {e}") })?;
        }
        Ok(())
    }
}

struct Runner<W, C> {
    codec: C,
    workload: PhantomData<W>,
}

impl<W: Workload, C: Coding<W>> Runner<W, C> {
    /// Decodes the whole stream into `sink`, calling each decode through `call`
    /// (plain, timed or counted); the stream must hold exactly `expected` records.
    #[inline(always)]
    fn decode_stream(
        &mut self,
        stream: &[u8],
        sink: &mut W::Sink,
        expected: usize,
        mut call: impl FnMut(&mut C, &[u8], &mut W::Sink) -> Result<usize>,
    ) -> Result<(), WindowError> {
        let mut offset = 0;
        let mut decoded = 0;
        while offset < stream.len() {
            let used = call(&mut self.codec, &stream[offset..], sink).map_err(|e| {
                WindowError::at(
                    decoded,
                    e.context(format!("decoding the window's stream at byte {offset} failed")),
                )
            })?;
            if used == 0 || used > stream.len() - offset {
                return Err(WindowError::at(
                    decoded,
                    anyhow!(
                        "decode reported {used} bytes used at stream byte {offset} of {}",
                        stream.len()
                    ),
                ));
            }
            offset += used;
            decoded += 1;
        }
        if decoded != expected {
            return Err(WindowError {
                operation: None,
                error: anyhow!("decoded {decoded} records from a window of {expected}"),
            });
        }
        Ok(())
    }
}

impl<W: Workload, C: Coding<W>> Runner<W, C> {
    /// The throughput pass: each loop timed as a whole; black_box keeps the
    /// optimiser from specialising on the inputs or dropping the outputs.
    #[inline(always)]
    fn throughput(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
        sink: &mut W::Sink,
        [encode, decode]: [&mut Samples; 2],
        timer: &Timer,
        round: usize,
    ) -> Result<(), WindowError> {
        let (records, order) = (window.records, window.order);
        stream.clear();
        let start = timer.start();
        for (i, &r) in order.iter().enumerate() {
            self.codec
                .encode(black_box(&records[r as usize]), stream)
                .map_err(|e| WindowError::at(i, e.context("encoding failed")))?;
        }
        let ns = timer.elapsed_ns(start);
        encode.loop_ns += ns;
        encode.round_ns[round] += ns;
        black_box(&*stream);
        let start = timer.start();
        self.decode_stream(stream, sink, order.len(), |codec, bytes, sink| {
            codec.decode(black_box(bytes), sink)
        })?;
        let ns = timer.elapsed_ns(start);
        decode.loop_ns += ns;
        decode.round_ns[round] += ns;
        black_box(&*sink);
        for samples in [encode, decode] {
            samples.ops += order.len() as u64;
        }
        Ok(())
    }
}

impl<W: Workload, C: Coding<W>> Bench<W> for Runner<W, C> {
    fn validation(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
        state: &mut RunState<W>,
        timer: &Timer,
    ) -> Result<(), WindowError> {
        let sink = &mut state.sinks[0];
        self.throughput(window, stream, sink, [&mut state.encode, &mut state.decode], timer, 0)?;
        state.count_size(stream)
    }

    fn encode_window(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
    ) -> Result<(), WindowError> {
        stream.clear();
        for (i, &r) in window.order.iter().enumerate() {
            self.codec
                .encode(black_box(&window.records[r as usize]), stream)
                .map_err(|e| WindowError::at(i, e.context("encoding failed")))?;
        }
        black_box(&*stream);
        Ok(())
    }

    fn decode_window(
        &mut self,
        stream: &[u8],
        records: usize,
        sink: &mut W::Sink,
    ) -> Result<(), WindowError> {
        self.decode_stream(stream, sink, records, |codec, bytes, sink| {
            codec.decode(black_box(bytes), sink)
        })?;
        black_box(&*sink);
        Ok(())
    }

    fn throughput_round(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
        state: &mut RunState<W>,
        timer: &Timer,
        round: usize,
    ) -> Result<(), WindowError> {
        let sink = &mut state.round_sinks[round - 1];
        self.throughput(window, stream, sink, [&mut state.encode, &mut state.decode], timer, round)
    }

    fn window(
        &mut self,
        window: &Window<'_, W>,
        stream: &mut Vec<u8>,
        state: &mut RunState<W>,
        timer: &Timer,
    ) -> Result<(), WindowError> {
        let (records, order) = (window.records, window.order);
        self.validation(window, stream, state, timer)?;
        let [_, latency_sink, allocation_sink] = &mut state.sinks;

        // Latency: one fenced sample per record.
        let encode_error =
            |i: usize, e: anyhow::Error| WindowError::at(i, e.context("encoding failed"));
        stream.clear();
        for (i, &r) in order.iter().enumerate() {
            let start = timer.start();
            let outcome = self.codec.encode(black_box(&records[r as usize]), stream);
            let ns = timer.sample_ns(start);
            outcome.map_err(|e| encode_error(i, e))?;
            state.encode.latency.saturating_record(ns);
        }
        let latency = &mut state.decode.latency;
        self.decode_stream(stream, latency_sink, order.len(), |codec, bytes, sink| {
            let start = timer.start();
            let outcome = codec.decode(black_box(bytes), sink);
            latency.saturating_record(timer.sample_ns(start));
            outcome
        })?;

        // Allocations: counted over the whole loop, in their own pass.
        stream.clear();
        let counting = alloc::Counting::start();
        let before = alloc::snapshot();
        for (i, &r) in order.iter().enumerate() {
            self.codec
                .encode(black_box(&records[r as usize]), stream)
                .map_err(|e| encode_error(i, e))?;
        }
        let between = alloc::snapshot();
        let decoded =
            self.decode_stream(stream, allocation_sink, order.len(), |codec, bytes, sink| {
                codec.decode(bytes, sink)
            });
        let after = alloc::snapshot();
        drop(counting);
        decoded?;
        state.encode.allocations += between - before;
        state.decode.allocations += after - between;
        for samples in [&mut state.encode, &mut state.decode] {
            samples.allocation_ops += order.len() as u64;
        }
        Ok(())
    }
}

/// One timed pass over an input: every format on every window.
struct Pass<'i, W: Workload> {
    input: &'i dyn Input<W>,
    /// What every format must decode the pass's records to, and how many there are.
    reference: &'i W::Aggregate,
    operations: u64,
    warmup: bool,
}

/// Measures every runnable format. A format that fails is withheld from then
/// on, with its failure; the others go on. Errors are the input's, or the
/// harness's, never a format's. `first_process`: this process measures the
/// sizes and, when the timed passes run on a sample ([`sample`]), validates
/// every record of the input first ([`validation`]); it also feeds the streams
/// to zstd, which only one of a run's processes needs: the streams are the
/// same in every process.
pub fn measure<W: Workload>(
    input: &dyn Input<W>,
    formats: &[Registered<W>],
    settings: Settings,
    timer: &Timer,
    first_process: bool,
    mut on_progress: impl FnMut(Progress<'_>),
) -> Result<Measured<W>>
where
    W::Record: Clone,
{
    ensure!(settings.runs > 0, "--runs must be at least 1");
    ensure!(settings.window > 0, "--window must be at least 1");
    let (scanned, windows) = scan(input, settings.window, &mut on_progress)?;
    ensure!(scanned.operations > 0, "{}: no records to benchmark", input.name());
    let chosen = sample::stratified(windows, settings.sample_windows as u64);
    let sampled = match chosen.len() as u64 == windows {
        true => None,
        false => Some(sample::collect(input, settings.window, &chosen)?),
    };
    let timed = match &sampled {
        None => Pass {
            input,
            reference: &scanned.reference,
            operations: scanned.operations,
            warmup: false,
        },
        Some((memory, sampled)) => Pass {
            input: memory as &dyn Input<W>,
            reference: &memory.dataset.reference,
            operations: sampled.records,
            warmup: false,
        },
    };
    // With a sample, the first process passes over the whole input once,
    // validated, before its warm-ups: no record goes unchecked. It is run 0.
    let validating = sampled.is_some() && first_process;
    let first_timed_run = usize::from(validating);
    let passes: Vec<Pass<'_, W>> = (0..settings.warmup_runs)
        .map(|_| Pass { warmup: true, ..timed })
        .chain((0..settings.runs).map(|_| Pass { ..timed }))
        .collect();
    let all_runs = first_timed_run + passes.len();
    let planned: u64 = passes.iter().map(|p| p.operations).sum::<u64>()
        + if validating { scanned.operations } else { 0 };

    let runnable: Vec<&Registered<W>> = formats.iter().filter(|f| f.make.is_ok()).collect();
    let mut benches: Vec<Box<dyn Bench<W>>> =
        runnable.iter().filter_map(|f| f.make.as_ref().ok()).map(|make| make()).collect();
    let mut results: Vec<FormatRuns> = runnable
        .iter()
        .map(|f| FormatRuns {
            info: f.info,
            labels: f.labels,
            runs: Vec::new(),
            encoded_bytes: 0,
            zstd_bytes: 0,
            failure: None,
        })
        .collect();
    let mut stream = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.order_seed);
    let mut runs = Vec::new();
    if validating {
        let started = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        let wall = Instant::now();
        let whole = validation::Whole {
            input,
            reference: &scanned.reference,
            operations: scanned.operations,
            window: settings.window,
            windows,
            sampled: &chosen,
        };
        let makes: Vec<&MakeBench<W>> =
            runnable.iter().filter_map(|f| f.make.as_ref().ok()).collect();
        let found = validation::validate_whole(&whole, &makes, timer, |operations| {
            on_progress(Progress::Window {
                run: 0,
                runs: all_runs,
                operations,
                planned,
                warmup: true,
                format: "",
            })
        })?;
        for (result, found) in results.iter_mut().zip(found) {
            (result.encoded_bytes, result.zstd_bytes) = (found.encoded_bytes, found.zstd_bytes());
            result.failure = found.failure;
        }
        runs.push(RunInfo {
            process: 0,
            index: 0,
            warmup: true,
            started,
            wall_ms: wall.elapsed().as_secs_f64() * 1e3,
        });
    }
    if !passes[0].warmup {
        prime(
            timed.input,
            &mut benches,
            &mut results,
            &mut stream,
            timed.reference,
            settings.window,
            timer,
        )?;
    }

    for (i, pass) in passes.iter().enumerate() {
        let run = first_timed_run + i;
        let warmup = pass.warmup;
        // A warm-up run brings caches and allocators to their steady state; more rounds would add nothing.
        let rounds = if warmup { 1 } else { settings.throughput_rounds };
        let started = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        let wall = Instant::now();
        // Sizes are run 0's: in the first process, over the whole input.
        let compressed_sizes = run == 0 && first_process;
        let mut states: Vec<RunState<W>> = results
            .iter()
            .map(|_| RunState::new(pass.reference, compressed_sizes, rounds))
            .collect::<Result<_>>()?;
        let mut reader = pass.input.open()?;
        let mut done = 0u64;
        let mut order: Vec<usize> = (0..benches.len()).collect();
        while let Some(window) = reader.next_window(settings.window)? {
            order.shuffle(&mut rng);
            let mut position = 0;
            for &f in &order {
                if results[f].failure.is_some() {
                    continue;
                }
                let state = &mut states[f];
                state.position_sum += position;
                state.windows += 1;
                position += 1;
                if let Err(e) = benches[f].window(&window, &mut stream, state, timer) {
                    results[f].failure = Some(e.into_failure(pass.input, run, done));
                }
                on_progress(Progress::Window {
                    run,
                    runs: all_runs,
                    operations: 0,
                    planned,
                    warmup,
                    format: results[f].info.name,
                });
            }
            for round in 1..rounds {
                order.shuffle(&mut rng);
                for &f in &order {
                    if results[f].failure.is_some() {
                        continue;
                    }
                    if let Err(e) = benches[f].throughput_round(
                        &window,
                        &mut stream,
                        &mut states[f],
                        timer,
                        round,
                    ) {
                        results[f].failure = Some(e.into_failure(pass.input, run, done));
                    }
                }
            }
            done += window.order.len() as u64;
            on_progress(Progress::Window {
                run,
                runs: all_runs,
                operations: window.order.len() as u64,
                planned,
                warmup,
                format: "",
            });
        }
        let read = reader.finish()?;
        if W::first_difference(pass.reference, &read.reference).is_some()
            || read.operations != pass.operations
        {
            bail!(
                "{}: the input changed during the benchmark (run {run} read different records)",
                input.name()
            );
        }
        record_run(&mut results, states, pass.reference, run, warmup)?;
        runs.push(RunInfo {
            process: 0,
            index: run,
            warmup,
            started,
            wall_ms: wall.elapsed().as_secs_f64() * 1e3,
        });
    }
    let sampled = sampled.map(|(_, sampled)| sampled);
    Ok(Measured { formats: results, runs, scanned, sampled })
}

/// What run `run` found, added to each format's figures: its sinks checked
/// against the reference (a format that decoded wrongly is withheld from then
/// on), its sizes from the first run, its timings unless it was a warm-up.
fn record_run<W: Workload>(
    results: &mut [FormatRuns],
    states: Vec<RunState<W>>,
    reference: &W::Aggregate,
    run: usize,
    warmup: bool,
) -> Result<()> {
    for (result, state) in results.iter_mut().zip(states) {
        if result.failure.is_some() {
            continue;
        }
        if let Some(failure) = validate::<W>(state.sinks, state.round_sinks, false, reference, run)
        {
            result.failure = Some(failure);
            continue;
        }
        if run == 0 {
            result.encoded_bytes = state.encoded_bytes;
            if let Some(zstd) = state.zstd {
                result.zstd_bytes = zstd.finish()?.0;
            }
        }
        if !warmup {
            let (mut encode, mut decode) = (state.encode.finish(), state.decode.finish());
            if result.labels.uncounted_allocations.is_some() {
                // What the count saw is only part of it: no figure rather than a short one.
                for stats in [&mut encode, &mut decode] {
                    (stats.allocations_per_op, stats.allocated_bytes_per_op) = (None, None);
                }
            }
            result.runs.push(Measurement {
                encode,
                decode,
                order_position: state.position_sum as f64 / state.windows.max(1) as f64,
            });
        }
    }
    Ok(())
}

/// The first pass: no format, only the input, for its reference aggregate,
/// size and hash, and how many windows it holds.
fn scan<W: Workload>(
    input: &dyn Input<W>,
    window: usize,
    on_progress: &mut impl FnMut(Progress<'_>),
) -> Result<(Scanned<W>, u64)> {
    let mut reader = input.open()?;
    let mut windows = 0;
    while reader.next_window(window)?.is_some() {
        windows += 1;
        let (read, total) = reader.progress();
        on_progress(Progress::Scanning(read, total));
    }
    Ok((reader.finish()?, windows))
}

/// With no warm-up run, each format encodes and decodes the first window once,
/// unmeasured, so the first measured window does not pay for growing buffers.
fn prime<W: Workload>(
    input: &dyn Input<W>,
    benches: &mut [Box<dyn Bench<W>>],
    results: &mut [FormatRuns],
    stream: &mut Vec<u8>,
    reference: &W::Aggregate,
    window: usize,
    timer: &Timer,
) -> Result<()> {
    let mut reader = input.open()?;
    if let Some(first) = reader.next_window(window)? {
        for (bench, result) in benches.iter_mut().zip(results.iter_mut()) {
            let mut state = RunState::new(reference, false, 1)?;
            if let Err(e) = bench.window(&first, stream, &mut state, timer) {
                result.failure = Some(e.into_failure(input, 0, 0));
            }
        }
    }
    Ok(())
}

/// Checks each pass's aggregate against the reference.
/// `validation`: only the throughput pass ran (its sink is the first).
fn validate<W: Workload>(
    sinks: [W::Sink; 3],
    round_sinks: Vec<W::Sink>,
    validation: bool,
    reference: &W::Aggregate,
    run: usize,
) -> Option<Failure> {
    let passes = PASSES
        .iter()
        .take(if validation { 1 } else { PASSES.len() })
        .map(|pass| pass.to_string())
        .chain((1..=round_sinks.len()).map(|round| format!("throughput round {}", round + 1)));
    for (pass, sink) in passes.zip(sinks.into_iter().chain(round_sinks)) {
        if let Some(difference) = W::first_difference(reference, &W::finish(sink)) {
            return Some(Failure {
                reason: format!(
                    "decoded data does not match the reference aggregate ({pass} pass): {difference}"
                ),
                run,
                operation: None,
                position: None,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmark::baseline::Baseline;
    use crate::document::DEFAULT_PRECISION;
    use crate::format::{Family, Format, Framing, Labels};
    use crate::input::InMemory;
    use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, sample_dataset};

    /// Encodes only each record's message count and the first symbol's trades: decodes wrongly.
    struct Forgetful;

    impl Format for Forgetful {
        const INFO: FormatInfo = FormatInfo {
            name: "forgetful",
            family: Family::NotAFormat("test"),
            library: "none",
            labels: Labels::OWNED_NATIVE,
            notes: "",
            wire: None,
            framing: Framing::None,
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

    /// Cannot carry the largest sequence number (the sample's third record).
    struct Picky;

    impl Format for Picky {
        const INFO: FormatInfo = FormatInfo { name: "picky", ..Forgetful::INFO };
    }

    impl Codec<Iex> for Picky {
        fn new() -> Self {
            Picky
        }
        fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
            ensure!(record.seq_no != u64::MAX, "cannot carry seq_no {}", record.seq_no);
            Codec::encode(&mut <Baseline<Iex> as Codec<Iex>>::new(), record, stream)
        }
        fn decode(&mut self, _: &[u8], _: &mut Aggregator) -> Result<usize> {
            Ok(4)
        }
    }

    fn settings(warmup_runs: usize, runs: usize) -> Settings {
        Settings {
            warmup_runs,
            runs,
            throughput_rounds: 2,
            min_processes: 1,
            max_processes: 1,
            precision: DEFAULT_PRECISION,
            time_budget_ms: 0,
            window: 2,
            order_seed: 7,
            sample_windows: 0,
        }
    }

    fn measure_sample(formats: &[Registered<Iex>], settings: Settings) -> Measured<Iex> {
        measure(&sample(), formats, settings, &Timer::new(), true, |_| {}).unwrap()
    }

    fn sample() -> InMemory<Iex> {
        InMemory::generated(sample_dataset())
    }

    #[test]
    fn a_format_that_decodes_wrongly_is_withheld_naming_the_pass_and_the_difference() {
        let formats = [Registered::of::<Forgetful>(), Registered::of::<Baseline<Iex>>()];
        let measured = measure_sample(&formats, settings(0, 1));
        let failure = measured.formats[0].failure.as_ref().expect("validation must fail");
        assert!(
            failure.reason.starts_with(
                "decoded data does not match the reference aggregate (throughput pass)"
            ),
            "{failure:?}"
        );
        assert!(measured.formats[0].runs.is_empty());
        assert!(measured.formats[1].failure.is_none(), "the other format is still measured");
        assert_eq!(measured.formats[1].runs.len(), 1);
    }

    #[test]
    fn an_encode_error_names_the_operation_and_spares_the_other_formats() {
        let formats = [Registered::of::<Picky>(), Registered::of::<Baseline<Iex>>()];
        let measured = measure_sample(&formats, settings(1, 2));
        let failure = measured.formats[0].failure.as_ref().unwrap();
        assert_eq!(failure.operation, Some(2), "{failure:?}");
        assert_eq!(failure.position.as_deref(), Some("record 2"));
        assert!(failure.reason.contains("cannot carry seq_no"), "{failure:?}");
        assert_eq!(measured.formats[1].runs.len(), 2);
    }

    #[test]
    fn an_unsupported_format_is_reported_not_run() {
        let formats = [
            Registered::<Iex>::unsupported::<Forgetful>("cannot express it"),
            Registered::of::<crate::format::sbe::Sbe>(),
        ];
        assert_eq!(formats[0].unsupported_reason(), Some("cannot express it"));
        assert_eq!(formats[1].unsupported_reason(), None);
        let measured = measure_sample(&formats, settings(0, 1));
        assert_eq!(measured.formats.iter().map(|r| r.info.name).collect::<Vec<_>>(), ["sbe"]);
    }

    #[test]
    fn every_run_covers_every_record_in_every_pass() {
        let dataset = sample_dataset();
        let operations = dataset.order.len() as u64;
        let formats =
            [Registered::of::<crate::format::sbe::Sbe>(), Registered::of::<Baseline<Iex>>()];
        let mut windows = 0;
        let measured = measure(
            &InMemory::generated(dataset),
            &formats,
            settings(1, 3),
            &Timer::new(),
            true,
            |p| {
                if let Progress::Window { format: "", .. } = p {
                    windows += 1;
                }
            },
        )
        .unwrap();
        assert_eq!(windows, 4 * operations.div_ceil(2));
        assert_eq!(measured.runs.len(), 4);
        assert!(measured.runs[0].warmup && !measured.runs[1].warmup);
        for format in &measured.formats {
            assert!(format.failure.is_none(), "{:?}", format.failure);
            assert_eq!(format.runs.len(), 3);
            assert!(format.zstd_bytes > 0 && format.encoded_bytes > 0);
            for run in &format.runs {
                for stats in [&run.encode, &run.decode] {
                    // Each of the two throughput rounds times every record.
                    assert_eq!(stats.ops, 2 * operations);
                    assert!(stats.total_ns > 0);
                    assert!(stats.p50_ns <= stats.max_ns);
                }
                assert!((0.0..=1.0).contains(&run.order_position));
            }
        }
        let baseline = &measured.formats[1];
        assert_eq!(baseline.encoded_bytes, 4 * operations);
    }

    #[test]
    fn a_sample_is_timed_once_the_first_process_has_validated_every_record() {
        let operations = sample_dataset().order.len() as u64;
        let formats = [Registered::of::<Picky>(), Registered::of::<Baseline<Iex>>()];
        let one_window = Settings { sample_windows: 1, ..settings(1, 2) };
        let measured = measure_sample(&formats, one_window);
        // The pass over the whole input, then a warm-up and two measured runs on the sample.
        let warmup: Vec<bool> = measured.runs.iter().map(|r| r.warmup).collect();
        assert_eq!(warmup, [true, true, false, false]);
        let sampled = measured.sampled.expect("a sample");
        assert_eq!((sampled.windows, sampled.of_windows), (1, operations.div_ceil(2)));
        assert!(sampled.records <= 2, "{sampled:?}");
        // The record Picky cannot carry is found wherever the sample fell.
        assert_eq!(measured.formats[0].failure.as_ref().unwrap().operation, Some(2));
        let baseline = &measured.formats[1];
        assert_eq!(baseline.encoded_bytes, 4 * operations, "sizes are the whole input's");
        assert!(baseline.zstd_bytes > 0, "compressed at the sample's ratio");
        for run in &baseline.runs {
            assert_eq!(run.encode.ops, 2 * sampled.records, "two rounds over the sample");
        }
        // Another process times the same sample, with no pass over the whole input.
        let other = measure(&sample(), &formats, one_window, &Timer::new(), false, |_| {}).unwrap();
        assert_eq!(other.runs.len(), 3);
        assert_eq!(other.sampled, Some(sampled));
    }

    #[test]
    fn the_validation_pass_finds_each_formats_failure_whichever_thread_ran_it() {
        let operations = sample_dataset().order.len() as u64;
        // On two cores or more, Picky runs in a thread of its own.
        let formats = [
            Registered::of::<Baseline<Iex>>(),
            Registered::of::<Picky>(),
            Registered::of::<Forgetful>(),
        ];
        let measured = measure_sample(&formats, Settings { sample_windows: 1, ..settings(0, 1) });
        let [baseline, picky, forgetful] = &measured.formats[..] else { panic!("three formats") };
        assert!(baseline.failure.is_none(), "{:?}", baseline.failure);
        assert_eq!(baseline.encoded_bytes, 4 * operations);
        assert_eq!(picky.failure.as_ref().unwrap().operation, Some(2));
        let reason = &forgetful.failure.as_ref().unwrap().reason;
        assert!(reason.contains("(throughput pass)"), "{reason}");
        assert_eq!(measured.runs[0].index, 0);
        assert!(measured.runs[0].warmup, "the validation pass is run 0, untimed");
    }

    #[test]
    fn a_process_makes_exactly_its_warm_up_and_measured_runs() {
        let formats =
            [Registered::of::<crate::format::sbe::Sbe>(), Registered::of::<Baseline<Iex>>()];
        let measured = measure_sample(&formats, settings(1, 4));
        let warmup: Vec<bool> = measured.runs.iter().map(|r| r.warmup).collect();
        assert_eq!(warmup, [true, false, false, false, false]);
        assert!(measured.formats.iter().all(|f| f.runs.len() == 4));
    }
}
