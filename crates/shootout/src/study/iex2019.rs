//! The 2019 "Binary Format Shootout" (`000_…txt`): Cap'n Proto packed and
//! unpacked, FlatBuffers and SBE on IEX DEEP, each message timed on its own.
//!
//! The study's method, kept: one `Instant::now()` before and after each
//! message's serialize (into a buffer allocated before) and each message's
//! read-and-aggregate; every duration into an HdrHistogram of 2 significant
//! figures and into a sum; per run the median, 99th and 99.9th percentile and
//! the sum; the figure reported is the mean of those over the runs. Reads go
//! through the study's readers: FlatBuffers without a verifier (its
//! flatbuffers 0.6 had none), Cap'n Proto allocating for every message (as
//! its document says). Beside it, on the same records in the same pass, each
//! labelled: the project's readers on the study's clock (FlatBuffers
//! verified, Cap'n Proto reading in place with no allocation); the project's
//! clock, fenced TSC reads with the clock's own cost subtracted
//! (`benchmark::timer`), with per-size tables for the study's open question;
//! and an untimed pass counting each format's allocations, for the claims the
//! document makes about them.

use std::fmt::Write;
use std::time::Instant;

use anyhow::{Result, bail};
use hdrhistogram::Histogram;
use serde_json::{Map, json};

use super::decide::{self, Figure, Outcome};
use super::figures::{Figures, STUDY_VARIANT, Table, Variant};
use super::published::{Column, Published, Row};
use super::render::number;
use super::{Answer, Check, Options, Verdict};
use crate::alloc;
use crate::benchmark::{DynCodec, timer::Timer};
use crate::catalog::registry;
use crate::environment::Environment;
use crate::format::{DecodeStyle, capnp};
use crate::input::ingest::Capture;
use crate::input::{Input, Source};
use crate::workload::Workload;
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

/// One of the study's four formats: the project's codec, the study's row
/// label, and how the study's harness read the bytes.
struct Studied {
    name: &'static str,
    label: &'static str,
    reader: StudyReader,
}

/// How the study's harness read a format's bytes.
#[derive(Clone, Copy)]
enum StudyReader {
    /// As the project's codec reads them.
    TheCodec,
    /// Through another registered format's reader of the same bytes.
    Format(&'static str),
    /// Through Cap'n Proto's allocating reads (`capnp::read_iex_allocating`).
    CapnpAllocating { packed: bool },
}

/// The study's four, in the order it ran them.
const FORMATS: [Studied; 4] = [
    Studied {
        name: "capnp-unpacked",
        label: "Cap'n Proto Unpacked",
        reader: StudyReader::CapnpAllocating { packed: false },
    },
    Studied {
        name: "capnp-packed",
        label: "Cap'n Proto Packed",
        reader: StudyReader::CapnpAllocating { packed: true },
    },
    Studied {
        name: "flatbuffers",
        label: "Flatbuffers",
        reader: StudyReader::Format("flatbuffers-unchecked"),
    },
    Studied { name: "sbe", label: "SBE", reader: StudyReader::TheCodec },
];

/// Messages per packet, the buckets of the size tables: (smallest, largest).
const SIZE_BUCKETS: [(usize, usize); 6] =
    [(1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, usize::MAX)];

/// Records per window: each format's stream holds one window, so memory stays
/// bounded on a day-long capture (the study held the whole day's output).
const WINDOW: usize = 65_536;

const DIRECTIONS: [&str; 2] = ["serialize", "deserialize"];

/// The study's: "the average of 10 runs".
const RUNS: usize = 10;

/// The variant of the project's readers on the study's clock.
const PROJECT_READERS: &str = "project-readers";

/// The study's percentiles, as the keys of its tables.
const PERCENTILES: [(f64, &str); 3] = [(0.5, "p50_ns"), (0.99, "p99_ns"), (0.999, "p999_ns")];

/// Durations on one clock: their histogram and their sum.
#[derive(Clone)]
struct Clocked {
    histogram: Histogram<u64>,
    total_ns: u128,
}

impl Clocked {
    fn new() -> Clocked {
        Clocked { histogram: new_histogram(), total_ns: 0 }
    }

    fn record(&mut self, ns: u64) {
        self.histogram.saturating_record(ns);
        self.total_ns += u128::from(ns);
    }
}

/// One direction of one format in one run.
struct Timings {
    /// As the study: `Instant` around each message, through the study's reader.
    study: Clocked,
    /// Fenced TSC, clock cost subtracted, per size bucket, through the project's codec.
    fenced: Vec<Histogram<u64>>,
    fenced_total_ns: u128,
    /// Encoded bytes per size bucket.
    bytes: Vec<u64>,
}

impl Timings {
    fn new() -> Timings {
        Timings {
            study: Clocked::new(),
            fenced: SIZE_BUCKETS.iter().map(|_| new_histogram()).collect(),
            fenced_total_ns: 0,
            bytes: vec![0; SIZE_BUCKETS.len()],
        }
    }

    fn fenced_all(&self) -> Histogram<u64> {
        let mut all = new_histogram();
        for h in &self.fenced {
            all.add(h).expect("same precision");
        }
        all
    }
}

/// One run of one format.
struct Run {
    /// Serialize, then deserialize.
    directions: [Timings; 2],
    /// Deserialize through the project's codec on the study's clock, where
    /// the study's reader is another.
    project_reader: Clocked,
}

/// As the study's: 2 significant figures; up to an hour, so no message's time is clamped.
fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000_000, 2).expect("valid bounds")
}

fn bucket(messages: usize) -> usize {
    SIZE_BUCKETS.iter().position(|&(lo, hi)| (lo..=hi).contains(&messages)).unwrap_or(0)
}

/// A reader of the study's other than the project's codec.
enum Reader {
    Codec(Box<dyn DynCodec<Iex>>),
    CapnpAllocating { packed: bool },
}

impl Reader {
    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        match self {
            Reader::Codec(codec) => codec.decode(stream, sink),
            Reader::CapnpAllocating { packed } => capnp::read_iex_allocating(stream, *packed, sink),
        }
    }
}

/// Allocations per packet, from the untimed counting pass.
#[derive(Clone, Copy, Default)]
struct Allocations {
    encode: f64,
    /// Through the study's reader.
    study_read: f64,
    /// Through the project's codec.
    project_read: f64,
}

/// One format's codec, its study reader, and what its runs measured.
struct Contender {
    studied: &'static Studied,
    codec: Box<dyn DynCodec<Iex>>,
    /// The study's reader, where it is not the codec's own.
    study_reader: Option<Reader>,
    /// Whether the study's reader reads fields in place (its labels).
    study_reader_zero_copy: bool,
    runs: Vec<Run>,
    allocations: Allocations,
    failure: Option<String>,
}

impl Contender {
    /// Reads one message through the study's reader.
    fn study_decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        match &mut self.study_reader {
            Some(reader) => reader.decode(stream, sink),
            None => self.codec.decode(stream, sink),
        }
    }
}

pub fn measure(options: &Options) -> Result<Figures> {
    let source = match &options.input {
        Some(path) if path.as_os_str() == "-" => {
            bail!("--input -: the study reads its input once per run; give a file")
        }
        Some(path) => Source::File(path.clone()),
        None => bail!(
            "study iex-2019 needs --input: an IEX DEEP capture (the study used a full day; ../shared/data/iex/DEEP10.pcap.gz is IEX's sample)"
        ),
    };
    let input = Capture { source };
    let scanned = crate::dataset::scan(&input)?;
    let mut names: Vec<String> = FORMATS.iter().map(|f| f.name.to_owned()).collect();
    names.extend(FORMATS.iter().filter_map(|f| match f.reader {
        StudyReader::Format(name) => Some(name.to_owned()),
        _ => None,
    }));
    let registered = registry::select(registry::iex(), &names)?;
    let format = |name: &str| registered.iter().find(|f| f.info.name == name).expect("selected");
    let mut contenders: Vec<Contender> = FORMATS
        .iter()
        .map(|studied| {
            let codec = format(studied.name).codec().expect("the study's formats all run on iex");
            let (study_reader, labels) = match studied.reader {
                StudyReader::TheCodec => (None, format(studied.name).labels),
                StudyReader::Format(name) => (
                    Some(Reader::Codec(format(name).codec().expect("runs on iex"))),
                    format(name).labels,
                ),
                StudyReader::CapnpAllocating { packed } => {
                    (Some(Reader::CapnpAllocating { packed }), format(studied.name).labels)
                }
            };
            Contender {
                studied,
                codec,
                study_reader,
                study_reader_zero_copy: matches!(labels.decode, DecodeStyle::ZeroCopy),
                runs: Vec::new(),
                allocations: Allocations::default(),
                failure: None,
            }
        })
        .collect();
    let timer = Timer::new();
    let runs = options.runs.unwrap_or(if options.quick { 1 } else { RUNS });
    let mut stream = Vec::with_capacity(WINDOW * 256);
    let mut ends = Vec::with_capacity(WINDOW);
    for run in 0..runs {
        eprintln!("study iex-2019: run {} of {runs}", run + 1);
        for contender in &mut contenders {
            contender.runs.push(Run {
                directions: [Timings::new(), Timings::new()],
                project_reader: Clocked::new(),
            });
        }
        // Per format: the study's readers' aggregate, then the project's.
        let mut sinks: Vec<[Aggregator; 2]> = contenders
            .iter()
            .map(|_| [Iex::new_sink(&scanned.reference), Iex::new_sink(&scanned.reference)])
            .collect();
        let mut reader = input.open()?;
        while let Some(window) = reader.next_window(WINDOW)? {
            for (contender, sinks) in contenders.iter_mut().zip(&mut sinks) {
                if contender.failure.is_some() {
                    continue;
                }
                let records = window.order.iter().map(|&i| &window.records[i as usize]);
                if let Err(e) =
                    time_window(contender, records, sinks, &timer, &mut stream, &mut ends)
                {
                    contender.failure = Some(format!("run {}: {e:#}", run + 1));
                }
            }
        }
        reader.finish()?;
        for (contender, sinks) in contenders.iter_mut().zip(sinks) {
            for (whose, sink) in ["the study's reader", "the project's reader"].iter().zip(sinks) {
                if contender.failure.is_none()
                    && let Some(difference) =
                        Iex::first_difference(&scanned.reference, &Iex::finish(sink))
                {
                    contender.failure = Some(format!(
                        "run {}: {whose} decoded wrong values: {difference}",
                        run + 1
                    ));
                }
            }
        }
    }
    eprintln!("study iex-2019: counting allocations (an untimed pass)");
    count_allocations(&mut contenders, &input, &scanned.reference, scanned.operations)?;
    Ok(figures(&contenders, &timer, scanned.operations, scanned.file, runs, Environment::capture()))
}

/// Serializes one window message by message into `stream`, then reads it back
/// message by message, timing each: on the study's clock, serialize, then
/// deserialize through the study's reader into `sinks[0]` (and through the
/// project's codec, where that is another reader); on the fenced clock,
/// serialize and deserialize through the project's codec into `sinks[1]`.
fn time_window<'r>(
    contender: &mut Contender,
    records: impl Iterator<Item = &'r MultiMessage> + Clone,
    sinks: &mut [Aggregator; 2],
    timer: &Timer,
    stream: &mut Vec<u8>,
    ends: &mut Vec<(usize, usize)>,
) -> Result<()> {
    let mut run = contender.runs.pop().expect("a run was pushed");
    let outcome = time_window_into(contender, &mut run, records, sinks, timer, stream, ends);
    contender.runs.push(run);
    outcome
}

fn time_window_into<'r>(
    contender: &mut Contender,
    run: &mut Run,
    records: impl Iterator<Item = &'r MultiMessage> + Clone,
    [study_sink, project_sink]: &mut [Aggregator; 2],
    timer: &Timer,
    stream: &mut Vec<u8>,
    ends: &mut Vec<(usize, usize)>,
) -> Result<()> {
    let [serialize, deserialize] = &mut run.directions;
    // The study's clock.
    stream.clear();
    ends.clear();
    for record in records.clone() {
        let start = Instant::now();
        contender.codec.encode(record, stream)?;
        serialize.study.record(start.elapsed().as_nanos() as u64);
        ends.push((stream.len(), bucket(record.messages.len())));
    }
    let mut offset = 0;
    for &(end, _) in ends.iter() {
        let start = Instant::now();
        let used = contender.study_decode(&stream[offset..], study_sink)?;
        deserialize.study.record(start.elapsed().as_nanos() as u64);
        check_used(offset, used, end)?;
        offset = end;
    }
    if contender.study_reader.is_some() {
        let mut scratch = Iex::new_sink(&Default::default());
        let mut offset = 0;
        for &(end, _) in ends.iter() {
            let start = Instant::now();
            let used = contender.codec.decode(&stream[offset..], &mut scratch)?;
            run.project_reader.record(start.elapsed().as_nanos() as u64);
            check_used(offset, used, end)?;
            offset = end;
        }
    }
    // The fenced clock, cost subtracted, through the project's codec.
    stream.clear();
    let mut start_of = 0;
    for (record, &(_, size)) in records.zip(ends.iter()) {
        let start = timer.start();
        contender.codec.encode(record, stream)?;
        let ns = timer.sample_ns(start);
        serialize.fenced[size].saturating_record(ns);
        serialize.fenced_total_ns += u128::from(ns);
        serialize.bytes[size] += (stream.len() - start_of) as u64;
        start_of = stream.len();
    }
    let mut offset = 0;
    for &(end, size) in ends.iter() {
        let start = timer.start();
        let used = contender.codec.decode(&stream[offset..], project_sink)?;
        let ns = timer.sample_ns(start);
        deserialize.fenced[size].saturating_record(ns);
        deserialize.fenced_total_ns += u128::from(ns);
        deserialize.bytes[size] += (end - offset) as u64;
        check_used(offset, used, end)?;
        offset = end;
    }
    Ok(())
}

fn check_used(offset: usize, used: usize, end: usize) -> Result<()> {
    if offset + used != end {
        bail!(
            "a message read {used} bytes at byte {offset}, its encoding was {} bytes",
            end - offset
        );
    }
    Ok(())
}

/// Allocations per packet of each format's encode, study read and project
/// read, counted in one more pass over the input, untimed. The codecs are
/// warm from the runs; each window is encoded and read once uncounted first,
/// so the stream's growth and the aggregate's first sight of a symbol, which
/// are neither format's, stay out of the counts.
fn count_allocations(
    contenders: &mut [Contender],
    input: &Capture,
    reference: &crate::workload::iex::Aggregate,
    packets: u64,
) -> Result<()> {
    let mut reader = input.open()?;
    let mut stream = Vec::with_capacity(WINDOW * 256);
    let mut sinks: Vec<Aggregator> = contenders.iter().map(|_| Iex::new_sink(reference)).collect();
    let mut counts = vec![[0u64; 3]; contenders.len()];
    while let Some(window) = reader.next_window(WINDOW)? {
        let records: Vec<&MultiMessage> =
            window.order.iter().map(|&i| &window.records[i as usize]).collect();
        for ((contender, sink), counts) in contenders.iter_mut().zip(&mut sinks).zip(&mut counts) {
            if contender.failure.is_some() {
                continue;
            }
            stream.clear();
            for record in &records {
                contender.codec.encode(record, &mut stream)?;
            }
            read_all(&stream, |s| contender.codec.decode(s, sink))?;
            stream.clear();
            counts[0] += counted(|| {
                records.iter().try_for_each(|r| contender.codec.encode(r, &mut stream))
            })?;
            counts[1] += counted(|| read_all(&stream, |s| contender.study_decode(s, sink)))?;
            counts[2] += counted(|| read_all(&stream, |s| contender.codec.decode(s, sink)))?;
        }
    }
    reader.finish()?;
    let per_packet = |count: u64| count as f64 / packets.max(1) as f64;
    for (contender, [encode, study_read, project_read]) in contenders.iter_mut().zip(counts) {
        contender.allocations = Allocations {
            encode: per_packet(encode),
            study_read: per_packet(study_read),
            project_read: per_packet(project_read),
        };
    }
    Ok(())
}

/// Reads every message of `stream` with `decode`.
fn read_all(stream: &[u8], mut decode: impl FnMut(&[u8]) -> Result<usize>) -> Result<()> {
    let mut offset = 0;
    while offset < stream.len() {
        offset += decode(&stream[offset..])?;
    }
    Ok(())
}

/// How many allocations this thread made in `pass`.
fn counted(pass: impl FnOnce() -> Result<()>) -> Result<u64> {
    let _counting = alloc::Counting::start();
    let before = alloc::snapshot();
    pass()?;
    Ok((alloc::snapshot() - before).count)
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() { 0.0 } else { values.iter().sum::<f64>() / values.len() as f64 }
}

/// The mean over runs of each run's percentiles and total, as the study
/// reported, with each run's own figures beside for the intervals; and our
/// mean per packet, which compares where totals of other inputs cannot.
fn percentile_row(label: &str, runs: &[Clocked], packets: u64) -> Row {
    let mut row = Row::new(label, json!({}));
    for (q, key) in PERCENTILES {
        let per_run: Vec<f64> =
            runs.iter().map(|c| c.histogram.value_at_quantile(q) as f64).collect();
        row.values.insert(key.into(), mean(&per_run).into());
        row.runs.insert(key.into(), per_run);
    }
    let totals: Vec<f64> = runs.iter().map(|c| c.total_ns as f64).collect();
    row.values.insert("total_s".into(), (mean(&totals) / 1e9).into());
    row.values.insert("mean_ns".into(), (mean(&totals) / packets.max(1) as f64).into());
    row
}

/// Our column the study's tables lack.
fn mean_column() -> Column {
    Column::new("mean_ns", "Mean per packet", "ns")
}

fn figures(
    contenders: &[Contender],
    timer: &Timer,
    packets: u64,
    file: Option<crate::document::InputFile>,
    runs: usize,
    environment: Environment,
) -> Figures {
    let measured: Vec<&Contender> = contenders.iter().filter(|c| c.failure.is_none()).collect();
    // One row per format: each run's durations, on one clock, through one reader.
    let percentile_table = |id: &str,
                            title: Option<String>,
                            rows: &[&Contender],
                            clocked: &dyn Fn(&Run) -> Clocked| {
        Table {
            id: id.to_owned(),
            title,
            columns: vec![mean_column()],
            rows: rows
                .iter()
                .map(|c| {
                    let runs: Vec<Clocked> = c.runs.iter().map(clocked).collect();
                    percentile_row(c.studied.label, &runs, packets)
                })
                .collect(),
        }
    };
    let study_table = |direction: usize| {
        percentile_table(DIRECTIONS[direction], None, &measured, &|r| {
            r.directions[direction].study.clone()
        })
    };
    let with_two_readers: Vec<&Contender> =
        measured.iter().copied().filter(|c| c.study_reader.is_some()).collect();
    let project_readers = percentile_table(
        DIRECTIONS[1],
        Some(
            "Deserialization through the project's readers, on the study's clock (SBE's one reader is in the study's variant)"
                .into(),
        ),
        &with_two_readers,
        &|r| r.project_reader.clone(),
    );
    let fenced_table = |direction: usize| {
        percentile_table(DIRECTIONS[direction], None, &measured, &|r| Clocked {
            histogram: r.directions[direction].fenced_all(),
            total_ns: r.directions[direction].fenced_total_ns,
        })
    };
    let by_size = |direction: usize| Table {
        id: format!("by-size-{}", DIRECTIONS[direction]),
        title: Some(format!(
            "{} by messages per packet (fenced clock, the project's codecs, all runs together)",
            if direction == 0 { "Serialization" } else { "Deserialization" }
        )),
        columns: Vec::new(),
        rows: measured
            .iter()
            .flat_map(|c| {
                SIZE_BUCKETS.iter().enumerate().filter_map(move |(b, &(lo, hi))| {
                    let mut all = new_histogram();
                    let mut bytes = 0;
                    for run in &c.runs {
                        all.add(&run.directions[direction].fenced[b]).expect("same precision");
                        bytes += run.directions[direction].bytes[b];
                    }
                    (!all.is_empty()).then(|| {
                        let span = match (lo, hi) {
                            (lo, usize::MAX) => format!("{lo}+"),
                            (lo, hi) if lo == hi => lo.to_string(),
                            (lo, hi) => format!("{lo}-{hi}"),
                        };
                        Row::new(
                            &format!("{} · {span} msg", c.studied.label),
                            json!({
                                "packets": all.len() / c.runs.len() as u64,
                                "bytes_mean": bytes as f64 / all.len() as f64,
                                "p50_ns": all.value_at_quantile(0.5),
                                "p99_ns": all.value_at_quantile(0.99),
                                "p999_ns": all.value_at_quantile(0.999),
                            }),
                        )
                    })
                })
            })
            .collect(),
    };
    let allocations = Table {
        id: "allocations".into(),
        title: Some("Allocations per packet (an untimed pass after the runs)".into()),
        columns: [
            ("encode", "serialize"),
            ("study_read", "deserialize, the study's reader"),
            ("project_read", "deserialize, the project's reader"),
            ("study_reads_in_place", "the study's reader reads fields in place (its labels)"),
        ]
        .into_iter()
        .map(|(key, title)| Column::new(key, title, ""))
        .collect(),
        rows: measured
            .iter()
            .map(|c| {
                let a = c.allocations;
                Row::new(
                    c.studied.label,
                    json!({
                        "encode": a.encode,
                        "study_read": a.study_read,
                        "project_read": a.project_read,
                        "study_reads_in_place": if c.study_reader_zero_copy { "yes" } else { "no" },
                    }),
                )
            })
            .collect(),
    };
    let mut facts = Map::new();
    facts.insert("packets".into(), packets.into());
    facts.insert("runs".into(), runs.into());
    facts.insert("clock_flag_below_ns".into(), timer.calibration.flag_below_ns.into());
    let mut departures = departures(file.as_ref(), packets, &environment);
    for c in contenders.iter().filter(|c| c.failure.is_some()) {
        departures.push(format!(
            "{} is not in the tables: {}",
            c.studied.name,
            c.failure.as_deref().unwrap_or_default()
        ));
    }
    Figures {
        schema: super::figures::SCHEMA.into(),
        study: "iex-2019".into(),
        language: "rust".into(),
        environment: json!({ "machine": environment, "clock": timer.calibration, "input": file }),
        variants: vec![
            Variant {
                id: STUDY_VARIANT.into(),
                title: "as the study did: Instant::now() around each message; the study's readers (FlatBuffers unverified, Cap'n Proto reads allocating)".into(),
                tables: vec![study_table(0), study_table(1), allocations],
            },
            Variant {
                id: PROJECT_READERS.into(),
                title: "the study's clock, the project's readers: FlatBuffers verified (size_prefixed_root), Cap'n Proto read in place with no allocation (the same records, the same pass)".into(),
                tables: vec![project_readers],
            },
            Variant {
                id: "fenced".into(),
                title: "shootout's clock: fenced TSC reads, their own cost subtracted, through the project's codecs (the same records, the same pass)".into(),
                tables: vec![fenced_table(0), fenced_table(1), by_size(0), by_size(1)],
            },
        ],
        facts,
        departures,
    }
}

/// Every difference from the document, in its words where it has them.
fn departures(
    file: Option<&crate::document::InputFile>,
    packets: u64,
    environment: &Environment,
) -> Vec<String> {
    vec![
        format!(
            "Input: {} ({packets} packets with a trade or price-level update, each run); the study used a full trading day of DEEP 1.0 (its repository's raw results hold four days): a sample or another day gives other counts and tails, and totals that do not compare (the Total column gives no ratio; our mean per packet is beside it).",
            file.map_or("the capture given".into(), |f| format!("{} (sha256 {})", f.path, f.sha256)),
        ),
        "Packets with no trade or price-level update are left out of both tables; the study timed their serialize too (Cap'n Proto wrote nothing for them, FlatBuffers and SBE an empty MultiMessage).".into(),
        format!("Memory: each format serializes a window of {WINDOW} packets, then reads it back, and the formats take turns window by window; the study serialized the whole day into one buffer per format, then read it all, one format after another."),
        "FlatBuffers reads: the study's flatbuffers 0.6 read each message with get_size_prefixed_root, which had no verifier; the study's variant reads with today's unchecked size_prefixed_root_unchecked (the format flatbuffers-unchecked), the project's own reader verifies every buffer first (size_prefixed_root) and is timed beside it, variant project-readers.".into(),
        "Cap'n Proto reads: the study's allocated for every message, as its document says (\"Cap'n Proto allocates a new buffer for each message we unpack\"; unpacked, \"we allocate a vector on every read for the segment table\"); the study's variant does the same with today's capnp (serialize_packed::read_message, read_message_from_flat_slice), the project's readers allocate nothing (read_message_no_alloc into a reused buffer, read_message_from_flat_slice_no_alloc) and are timed beside it, variant project-readers.".into(),
        "Schemas (schemas/iex/): FlatBuffers keeps each body's scalars in a struct inside the union's table (the study's tables held them as fields) and has a MultiMessage root table with the packet's sequence number; SBE writes the symbol as a fixed char[8] (the study: a variable-length ASCII string after the group's fields) and merges the trade and the quote into one set of fields with a body type (the study: a trade composite and a quote composite side by side, with a message type); Cap'n Proto's schema has the same fields as the study's.".into(),
        "The aggregate read into: the study's Summarizer hashed each symbol with std's SipHash into a HashMap of trade volume and bid/ask highs and lows; ours keys an FxHashMap by the symbol packed into an integer and folds every field (trades, volumes, price and size sums, flags, timestamps, highs and lows), so every read does somewhat more work than the study's, the same for each format.".into(),
        "Libraries: today's crates (capnp, flatbuffers, the SBE Rust generator of sbe-tool 1.38), not the study's 2019 versions; Cap'n Proto builds into a reused buffer with the library's public API (the study needed a transmute); SBE writes each message straight into the stream, back to back with no framing (messages delimit themselves, as in the study's runner), where the study built each message in a scratch buffer and copied it out; FlatBuffers adds its documented u32 size prefix, as the study did.".into(),
        "Dispatch: each call goes through the harness's codec trait object (one indirect call per message); the study called each runner's methods through generics.".into(),
        "Statistic: as the study, the mean over runs of each run's percentiles (HdrHistogram, 2 significant figures) and of each run's sum of per-message times; the study's tables also mix several pinning modes (its run script), which the document does not say. Each comparison is decided by the 95 % Student-t interval of the runs' figures (stats::estimate over the runs), and a tail only where each run has 10 packets or more beyond its percentile.".into(),
        "Allocations are counted in one more pass after the runs, untimed, with the counting allocator; the study counted none.".into(),
        format!("Machine: {} ({} cores); the study's is not stated.", environment.cpu, environment.cores),
    ]
}

/// Each run must have this many packets beyond a percentile for a tail to
/// decide a comparison: with fewer, the percentile is one of a handful of
/// packets that another run, or another day, replaces.
const FEWEST_BEYOND_A_TAIL: f64 = 10.0;

/// Packets beyond the tail percentile of `key` in a run of `packets` (none
/// for the median, which half the packets decide).
fn beyond(key: &str, packets: f64) -> Option<f64> {
    PERCENTILES.iter().find(|(q, k)| *k == key && *q > 0.5).map(|(q, _)| packets * (1.0 - q))
}

/// What a percentile of a run rests on: `2767 packets a run, 2.8 beyond p99.9`.
fn samples(key: &str, what: &str, packets: f64) -> String {
    match beyond(key, packets) {
        Some(beyond) => format!("{packets:.0} packets a run, {beyond:.1} beyond the {what}"),
        None => format!("{packets:.0} packets a run"),
    }
}

/// A row's figure of `key` with the interval of its runs; none for a
/// percentile with too few packets beyond it.
fn figure(row: &Row, key: &str, packets: f64) -> Figure {
    let mut figure = Figure::over_runs(row.value(key).unwrap_or(f64::NAN), row.runs(key));
    if let Some(beyond) = beyond(key, packets)
        && beyond < FEWEST_BEYOND_A_TAIL
    {
        figure.interval = Err(format!(
            "each run's percentile rests on {beyond:.1} packets beyond it ({packets:.0} timed); \
             {FEWEST_BEYOND_A_TAIL:.0} or more decide"
        ));
    }
    figure
}

/// The rows of `table` ordered by `key`, each with its interval: `SBE 32 [31–33] < …`.
fn ranking(table: &Table, key: &str, packets: f64) -> String {
    let mut rows: Vec<(&str, Figure)> =
        table.rows.iter().map(|r| (r.label.as_str(), figure(r, key, packets))).collect();
    rows.sort_by(|a, b| a.1.value.total_cmp(&b.1.value));
    let shown: Vec<String> =
        rows.iter().map(|(label, e)| format!("{label} {} ns", e.shown())).collect();
    shown.join(" < ")
}

/// "SBE: best median (or worst case)": SBE's figure below every other
/// format's, both ways, each comparison decided by the runs' intervals.
fn sbe_best(
    published: &Published,
    id: &str,
    what: &str,
    key: &str,
    tables: [&Table; 2],
    fenced: Option<&Variant>,
    packets: f64,
) -> Check {
    let mut outcomes = Vec::new();
    let mut shown = Vec::new();
    for (direction, table) in DIRECTIONS.iter().zip(tables) {
        let Some(sbe) = table.row("SBE") else { continue };
        let sbe = figure(sbe, key, packets);
        for other in table.rows.iter().filter(|r| r.label != "SBE") {
            outcomes.push((
                format!("{direction}, SBE below {}", other.label),
                decide::below(&sbe, &figure(other, key, packets)),
            ));
        }
        shown.push(format!("{direction} {what}: {}", ranking(table, key, packets)));
    }
    let fenced_order = fenced
        .map(|v| {
            DIRECTIONS
                .iter()
                .filter_map(|d| Some(format!("{d} {}", ranking(v.table(d)?, key, packets))))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default();
    Check::new(
        published,
        id,
        decide::verdict(&outcomes),
        format!(
            "{} ({}); the fenced clock, the project's codecs: {fenced_order}{}",
            shown.join("; "),
            samples(key, what, packets),
            decide::unless_all_hold(&outcomes)
        ),
    )
}

/// FlatBuffers' median read below both Cap'n Proto encodings' in `table`.
fn flatbuffers_reads_faster(table: &Table, packets: f64) -> (Vec<(String, Outcome)>, String) {
    let median = |label: &str| table.row(label).map(|r| figure(r, "p50_ns", packets));
    let Some(flat) = median("Flatbuffers") else {
        let open = Outcome::Open("FlatBuffers was not measured".into());
        return (vec![("FlatBuffers".into(), open)], String::new());
    };
    let mut outcomes = Vec::new();
    let mut shown = vec![format!("FlatBuffers {} ns", flat.shown())];
    for capnp in ["Cap'n Proto Unpacked", "Cap'n Proto Packed"] {
        let outcome = match median(capnp) {
            Some(other) => {
                shown.push(format!("{capnp} {} ns", other.shown()));
                decide::below(&flat, &other)
            }
            None => Outcome::Open(format!("{capnp} was not measured")),
        };
        outcomes.push((format!("FlatBuffers below {capnp}"), outcome));
    }
    (outcomes, shown.join(", "))
}

/// The study's C3 on the study's readers, with the project's readers beside.
fn flatbuffers_faster_than_capnp(
    published: &Published,
    study: &Table,
    project: Option<&Table>,
    packets: f64,
) -> Check {
    let (outcomes, shown) = flatbuffers_reads_faster(study, packets);
    let verdict = decide::verdict(&outcomes);
    let mut evidence = format!(
        "deserialize median, the study's readers (FlatBuffers unverified, Cap'n Proto allocating): {shown}{}",
        decide::unless_all_hold(&outcomes)
    );
    if let Some(project) = project {
        let (outcomes, shown) = flatbuffers_reads_faster(project, packets);
        let theirs = decide::verdict(&outcomes);
        let _ = write!(
            evidence,
            "; the project's readers (variant {PROJECT_READERS}: FlatBuffers verified, Cap'n Proto allocation-free): {shown}, {}{}",
            theirs.shown(),
            decide::unless_all_hold(&outcomes)
        );
        if theirs != verdict {
            evidence.push_str(
                "; the readers decide it: the verifier FlatBuffers runs before reading and the allocations the study's Cap'n Proto reads make (the departures on reads)",
            );
        }
    }
    Check::new(published, "flatbuffers-reads-faster-than-capnp", verdict, evidence)
}

/// A count of allocations per packet that should be none.
fn none(count: f64) -> Outcome {
    if count == 0.0 { Outcome::Holds } else { Outcome::Fails }
}

/// A count of allocations per packet that should be one or more for every packet.
fn every_packet(count: f64) -> Outcome {
    if count >= 1.0 { Outcome::Holds } else { Outcome::Fails }
}

/// The document's claims on allocation, from the untimed counting pass.
fn allocation_claims(published: &Published, table: &Table) -> Vec<Check> {
    let count = |label: &str, key: &str| table.value(label, key);
    let claim = |id: &str, outcomes: Vec<(String, Outcome)>, shown: String| {
        Check::new(
            published,
            id,
            decide::verdict(&outcomes),
            format!("{shown}{}", decide::unless_all_hold(&outcomes)),
        )
    };
    let mut checks = Vec::new();
    if let (Some(study), Some(project)) =
        (count("Flatbuffers", "study_read"), count("Flatbuffers", "project_read"))
    {
        let in_place = table.row("Flatbuffers").and_then(|r| r.text("study_reads_in_place"));
        checks.push(claim(
            "flatbuffers-zero-copy-zero-allocation",
            vec![
                ("no allocation reading".into(), none(study)),
                (
                    "fields read in place".into(),
                    if in_place == Some("yes") { Outcome::Holds } else { Outcome::Fails },
                ),
            ],
            format!(
                "allocations per packet read: {} through the study's (unverified) reader, {} through the verified one; fields read in place from the stream: {} (the reader's labels: a property of its code, which a count of allocations cannot see)",
                number(study),
                number(project),
                in_place.unwrap_or("not known")
            ),
        ));
    }
    if let (Some(encode), Some(read)) = (count("SBE", "encode"), count("SBE", "study_read")) {
        checks.push(claim(
            "sbe-no-allocation",
            vec![("serialize".into(), none(encode)), ("deserialize".into(), none(read))],
            format!(
                "allocations per packet: serialize {}, deserialize {}",
                number(encode),
                number(read)
            ),
        ));
    }
    let mut outcomes = Vec::new();
    let mut shown = Vec::new();
    for label in ["Cap'n Proto Unpacked", "Cap'n Proto Packed"] {
        if let (Some(encode), Some(read), Some(project)) =
            (count(label, "encode"), count(label, "study_read"), count(label, "project_read"))
        {
            outcomes.push((format!("{label} per builder"), every_packet(encode)));
            outcomes.push((format!("{label} per read"), every_packet(read)));
            shown.push(format!(
                "{label}: serialize {}, deserialize {} (the study's reads; the project's: {})",
                number(encode),
                number(read),
                number(project)
            ));
        }
    }
    if !outcomes.is_empty() {
        checks.push(claim(
            "capnp-allocates-per-message",
            outcomes,
            format!("allocations per packet: {}", shown.join("; ")),
        ));
    }
    checks
}

/// Why the workaround's cost is not measured, with the figures at hand.
fn flatbuffers_workaround(published: &Published, serialize: &Table, packets: f64) -> Check {
    let median = |label: &str| {
        serialize
            .row(label)
            .map_or_else(|| "not measured".into(), |r| figure(r, "p50_ns", packets).shown())
    };
    Check::new(
        published,
        "flatbuffers-workaround-slowed-serialization",
        Verdict::NotDecided,
        format!(
            "no figure isolates the workaround: every FlatBuffers builder writes a table's children before the table, so a vector of Messages needs their offsets gathered first, here too (in a reused Vec, the study's in a SmallVec), and there is no FlatBuffers serialize without it to time; FlatBuffers' serialize median is {} ns against Cap'n Proto Unpacked's {} ns and SBE's {} ns, which carries the whole builder's cost, not the workaround's",
            median("Flatbuffers"),
            median("Cap'n Proto Unpacked"),
            median("SBE")
        ),
    )
}

pub fn check(published: &Published, figures: &Figures) -> (Vec<Check>, Vec<Answer>) {
    let tables: Vec<&Table> = DIRECTIONS.iter().filter_map(|d| figures.table(d)).collect();
    let packets = figures.fact("packets").unwrap_or(0.0);
    let [serialize, deserialize] = tables[..] else {
        return (super::not_decided(published, "the study's tables were not measured"), Vec::new());
    };
    if tables.iter().any(|t| t.rows.len() != FORMATS.len()) {
        return (
            super::not_decided(published, "not every format was measured (see the departures)"),
            Vec::new(),
        );
    }
    let fenced = figures.variant("fenced");
    let mut checks = vec![
        sbe_best(
            published,
            "sbe-best-median",
            "median",
            "p50_ns",
            [serialize, deserialize],
            fenced,
            packets,
        ),
        sbe_best(
            published,
            "sbe-best-worst-case",
            "99.9th percentile",
            "p999_ns",
            [serialize, deserialize],
            fenced,
            packets,
        ),
        flatbuffers_faster_than_capnp(
            published,
            deserialize,
            figures.variant(PROJECT_READERS).and_then(|v| v.table(DIRECTIONS[1])),
            packets,
        ),
    ];
    if let Some(allocations) = figures.table("allocations") {
        checks.extend(allocation_claims(published, allocations));
    }
    checks.push(flatbuffers_workaround(published, serialize, packets));
    (checks, answers(published, figures, [serialize, deserialize], packets))
}

/// p99.9 over the median, per row of a table.
fn tail_ratio(row: &Row) -> Option<f64> {
    Some(row.value("p999_ns")? / row.value("p50_ns")?)
}

/// A size bucket's label and packet count: `17+ msg (14 packets a run)`.
fn bucket_shown(row: &Row, label: &str) -> String {
    let span = row.label.trim_start_matches(&format!("{label} · "));
    match row.value("packets") {
        Some(n) => format!("{span} ({n:.0} packets a run)"),
        None => span.to_owned(),
    }
}

fn answers(
    published: &Published,
    figures: &Figures,
    tables: [&Table; 2],
    packets: f64,
) -> Vec<Answer> {
    let runs = figures.fact("runs").unwrap_or(1.0);
    let mut answers = Vec::new();
    // SBE's tail, proportionately: p99.9 / median, against the other formats'.
    let tail = DIRECTIONS
        .iter()
        .zip(tables)
        .map(|(d, t)| {
            let ratios: Vec<String> = t
                .rows
                .iter()
                .filter_map(|r| Some(format!("{} ×{:.1}", r.label, tail_ratio(r)?)))
                .collect();
            let highest = t
                .rows
                .iter()
                .max_by(|a, b| {
                    tail_ratio(a).unwrap_or(0.0).total_cmp(&tail_ratio(b).unwrap_or(0.0))
                })
                .map(|r| r.label.clone())
                .unwrap_or_default();
            format!("{d}: p99.9/median {} (highest: {highest})", ratios.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let tail_basis = match beyond("p999_ns", packets) {
        Some(b) if b < FEWEST_BEYOND_A_TAIL => format!(
            " ({}: too few for a tail to decide, so the ratios are shown, not weighed)",
            samples("p999_ns", "p99.9", packets)
        ),
        _ => format!(" ({})", samples("p999_ns", "p99.9", packets)),
    };
    let within = figures
        .variant("fenced")
        .and_then(|v| v.table("by-size-serialize"))
        .map(|t| {
            let sbe: Vec<String> = t
                .rows
                .iter()
                .filter(|r| r.label.starts_with("SBE · "))
                .filter_map(|r| {
                    let pooled = r.value("packets")? * runs;
                    let shown = bucket_shown(r, "SBE");
                    Some(match pooled * 0.001 < FEWEST_BEYOND_A_TAIL {
                        true => format!("{shown}: too few packets for a p99.9"),
                        false => format!("{shown}: ×{:.1}", tail_ratio(r)?),
                    })
                })
                .collect();
            format!(
                " Within one size (fenced clock, all runs together), SBE's serialize p99.9/median is {}.",
                sbe.join(", ")
            )
        })
        .unwrap_or_default();
    answers.push(Answer {
        id: "sbe-tail".into(),
        question: published.question("sbe-tail").into(),
        answer: format!("{tail}{tail_basis}.{within}"),
    });
    // Size scaling: the median of the largest bucket against the 1-message one.
    let scaling = figures
        .variant("fenced")
        .map(|v| {
            DIRECTIONS
                .iter()
                .filter_map(|d| v.table(&format!("by-size-{d}")).map(|t| (d, t)))
                .map(|(d, t)| {
                    let per_format: Vec<String> = FORMATS
                        .iter()
                        .filter_map(|f| {
                            let prefix = format!("{} · ", f.label);
                            let rows: Vec<&Row> =
                                t.rows.iter().filter(|r| r.label.starts_with(&prefix)).collect();
                            let (first, last) = (rows.first()?, rows.last()?);
                            Some(format!(
                                "{} {} {:.0} ns → {} {:.0} ns (×{:.1})",
                                f.label,
                                bucket_shown(first, f.label),
                                first.value("p50_ns")?,
                                bucket_shown(last, f.label),
                                last.value("p50_ns")?,
                                last.value("p50_ns")? / first.value("p50_ns")?
                            ))
                        })
                        .collect();
                    format!("{d} median by messages per packet: {}", per_format.join("; "))
                })
                .collect::<Vec<_>>()
                .join(". ")
        })
        .unwrap_or_default();
    answers.push(Answer {
        id: "size-scaling".into(),
        question: published.question("size-scaling").into(),
        answer: format!("{scaling}. (Tables by size below.)"),
    });
    answers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn published() -> Published {
        Published::parse("iex-2019", include_str!("../../../../spec/studies/iex-2019.json"))
            .unwrap()
    }

    /// The published tables as our figures: each row's values scaled, and
    /// three runs spread ±`spread` around each (relative), `packets` a run.
    fn figures_like_the_study(
        scale: impl Fn(&str, &str) -> f64,
        spread: f64,
        packets: u64,
    ) -> Figures {
        let published = published();
        let tables = DIRECTIONS
            .iter()
            .map(|d| {
                let theirs = published.table(d).unwrap();
                Table {
                    id: theirs.id.clone(),
                    title: None,
                    columns: Vec::new(),
                    rows: theirs
                        .rows
                        .iter()
                        .map(|r| {
                            let mut row = r.clone();
                            for (key, value) in row.values.iter_mut() {
                                let v = value.as_f64().unwrap() * scale(&r.label, key);
                                *value = v.into();
                                row.runs.insert(
                                    key.clone(),
                                    vec![v * (1.0 - spread), v, v * (1.0 + spread)],
                                );
                            }
                            row
                        })
                        .collect(),
                }
            })
            .collect();
        let mut facts = Map::new();
        facts.insert("packets".into(), packets.into());
        facts.insert("runs".into(), 3.into());
        Figures {
            schema: super::super::figures::SCHEMA.into(),
            study: "iex-2019".into(),
            language: "rust".into(),
            environment: serde_json::Value::Null,
            variants: vec![Variant { id: STUDY_VARIANT.into(), title: "t".into(), tables }],
            facts,
            departures: Vec::new(),
        }
    }

    fn the_study_s() -> Figures {
        figures_like_the_study(|_, _| 1.0, 0.01, 100_000)
    }

    fn checks(figures: &Figures) -> Vec<Check> {
        check(&published(), figures).0
    }

    fn verdict(figures: &Figures, id: &str) -> Verdict {
        checks(figures).into_iter().find(|c| c.id == id).unwrap().verdict
    }

    const CONCLUSIONS: [&str; 3] =
        ["sbe-best-median", "sbe-best-worst-case", "flatbuffers-reads-faster-than-capnp"];

    #[test]
    fn the_study_s_own_figures_reproduce_every_conclusion() {
        let theirs = the_study_s();
        for id in CONCLUSIONS {
            assert_eq!(verdict(&theirs, id), Verdict::Reproduced, "{id}");
        }
    }

    #[test]
    fn the_checks_flip_when_the_figures_do() {
        // SBE ten times slower everywhere: it is neither best median nor best tail.
        let slow_sbe =
            figures_like_the_study(|l, _| if l == "SBE" { 10.0 } else { 1.0 }, 0.01, 100_000);
        assert_eq!(verdict(&slow_sbe, "sbe-best-median"), Verdict::Reversed);
        assert_eq!(verdict(&slow_sbe, "sbe-best-worst-case"), Verdict::Reversed);
        // FlatBuffers reading slower than both Cap'n Proto encodings.
        let flat = |x: f64| {
            figures_like_the_study(|l, _| if l == "Flatbuffers" { x } else { 1.0 }, 0.01, 100_000)
        };
        assert_eq!(verdict(&flat(5.0), "flatbuffers-reads-faster-than-capnp"), Verdict::Reversed);
        // Slower than unpacked only: half of the claim holds.
        assert_eq!(
            verdict(&flat(2.5), "flatbuffers-reads-faster-than-capnp"),
            Verdict::NotReproduced
        );
    }

    #[test]
    fn a_tie_is_not_decided() {
        // FlatBuffers' median read equal to Cap'n Proto Unpacked's (366 ns), and
        // SBE's serialize equal to Cap'n Proto Unpacked's (273 ns), run for run.
        let tied = figures_like_the_study(
            |l, k| match (l, k) {
                ("Flatbuffers", "p50_ns") => 366.0 / 173.0,
                ("SBE", "p50_ns") => 273.0 / 91.0,
                _ => 1.0,
            },
            0.0,
            100_000,
        );
        assert_eq!(verdict(&tied, "flatbuffers-reads-faster-than-capnp"), Verdict::NotDecided);
        assert_eq!(verdict(&tied, "sbe-best-median"), Verdict::NotDecided);
    }

    #[test]
    fn an_overlap_is_not_decided() {
        // Runs spread ±60 %: SBE's 91 ns serialize median (36–146) meets Cap'n
        // Proto Unpacked's 273 (109–437); FlatBuffers' 173 ns read meets 366.
        let wide = figures_like_the_study(|_, _| 1.0, 0.6, 100_000);
        for id in CONCLUSIONS {
            let c = checks(&wide).into_iter().find(|c| c.id == id).unwrap();
            assert_eq!(c.verdict, Verdict::NotDecided, "{id}");
            assert!(c.evidence.contains("overlap"), "{id}: {}", c.evidence);
        }
    }

    #[test]
    fn a_tail_of_a_few_packets_is_not_decided_and_says_how_many() {
        let small = figures_like_the_study(|_, _| 1.0, 0.01, 2_767);
        let tail = checks(&small).into_iter().find(|c| c.id == "sbe-best-worst-case").unwrap();
        assert_eq!(tail.verdict, Verdict::NotDecided);
        assert!(tail.evidence.contains("2767 packets a run, 2.8 beyond"), "{}", tail.evidence);
        assert_eq!(verdict(&small, "sbe-best-median"), Verdict::Reproduced);
    }

    #[test]
    fn one_run_decides_nothing() {
        let mut one = the_study_s();
        for table in &mut one.variants[0].tables {
            for row in &mut table.rows {
                row.runs.values_mut().for_each(|runs| runs.truncate(1));
            }
        }
        let c = checks(&one).into_iter().find(|c| c.id == "sbe-best-median").unwrap();
        assert_eq!(c.verdict, Verdict::NotDecided);
        assert!(c.evidence.contains("one run gives no interval"), "{}", c.evidence);
    }

    #[test]
    fn a_format_missing_leaves_the_conclusions_not_decided() {
        let mut figures = the_study_s();
        figures.variants[0].tables[0].rows.pop();
        assert!(checks(&figures).iter().all(|c| c.verdict == Verdict::NotDecided));
    }

    /// The study's readers in the study's variant, the project's beside:
    /// the check names both, and says the readers decide it when they differ.
    #[test]
    fn the_readers_claim_shows_both_readers() {
        let mut figures = the_study_s();
        let mut project = figures.table("deserialize").unwrap().clone();
        project.rows.retain(|r| r.label != "SBE");
        for row in &mut project.rows {
            if row.label == "Flatbuffers" {
                let runs = row.runs.get_mut("p50_ns").unwrap();
                runs.iter_mut().for_each(|v| *v *= 5.0);
                row.values.insert("p50_ns".into(), (173.0 * 5.0).into());
            }
        }
        figures.variants.push(Variant {
            id: PROJECT_READERS.into(),
            title: "t".into(),
            tables: vec![project],
        });
        let c = checks(&figures)
            .into_iter()
            .find(|c| c.id == "flatbuffers-reads-faster-than-capnp")
            .unwrap();
        assert_eq!(c.verdict, Verdict::Reproduced);
        assert!(c.evidence.contains("the project's readers"), "{}", c.evidence);
        assert!(c.evidence.contains("reversed"), "{}", c.evidence);
        assert!(c.evidence.contains("the readers decide it"), "{}", c.evidence);
    }

    fn with_allocations(rows: &[(&str, f64, f64, f64)]) -> Figures {
        let mut figures = the_study_s();
        figures.variants[0].tables.push(Table {
            id: "allocations".into(),
            title: None,
            columns: Vec::new(),
            rows: rows
                .iter()
                .map(|&(label, encode, study_read, project_read)| {
                    Row::new(
                        label,
                        json!({"encode": encode, "study_read": study_read,
                               "project_read": project_read, "study_reads_in_place": "yes"}),
                    )
                })
                .collect(),
        });
        figures
    }

    #[test]
    fn the_allocation_claims_follow_the_counts() {
        let as_the_study_said = with_allocations(&[
            ("Cap'n Proto Unpacked", 1.0, 1.0, 0.0),
            ("Cap'n Proto Packed", 1.0, 2.0, 0.0),
            ("Flatbuffers", 0.0, 0.0, 0.0),
            ("SBE", 0.0, 0.0, 0.0),
        ]);
        for id in [
            "flatbuffers-zero-copy-zero-allocation",
            "sbe-no-allocation",
            "capnp-allocates-per-message",
        ] {
            assert_eq!(verdict(&as_the_study_said, id), Verdict::Reproduced, "{id}");
        }
        let otherwise = with_allocations(&[
            ("Cap'n Proto Unpacked", 1.0, 0.0, 0.0),
            ("Cap'n Proto Packed", 1.0, 0.0, 0.0),
            ("Flatbuffers", 0.0, 0.5, 0.0),
            ("SBE", 0.0, 1.0, 0.0),
        ]);
        assert_eq!(
            verdict(&otherwise, "flatbuffers-zero-copy-zero-allocation"),
            Verdict::NotReproduced
        );
        assert_eq!(verdict(&otherwise, "sbe-no-allocation"), Verdict::NotReproduced);
        assert_eq!(verdict(&otherwise, "capnp-allocates-per-message"), Verdict::NotReproduced);
        assert_eq!(
            verdict(&otherwise, "flatbuffers-workaround-slowed-serialization"),
            Verdict::NotDecided
        );
    }

    #[test]
    fn the_tail_question_names_the_highest_ratio_and_its_samples() {
        let (_, answers) = check(&published(), &the_study_s());
        // Published serialize: SBE 2423/91 = ×26.6, the others ×7–10.
        assert!(answers[0].answer.starts_with("serialize: p99.9/median"), "{}", answers[0].answer);
        assert!(answers[0].answer.contains("SBE ×26.6 (highest: SBE)"), "{}", answers[0].answer);
        assert!(
            answers[0].answer.contains("100000 packets a run, 100.0 beyond"),
            "{}",
            answers[0].answer
        );
    }

    #[test]
    fn buckets_cover_every_packet_size() {
        assert_eq!(bucket(1), 0);
        assert_eq!(bucket(2), 1);
        assert_eq!(bucket(4), 2);
        assert_eq!(bucket(16), 4);
        assert_eq!(bucket(17), 5);
        assert_eq!(bucket(10_000), 5);
    }
}
