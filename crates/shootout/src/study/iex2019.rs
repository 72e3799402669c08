//! The 2019 "Binary Format Shootout" (`000_…txt`): Cap'n Proto packed and
//! unpacked, FlatBuffers and SBE on IEX DEEP, each message timed on its own.
//!
//! The study's method, kept: one `Instant::now()` before and after each
//! message's serialize (into a buffer allocated before) and each message's
//! read-and-aggregate; every duration into an HdrHistogram of 2 significant
//! figures and into a sum; per run the median, 99th and 99.9th percentile and
//! the sum; the figure reported is the mean of those over the runs. The
//! project's own timing, as a second variant on the same records in the same
//! pass: fenced TSC reads with the clock's own cost subtracted
//! (`benchmark::timer`), which also gives the per-size tables that answer the
//! study's open question.

use std::time::Instant;

use anyhow::{Result, bail};
use hdrhistogram::Histogram;
use serde_json::{Map, Value, json};

use super::figures::{Figures, STUDY_VARIANT, Table, Variant};
use super::published::{Published, Row};
use super::{Answer, Check, Options};
use crate::benchmark::{DynCodec, timer::Timer};
use crate::catalog::registry;
use crate::environment::Environment;
use crate::input::ingest::Capture;
use crate::input::{Input, Source};
use crate::workload::Workload;
use crate::workload::iex::{Iex, MultiMessage};

/// The study's four, in the order it ran them, with its row labels.
const FORMATS: [(&str, &str); 4] = [
    ("capnp-unpacked", "Cap'n Proto Unpacked"),
    ("capnp-packed", "Cap'n Proto Packed"),
    ("flatbuffers", "Flatbuffers"),
    ("sbe", "SBE"),
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

/// One direction of one format in one run.
struct Timings {
    /// As the study: `Instant` around each message, 2 significant figures.
    study: Histogram<u64>,
    study_total_ns: u128,
    /// Fenced TSC, clock cost subtracted, per size bucket.
    fenced: Vec<Histogram<u64>>,
    fenced_total_ns: u128,
    /// Encoded bytes per size bucket.
    bytes: Vec<u64>,
}

impl Timings {
    fn new() -> Timings {
        let histogram = new_histogram;
        Timings {
            study: histogram(),
            study_total_ns: 0,
            fenced: SIZE_BUCKETS.iter().map(|_| histogram()).collect(),
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

/// As the study's: 2 significant figures; up to an hour, so no message's time is clamped.
fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000_000, 2).expect("valid bounds")
}

fn bucket(messages: usize) -> usize {
    SIZE_BUCKETS.iter().position(|&(lo, hi)| (lo..=hi).contains(&messages)).unwrap_or(0)
}

/// One format's codec and what its runs measured.
struct Contender {
    name: &'static str,
    label: &'static str,
    codec: Box<dyn DynCodec<Iex>>,
    /// Per run: serialize and deserialize.
    runs: Vec<[Timings; 2]>,
    failure: Option<String>,
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
    let registered = registry::select(
        registry::iex(),
        &FORMATS.iter().map(|(name, _)| name.to_string()).collect::<Vec<_>>(),
    )?;
    let mut contenders: Vec<Contender> = FORMATS
        .iter()
        .map(|&(name, label)| {
            let format = registered.iter().find(|f| f.info.name == name).expect("selected by name");
            let codec = format.codec().expect("the study's formats all run on iex");
            Contender { name, label, codec, runs: Vec::new(), failure: None }
        })
        .collect();
    let timer = Timer::new();
    let runs = options.runs.unwrap_or(if options.quick { 1 } else { RUNS });
    for run in 0..runs {
        eprintln!("study iex-2019: run {} of {runs}", run + 1);
        for contender in &mut contenders {
            contender.runs.push([Timings::new(), Timings::new()]);
        }
        let mut sinks: Vec<_> =
            contenders.iter().map(|_| Iex::new_sink(&scanned.reference)).collect();
        let mut reader = input.open()?;
        let mut stream = Vec::with_capacity(WINDOW * 256);
        let mut ends = Vec::with_capacity(WINDOW);
        while let Some(window) = reader.next_window(WINDOW)? {
            for (contender, sink) in contenders.iter_mut().zip(&mut sinks) {
                if contender.failure.is_some() {
                    continue;
                }
                let records = window.order.iter().map(|&i| &window.records[i as usize]);
                if let Err(e) =
                    time_window(contender, records, sink, &timer, &mut stream, &mut ends)
                {
                    contender.failure = Some(format!("run {}: {e:#}", run + 1));
                }
            }
        }
        reader.finish()?;
        for (contender, sink) in contenders.iter_mut().zip(sinks) {
            if contender.failure.is_none()
                && let Some(difference) =
                    Iex::first_difference(&scanned.reference, &Iex::finish(sink))
            {
                contender.failure =
                    Some(format!("run {}: decoded wrong values: {difference}", run + 1));
            }
        }
    }
    Ok(figures(&contenders, &timer, scanned.operations, scanned.file, runs, Environment::capture()))
}

/// Serializes one window message by message into `stream`, then reads it back
/// message by message into `sink`, timing each both ways (the study's clock,
/// then the fenced one, each on its own encode and decode of the record).
fn time_window<'r>(
    contender: &mut Contender,
    records: impl Iterator<Item = &'r MultiMessage> + Clone,
    sink: &mut <Iex as Workload>::Sink,
    timer: &Timer,
    stream: &mut Vec<u8>,
    ends: &mut Vec<(usize, usize)>,
) -> Result<()> {
    let [serialize, deserialize] = contender.runs.last_mut().expect("a run was pushed");
    let codec = &mut contender.codec;
    // The study's clock.
    stream.clear();
    ends.clear();
    for record in records.clone() {
        let start = Instant::now();
        codec.encode(record, stream)?;
        let ns = start.elapsed().as_nanos();
        serialize.study.saturating_record(ns as u64);
        serialize.study_total_ns += ns;
        ends.push((stream.len(), bucket(record.messages.len())));
    }
    let mut scratch = Iex::new_sink(&Default::default());
    let mut offset = 0;
    for &(end, _) in ends.iter() {
        let start = Instant::now();
        let used = codec.decode(&stream[offset..], &mut scratch)?;
        let ns = start.elapsed().as_nanos();
        deserialize.study.saturating_record(ns as u64);
        deserialize.study_total_ns += ns;
        check_used(offset, used, end)?;
        offset = end;
    }
    // The fenced clock, cost subtracted; this pass feeds the validated sink.
    stream.clear();
    let mut start_of = 0;
    for (record, &(_, size)) in records.zip(ends.iter()) {
        let start = timer.start();
        codec.encode(record, stream)?;
        let ns = timer.sample_ns(start);
        serialize.fenced[size].saturating_record(ns);
        serialize.fenced_total_ns += u128::from(ns);
        serialize.bytes[size] += (stream.len() - start_of) as u64;
        start_of = stream.len();
    }
    let mut offset = 0;
    for &(end, size) in ends.iter() {
        let start = timer.start();
        let used = codec.decode(&stream[offset..], sink)?;
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

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

fn row(label: &str, values: Value) -> Row {
    let Value::Object(values) = values else { unreachable!("rows are built from objects") };
    Row { label: label.to_owned(), values }
}

/// The mean over runs of each run's percentiles and total, as the study reported.
fn percentile_row(label: &str, runs: &[Histogram<u64>], totals: &[u128]) -> Row {
    let at = |q: f64| mean(runs.iter().map(|h| h.value_at_quantile(q) as f64));
    row(
        label,
        json!({
            "p50_ns": at(0.5),
            "p99_ns": at(0.99),
            "p999_ns": at(0.999),
            "total_s": mean(totals.iter().map(|&t| t as f64 / 1e9)),
        }),
    )
}

fn figures(
    contenders: &[Contender],
    timer: &Timer,
    messages: u64,
    file: Option<crate::document::InputFile>,
    runs: usize,
    environment: Environment,
) -> Figures {
    let measured: Vec<&Contender> = contenders.iter().filter(|c| c.failure.is_none()).collect();
    let table = |direction: usize, fenced: bool| Table {
        id: DIRECTIONS[direction].to_owned(),
        title: None,
        rows: measured
            .iter()
            .map(|c| {
                let timings = c.runs.iter().map(|r| &r[direction]);
                match fenced {
                    false => percentile_row(
                        c.label,
                        &timings.clone().map(|t| t.study.clone()).collect::<Vec<_>>(),
                        &timings.map(|t| t.study_total_ns).collect::<Vec<_>>(),
                    ),
                    true => percentile_row(
                        c.label,
                        &timings.clone().map(Timings::fenced_all).collect::<Vec<_>>(),
                        &timings.map(|t| t.fenced_total_ns).collect::<Vec<_>>(),
                    ),
                }
            })
            .collect(),
    };
    let by_size = |direction: usize| Table {
        id: format!("by-size-{}", DIRECTIONS[direction]),
        title: Some(format!(
            "{} by messages per packet (fenced clock, all runs together)",
            if direction == 0 { "Serialization" } else { "Deserialization" }
        )),
        rows: measured
            .iter()
            .flat_map(|c| {
                SIZE_BUCKETS.iter().enumerate().filter_map(move |(b, &(lo, hi))| {
                    let mut all = new_histogram();
                    let mut bytes = 0;
                    for run in &c.runs {
                        all.add(&run[direction].fenced[b]).expect("same precision");
                        bytes += run[direction].bytes[b];
                    }
                    (!all.is_empty()).then(|| {
                        let span = match (lo, hi) {
                            (lo, usize::MAX) => format!("{lo}+"),
                            (lo, hi) if lo == hi => lo.to_string(),
                            (lo, hi) => format!("{lo}-{hi}"),
                        };
                        row(
                            &format!("{} · {span} msg", c.label),
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
    let mut facts = Map::new();
    facts.insert("messages".into(), messages.into());
    facts.insert("runs".into(), runs.into());
    facts.insert("clock_flag_below_ns".into(), timer.calibration.flag_below_ns.into());
    let mut departures = vec![
        format!(
            "Input: {} ({} packets with a trade or price-level update); the study used a full trading day of DEEP 1.0 (its repository's raw results hold four days), a sample or another day gives other counts and tails.",
            file.as_ref().map_or("the capture given".into(), |f| format!("{} (sha256 {})", f.path, f.sha256)),
            messages
        ),
        "Packets with no trade or price-level update are left out of both tables; the study timed their serialize too (Cap'n Proto wrote nothing for them, FlatBuffers and SBE an empty MultiMessage).".into(),
        format!("Memory: each format serializes a window of {WINDOW} packets, then reads it back, and the formats take turns window by window; the study serialized the whole day into one buffer per format, then read it all, one format after another."),
        "Libraries: today's crates (capnp, flatbuffers, the SBE Rust generator of sbe-tool 1.38) and schemas in schemas/iex/, not the study's 2019 versions; Cap'n Proto builds into a reused buffer with the library's public API (the study needed a transmute); SBE writes each message straight into the stream, back to back with no framing (messages delimit themselves, as in the study's runner), where the study built each message in a scratch buffer and copied it out; FlatBuffers adds its documented u32 size prefix, as the study did.".into(),
        "Dispatch: each call goes through the harness's codec trait object (one indirect call per message); the study called each runner's methods through generics.".into(),
        "Statistic: as the study, the mean over runs of each run's percentiles (HdrHistogram, 2 significant figures) and of each run's sum of per-message times; the study's tables also mix several pinning modes (its run script), which the document does not say.".into(),
        format!("Machine: {} ({} cores); the study's is not stated.", environment.cpu, environment.cores),
    ];
    for c in contenders.iter().filter(|c| c.failure.is_some()) {
        departures.push(format!(
            "{} is not in the tables: {}",
            c.name,
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
                title: "as the study did: Instant::now() around each message".into(),
                tables: vec![table(0, false), table(1, false)],
            },
            Variant {
                id: "fenced".into(),
                title: "shootout's clock: fenced TSC reads, their own cost subtracted (the same records, the same pass)".into(),
                tables: vec![table(0, true), table(1, true), by_size(0), by_size(1)],
            },
        ],
        facts,
        departures,
    }
}

/// p99.9 over the median, per row of a table.
fn tail_ratio(table: &Table, label: &str) -> Option<f64> {
    Some(table.value(label, "p999_ns")? / table.value(label, "p50_ns")?)
}

/// The labels in `table` ordered by `key`, smallest first.
fn ranking(table: &Table, key: &str) -> Vec<String> {
    let mut rows: Vec<(&str, f64)> =
        table.rows.iter().filter_map(|r| Some((r.label.as_str(), r.value(key)?))).collect();
    rows.sort_by(|a, b| a.1.total_cmp(&b.1));
    rows.into_iter().map(|(l, _)| l.to_owned()).collect()
}

fn lowest(table: &Table, key: &str) -> Option<String> {
    ranking(table, key).into_iter().next()
}

pub fn check(published: &Published, figures: &Figures) -> (Vec<Check>, Vec<Answer>) {
    let mut checks = Vec::new();
    let tables: Vec<&Table> = DIRECTIONS.iter().filter_map(|d| figures.table(d)).collect();
    if tables.len() != 2 || tables.iter().any(|t| t.rows.len() != FORMATS.len()) {
        return (
            super::undecided(published, "not every format was measured (see the departures)"),
            Vec::new(),
        );
    }
    for (id, key, what) in [
        ("sbe-best-median", "p50_ns", "median"),
        ("sbe-best-worst-case", "p999_ns", "99.9th percentile"),
    ] {
        let sbe_wins = tables.iter().filter(|t| lowest(t, key).as_deref() == Some("SBE")).count();
        let verdict = super::verdict_of(sbe_wins, 2);
        let evidence = DIRECTIONS
            .iter()
            .zip(&tables)
            .map(|(d, t)| {
                let order: Vec<String> = ranking(t, key)
                    .iter()
                    .map(|l| format!("{l} {:.0} ns", t.value(l, key).unwrap_or(f64::NAN)))
                    .collect();
                format!("{d} {what}: {}", order.join(" < "))
            })
            .collect::<Vec<_>>()
            .join("; ");
        checks.push(Check::new(published, id, verdict, evidence));
    }
    let read = tables[1];
    let flat = read.value("Flatbuffers", "p50_ns").unwrap_or(f64::NAN);
    let capnp = ["Cap'n Proto Unpacked", "Cap'n Proto Packed"]
        .map(|l| read.value(l, "p50_ns").unwrap_or(f64::NAN));
    let faster = capnp.iter().filter(|&&c| flat < c).count();
    checks.push(Check::new(
        published,
        "flatbuffers-reads-faster-than-capnp",
        super::verdict_of(faster, 2),
        format!(
            "deserialize median: FlatBuffers {flat:.0} ns, Cap'n Proto unpacked {:.0} ns, packed {:.0} ns",
            capnp[0], capnp[1]
        ),
    ));
    (checks, answers(published, figures, &tables))
}

fn answers(published: &Published, figures: &Figures, tables: &[&Table]) -> Vec<Answer> {
    let mut answers = Vec::new();
    // SBE's tail, proportionately: p99.9 / median, against the other formats'.
    let tail = DIRECTIONS
        .iter()
        .zip(tables)
        .map(|(d, t)| {
            let ratios: Vec<String> = t
                .rows
                .iter()
                .filter_map(|r| Some(format!("{} ×{:.1}", r.label, tail_ratio(t, &r.label)?)))
                .collect();
            let highest = t
                .rows
                .iter()
                .max_by(|a, b| {
                    tail_ratio(t, &a.label)
                        .unwrap_or(0.0)
                        .total_cmp(&tail_ratio(t, &b.label).unwrap_or(0.0))
                })
                .map(|r| r.label.clone())
                .unwrap_or_default();
            format!("{d}: p99.9/median {} (highest: {highest})", ratios.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let within = figures
        .variant("fenced")
        .and_then(|v| v.table("by-size-serialize"))
        .map(|t| {
            let sbe: Vec<String> = t
                .rows
                .iter()
                .filter(|r| r.label.starts_with("SBE · "))
                .filter_map(|r| {
                    Some(format!(
                        "{}: ×{:.1}",
                        r.label.trim_start_matches("SBE · "),
                        r.value("p999_ns")? / r.value("p50_ns")?
                    ))
                })
                .collect();
            format!(
                " Within one size (fenced clock), SBE's serialize p99.9/median is {}.",
                sbe.join(", ")
            )
        })
        .unwrap_or_default();
    answers.push(Answer {
        id: "sbe-tail".into(),
        question: published.question("sbe-tail").into(),
        answer: format!("{tail}.{within}"),
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
                        .filter_map(|(_, label)| {
                            let rows: Vec<&Row> = t
                                .rows
                                .iter()
                                .filter(|r| r.label.starts_with(&format!("{label} · ")))
                                .collect();
                            let (first, last) = (rows.first()?, rows.last()?);
                            Some(format!(
                                "{label} {} {:.0} ns → {} {:.0} ns (×{:.1})",
                                first.label.trim_start_matches(&format!("{label} · ")),
                                first.value("p50_ns")?,
                                last.label.trim_start_matches(&format!("{label} · ")),
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
    use crate::study::Verdict;

    fn published() -> Published {
        Published::parse("iex-2019", include_str!("../../../../spec/studies/iex-2019.json"))
            .unwrap()
    }

    /// The published tables as our figures, with each row's values scaled.
    fn figures_like_the_study(scale: impl Fn(&str, &str) -> f64) -> Figures {
        let published = published();
        let tables = DIRECTIONS
            .iter()
            .map(|d| {
                let theirs = published.table(d).unwrap();
                Table {
                    id: theirs.id.clone(),
                    title: None,
                    rows: theirs
                        .rows
                        .iter()
                        .map(|r| {
                            let mut row = r.clone();
                            for (key, value) in row.values.iter_mut() {
                                *value = (value.as_f64().unwrap() * scale(&r.label, key)).into();
                            }
                            row
                        })
                        .collect(),
                }
            })
            .collect();
        Figures {
            schema: super::super::figures::SCHEMA.into(),
            study: "iex-2019".into(),
            language: "rust".into(),
            environment: Value::Null,
            variants: vec![Variant { id: STUDY_VARIANT.into(), title: "t".into(), tables }],
            facts: Map::new(),
            departures: Vec::new(),
        }
    }

    fn verdicts(figures: &Figures) -> Vec<(String, Verdict)> {
        check(&published(), figures).0.into_iter().map(|c| (c.id, c.verdict)).collect()
    }

    #[test]
    fn the_study_s_own_figures_reproduce_every_conclusion() {
        let all = verdicts(&figures_like_the_study(|_, _| 1.0));
        assert_eq!(all.len(), 3);
        assert!(all.iter().all(|(_, v)| *v == Verdict::Reproduced), "{all:?}");
    }

    #[test]
    fn the_checks_flip_when_the_figures_do() {
        // SBE ten times slower everywhere: it is neither best median nor best tail.
        let slow_sbe =
            verdicts(&figures_like_the_study(|l, _| if l == "SBE" { 10.0 } else { 1.0 }));
        assert_eq!(slow_sbe[0].1, Verdict::Reversed);
        assert_eq!(slow_sbe[1].1, Verdict::Reversed);
        // FlatBuffers reading slower than both Cap'n Proto encodings.
        let slow_flat =
            verdicts(&figures_like_the_study(|l, _| if l == "Flatbuffers" { 5.0 } else { 1.0 }));
        assert_eq!(slow_flat[2].1, Verdict::Reversed);
        // Slower than unpacked only: half of the claim holds.
        let between =
            verdicts(&figures_like_the_study(|l, _| if l == "Flatbuffers" { 2.5 } else { 1.0 }));
        assert_eq!(between[2].1, Verdict::NotReproduced);
    }

    #[test]
    fn a_format_missing_leaves_the_conclusions_undecided() {
        let mut figures = figures_like_the_study(|_, _| 1.0);
        figures.variants[0].tables[0].rows.pop();
        assert!(verdicts(&figures).iter().all(|(_, v)| *v == Verdict::Undecided));
    }

    #[test]
    fn the_study_s_tail_question_names_the_format_with_the_highest_ratio() {
        let published = published();
        let figures = figures_like_the_study(|_, _| 1.0);
        let (_, answers) = check(&published, &figures);
        // Published serialize: SBE 2423/91 = ×26.6, the others ×7–10.
        assert!(answers[0].answer.starts_with("serialize: p99.9/median"), "{}", answers[0].answer);
        assert!(answers[0].answer.contains("SBE ×26.6 (highest: SBE)"), "{}", answers[0].answer);
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
