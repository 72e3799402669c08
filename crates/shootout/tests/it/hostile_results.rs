//! Results files are untrusted input (README, "Results files"): crafted
//! files through every reader as a user runs them, under a memory limit, and
//! a bounded, deterministic run of mutated files through the same readers
//! in-process. No file may panic, abort or hang a reader, or make it allocate
//! beyond a small multiple of its size; every refusal is one short line
//! naming the file, the JSON path and what was expected.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::*;
use base64::Engine;
use hdrhistogram::serialization::{Serializer, V2DeflateSerializer, V2Serializer};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use shootout::compare::{Output, Thresholds};
use shootout::export::{Kind, Target};
use shootout::output::table::Columns;
use shootout::recommend::{By, Constraints};

/// Address space for one command: a reader of a file within the limits
/// needs a fraction of it (the debug binary maps ~200 MB of it itself); one
/// sizing anything by a forged header or a 2 GB stream needs more and aborts.
const ADDRESS_SPACE_KIB: u64 = 1024 * 1024;

/// The longest an error line may be: values from the file are cut short.
const SHORT_LINE: usize = 400;

/// Far beyond any refusal's time, even in a debug build on a busy machine.
const HANG: Duration = Duration::from_secs(60);

/// A small real results file: the fixture every case is made from.
fn fixture(dir: &tempfile::TempDir) -> (PathBuf, Value) {
    let path = sql_results(dir, "fixture.json", "msgpack-array,borsh");
    let value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (path, value)
}

/// A smaller results file (two runs: every statistic a reader derives
/// costs in proportion), for the many mutants of the property test.
fn two_run_fixture(dir: &tempfile::TempDir) -> (PathBuf, Value) {
    let path = dir.path().join("two-runs.json");
    stdout_of(
        shootout()
            .args(["run", "--workload", "sql", "--records", "100", "--runs", "2", "--warmup", "0"])
            .args(["--throughput-rounds", "1"])
            .args(["--formats", "msgpack-array,borsh", "--export-json"])
            .arg(&path)
            .output()
            .unwrap(),
    );
    let value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (path, value)
}

/// `shootout args…` with its address space capped.
fn bounded(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let binary = assert_cmd::cargo::cargo_bin("shootout");
    assert_cmd::Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""))
        .arg(binary)
        .args(args)
        .timeout(HANG)
        .output()
        .unwrap()
}

/// The fixture with `edit` applied.
fn with(fixture: &Value, edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut value = fixture.clone();
    edit(&mut value);
    serde_json::to_vec(&value).unwrap()
}

/// A V2 histogram header (and `payload`) saying what it likes, base64 as a
/// runner stores it.
fn forged_histogram(
    figures: u32,
    lowest: u64,
    highest: u64,
    payload: &[u8],
    declared: u32,
) -> String {
    let mut bytes = 0x1c84_9313u32.to_be_bytes().to_vec();
    bytes.extend_from_slice(&declared.to_be_bytes());
    bytes.extend_from_slice(&0u32.to_be_bytes());
    bytes.extend_from_slice(&figures.to_be_bytes());
    bytes.extend_from_slice(&lowest.to_be_bytes());
    bytes.extend_from_slice(&highest.to_be_bytes());
    bytes.extend_from_slice(&1f64.to_be_bytes());
    bytes.extend_from_slice(payload);
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `plain`, as Go's runner stores a histogram: deflated, behind the V2 deflated cookie.
fn deflated(plain: &[u8]) -> String {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(plain).unwrap();
    let zlib = encoder.finish().unwrap();
    let mut bytes = 0x1c84_9314u32.to_be_bytes().to_vec();
    bytes.extend_from_slice(&(zlib.len() as u32).to_be_bytes());
    bytes.extend_from_slice(&zlib);
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn first_run(value: &mut Value) -> &mut Value {
    &mut value["formats"][1]["decode"]["runs"][0]
}

/// Every class of hostile file, each with what its one line must say: the
/// JSON path, or why the file as a whole is refused.
fn crafted(fixture: &Value) -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let set = |results: Vec<Value>| {
        serde_json::to_vec(&json!({ "schema": "shootout-results-set/1", "results": results }))
            .unwrap()
    };
    let nested = |depth: usize| "[".repeat(depth) + &"]".repeat(depth);
    let bomb = {
        // 40 MB of counts that deflate to a few dozen KB.
        let mut plain = base64::engine::general_purpose::STANDARD
            .decode(forged_histogram(3, 1, 60_000_000_000, &[], 0))
            .unwrap();
        plain.resize(40 << 20, 0);
        deflated(&plain)
    };
    vec![
        (
            "empty-direction-runs",
            with(fixture, |v| v["formats"][1]["encode"]["runs"] = json!([])),
            "formats[1].encode",
        ),
        ("no-measured-runs", with(fixture, |v| v["runs"] = json!([])), "at runs"),
        ("no-formats", with(fixture, |v| v["formats"] = json!([])), "at formats"),
        (
            "huge-name",
            with(fixture, |v| v["formats"][1]["name"] = "n".repeat(65_535).into()),
            "formats[1].name",
        ),
        ("huge-schema", with(fixture, |v| v["schema"] = "s".repeat(100_117).into()), "at schema"),
        (
            "huge-note",
            with(fixture, |v| v["formats"][2]["notes"] = "n".repeat(1 << 20).into()),
            "formats[2].notes",
        ),
        (
            "huge-process",
            with(fixture, |v| v["runs"][0]["process"] = u64::MAX.into()),
            "runs[0].process",
        ),
        (
            "huge-run-process",
            with(fixture, |v| first_run(v)["process"] = 1_000_000.into()),
            "formats[1].decode.runs[0].process",
        ),
        (
            "huge-ops",
            with(fixture, |v| first_run(v)["ops"] = json!(1e30)),
            "formats[1].decode.runs[0].ops",
        ),
        (
            "zero-ops",
            with(fixture, |v| first_run(v)["ops"] = 0.into()),
            "formats[1].decode.runs[0].ops",
        ),
        (
            "negative-figure",
            with(fixture, |v| first_run(v)["allocated_bytes_per_op"] = json!(-5.0)),
            "formats[1].decode.runs[0].allocated_bytes_per_op",
        ),
        (
            "negative-size",
            with(fixture, |v| v["formats"][1]["bytes_per_record"] = json!(-1)),
            "formats[1].bytes_per_record",
        ),
        (
            "too-many-formats",
            with(fixture, |v| {
                let one = v["formats"][1].clone();
                v["formats"] = Value::Array(vec![one; 1001]);
            }),
            "at formats",
        ),
        (
            "forged-figures",
            with(fixture, |v| {
                first_run(v)["histogram"] = forged_histogram(5, 1, 1 << 62, &[], 0).into()
            }),
            "formats[1].decode.runs[0].histogram",
        ),
        (
            "forged-range",
            with(fixture, |v| {
                first_run(v)["histogram"] = forged_histogram(3, 1, u64::MAX / 2, &[], 0).into()
            }),
            "formats[1].decode.runs[0].histogram",
        ),
        (
            "forged-lowest",
            with(fixture, |v| {
                first_run(v)["histogram"] = forged_histogram(3, 0, 1000, &[], 0).into()
            }),
            "formats[1].decode.runs[0].histogram",
        ),
        (
            "forged-payload-length",
            with(fixture, |v| {
                first_run(v)["histogram"] = forged_histogram(3, 1, 1000, &[2], u32::MAX).into()
            }),
            "formats[1].decode.runs[0].histogram",
        ),
        (
            "deflate-bomb",
            with(fixture, |v| first_run(v)["histogram"] = bomb.clone().into()),
            "formats[1].decode.runs[0].histogram",
        ),
        ("empty-set", set(vec![]), "at results"),
        (
            "set-of-two-inputs",
            set(vec![
                fixture.clone(),
                with_value(fixture, |v| v["workload"]["records"] = 7.into()),
            ]),
            "results[1].workload",
        ),
        (
            "set-part-of-another-schema",
            set(vec![with_value(fixture, |v| v["schema"] = "shootout-results/1".into())]),
            "results[0].schema",
        ),
        ("wrong-type-formats", with(fixture, |v| v["formats"] = json!({})), "at formats"),
        (
            "wrong-type-name",
            with(fixture, |v| v["formats"][0]["name"] = 5.into()),
            "formats[0].name",
        ),
        (
            "wrong-type-run",
            with(fixture, |v| v["formats"][0]["encode"]["runs"][0] = "x".repeat(10_000).into()),
            "formats[0].encode.runs[0]",
        ),
        (
            "missing-key",
            with(fixture, |v| {
                first_run(v).as_object_mut().unwrap().remove("histogram");
            }),
            "formats[1].decode.runs[0]",
        ),
        (
            "deep-nesting",
            with(fixture, |v| {
                v["environment"]["deep"] = serde_json::from_str(&nested(100)).unwrap()
            }),
            "environment.deep",
        ),
        ("deep-nesting-raw", nested(1_000_000).into_bytes(), "[0][0]"),
        (
            "free-form-blowup",
            with(fixture, |v| {
                v["environment"]["many"] = (0..20).map(|_| json!(vec![0; 9_000])).collect();
            }),
            "environment.many",
        ),
        (
            "too-long-array",
            with(fixture, |v| v["warnings"] = json!(vec![""; 20_000])),
            "at warnings",
        ),
        ("truncated", serde_json::to_vec(fixture).unwrap()[..5_000].to_vec(), "not JSON"),
        ("not-results", b"[]".to_vec(), "no \"schema\" key"),
        ("empty", Vec::new(), "not JSON"),
    ]
}

fn with_value(fixture: &Value, edit: impl FnOnce(&mut Value)) -> Value {
    serde_json::from_slice(&with(fixture, edit)).unwrap()
}

/// The one line of a refusal, checked: exit status 1, short, naming the file and `place`.
fn refused(output: &std::process::Output, file: &Path, place: &str, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{what}: {stderr}");
    let line = one_line_error(output);
    let name = file.file_name().unwrap().to_str().unwrap();
    assert!(line.starts_with("error: "), "{what}: {line}");
    assert!(line.contains(name), "{what}: the line does not name {name}: {line}");
    assert!(line.contains(place), "{what}: the line does not say {place}: {line}");
    assert!(line.len() <= SHORT_LINE, "{what}: {} characters: {line}", line.len());
    line
}

/// The cases refused by a rule on the file as read (its schema, its parts),
/// which has a JSON path but no one place in the text.
const WHOLE_FILE_RULES: [&str; 6] = [
    "no-measured-runs",
    "no-formats",
    "empty-set",
    "set-of-two-inputs",
    "set-part-of-another-schema",
    "not-results",
];

#[test]
fn crafted_files_are_refused_by_every_reader_in_one_short_line() {
    let dir = tempfile::tempdir().unwrap();
    let (good, fixture) = fixture(&dir);
    for (name, bytes, place) in crafted(&fixture) {
        let file = temp_file(&dir, &format!("{name}.json"), &bytes);
        let page = dir.path().join(format!("{name}.html"));
        let started = Instant::now();
        let report =
            bounded(&["report".as_ref(), file.as_ref(), "--export-html".as_ref(), page.as_ref()]);
        let line = refused(&report, &file, place, name);
        if !WHOLE_FILE_RULES.contains(&name) {
            assert!(line.contains("line 1, column "), "{name}: no line and column: {line}");
        }
        assert!(!page.exists(), "{name}: an export was opened for a file that was refused");
        let recommend = bounded(&["recommend".as_ref(), "--results".as_ref(), file.as_ref()]);
        assert_eq!(refused(&recommend, &file, place, name), line, "{name}");
        for (old, new) in [(&good, &file), (&file, &good)] {
            let compare = bounded(&["compare".as_ref(), old.as_ref(), new.as_ref()]);
            assert_eq!(refused(&compare, &file, place, name), line, "{name}");
        }
        assert!(started.elapsed() < HANG, "{name} took {:?}", started.elapsed());
    }
}

#[test]
fn oversized_files_and_endless_streams_stop_at_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let (_, fixture) = fixture(&dir);
    let large = dir.path().join("large.json");
    std::fs::File::create(&large).unwrap().set_len(100 << 20).unwrap();
    let output = bounded(&["report".as_ref(), large.as_ref()]);
    refused(&output, &large, "104857600 bytes; expected at most 67108864 (64 MiB)", "100 MB");

    let zero = Path::new("/dev/zero");
    let output = bounded(&["report".as_ref(), zero.as_ref()]);
    refused(&output, zero, "more than 67108864 bytes", "/dev/zero");

    // Whitespace is JSON: only the cap ends it.
    let fifo = dir.path().join("endless.fifo");
    make_fifo(&fifo);
    let writer_end = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut pipe = std::fs::OpenOptions::new().write(true).open(writer_end).unwrap();
        let spaces = vec![b' '; 1 << 20];
        // Ends when the reader has had enough and closes its end.
        while pipe.write_all(&spaces).is_ok() {}
    });
    let output = bounded(&["recommend".as_ref(), "--results".as_ref(), fifo.as_ref()]);
    refused(&output, &fifo, "more than 67108864 bytes", "an endless pipe");
    writer.join().unwrap();

    // Within the cap, a large file is read in memory bounded by its size.
    let mut padded = serde_json::to_vec(&fixture).unwrap();
    padded.resize(60 << 20, b' ');
    let padded = temp_file(&dir, "padded.json", &padded);
    stdout_of(bounded(&["report".as_ref(), padded.as_ref()]));
}

#[test]
fn escape_and_markup_strings_are_read_and_shown_inert() {
    let dir = tempfile::tempdir().unwrap();
    let (_, fixture) = fixture(&dir);
    let hostile = "\u{1b}]0;owned\u{7}\u{1b}[2J<script>alert(1)</script>|<img src=x onerror=alert(1)>\n\u{9b}31m";
    let file = temp_file(
        &dir,
        "markup.json",
        &with(&fixture, |v| {
            v["formats"][1]["name"] = hostile.into();
            v["formats"][1]["notes"] = hostile.into();
            v["runner"]["language"] = hostile.into();
            v["warnings"] = json!([hostile]);
        }),
    );
    let markdown = dir.path().join("markup.md");
    let output = bounded(&[
        "report".as_ref(),
        file.as_ref(),
        "--export-markdown".as_ref(),
        markdown.as_ref(),
    ]);
    let stdout = stdout_of(output.clone());
    for shown in [&stdout, &String::from_utf8_lossy(&output.stderr).into_owned()] {
        assert!(
            !shown.contains(['\u{1b}', '\u{7}', '\u{9b}']),
            "a raw control character reached the terminal:\n{shown}"
        );
    }
    let markdown = std::fs::read_to_string(markdown).unwrap();
    assert!(!markdown.contains("<script>") && !markdown.contains("<img"), "{markdown}");
}

/// Mutants in all: about ten seconds through every reader in a debug build.
const MUTANTS: usize = 80;

/// A bounded, deterministic property test: mutants of the fixture and of a
/// set made of it (keys deleted, types changed, extreme and negative
/// numbers, emptied and repeated arrays, long strings, deep nesting, forged
/// and extreme histograms, truncation, byte flips) through every reader in
/// this process: report with every export, compare both ways, recommend and
/// `--attach`. Each must end in success or one line naming the file, never a
/// panic, and quickly.
#[test]
fn mutated_results_files_never_panic_a_reader() {
    let dir = tempfile::tempdir().unwrap();
    let (good, fixture) = two_run_fixture(&dir);
    let mut other = fixture.clone();
    other["runner"]["language"] = "go".into();
    let set = json!({ "schema": "shootout-results-set/1", "results": [fixture.clone(), other] });
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mutant = dir.path().join("mutant.json");
    for round in 0..MUTANTS {
        let base = if round % 4 == 0 { &set } else { &fixture };
        let mut value = base.clone();
        for _ in 0..rng.random_range(1..=3) {
            mutate(&mut rng, &mut value);
        }
        let mut bytes = serde_json::to_vec(&value).unwrap();
        match rng.random_range(0..10) {
            0 => bytes.truncate(rng.random_range(0..bytes.len())),
            1 => {
                let at = rng.random_range(0..bytes.len());
                bytes[at] = rng.random();
            }
            _ => {}
        }
        std::fs::write(&mutant, &bytes).unwrap();
        for (reader, read) in READERS {
            let started = Instant::now();
            let outcome =
                catch_unwind(AssertUnwindSafe(|| read(&mutant, &good, dir.path(), round)));
            let kept = dir.path().join(format!("panicked-{round}.json"));
            let Ok(result) = outcome else {
                std::fs::copy(&mutant, &kept).unwrap();
                panic!("{reader} panicked on mutant {round}, kept as {}", kept.display());
            };
            assert!(
                started.elapsed() < HANG,
                "{reader} took {:?} on mutant {round}",
                started.elapsed()
            );
            if let Err(error) = result {
                let line = format!("{error:#}");
                assert!(
                    !line.contains('\n')
                        && line.contains("mutant.json")
                        && line.len() <= SHORT_LINE,
                    "{reader} on mutant {round}: not one short line naming the file: {line}"
                );
            }
        }
    }
}

/// A reader given the file, a good one to compare it with, a folder for
/// exports, and the round (each round asks for another of its outputs).
type Reader = fn(&Path, &Path, &Path, usize) -> anyhow::Result<()>;

/// Every reader of a results file.
const READERS: [(&str, Reader); 4] = [
    ("report", |file, _, dir, _| {
        let targets: Vec<Target> = [
            (Kind::Json, "out.json"),
            (Kind::Csv, "out.csv"),
            (Kind::Markdown, "out.md"),
            (Kind::Html, "out.html"),
        ]
        .into_iter()
        .map(|(kind, name)| Target { kind, path: dir.join(name), force: true })
        .collect();
        // A set whose parts name several testbeds is shown side by side: merging it is what can fail.
        for (_, shown) in shootout::report::merge(&[file.to_owned()], false, &[], true)? {
            let shootout::report::Shown::One(merged) = shown else { continue };
            shootout::run::show_on(
                &merged,
                &targets,
                &Columns::or_fit(None, None),
                false,
                &mut Vec::new(),
            )?;
        }
        Ok(())
    }),
    ("compare", |file, good, _, round| {
        let output = [Output::Terminal, Output::Markdown, Output::Json][round % 3];
        let thresholds = Thresholds { alpha: 0.05, min_change_pct: 5.0, fail_above_pct: Some(1.0) };
        // Either way round; a regression beyond --fail-above is an outcome, not a failure.
        let (old, new) = if round % 2 == 0 { (good, file) } else { (file, good) };
        shootout::compare::compare_on(old, new, thresholds, output, &mut Vec::new()).or_else(|e| {
            match e.downcast_ref::<shootout::compare::Regressed>() {
                Some(_) => Ok(()),
                None => Err(e),
            }
        })
    }),
    ("recommend", |file, _, _, round| {
        let constraints = Constraints {
            needs: vec!["binary".to_owned()],
            max_p99_ns: Some(1_000.0),
            max_bytes_per_record: Some(100.0),
            languages: Vec::new(),
            by: Some([By::Decode, By::Encode, By::Size, By::P99][round % 4]),
        };
        shootout::recommend::recommend_on(Some(file), &constraints, &mut Vec::new())
    }),
    ("--attach", |file, _, _, _| {
        shootout::report::merge(&[], false, &[file.to_owned()], false).map(drop)
    }),
];

/// One random change somewhere in `value`.
fn mutate(rng: &mut ChaCha8Rng, value: &mut Value) {
    let mut pointers = Vec::new();
    collect_pointers(value, String::new(), &mut pointers);
    let kind = rng.random_range(0..10);
    if kind == 9 {
        let histograms: Vec<&String> =
            pointers.iter().filter(|p| p.ends_with("/histogram")).collect();
        if !histograms.is_empty() {
            let pointer = histograms[rng.random_range(0..histograms.len())];
            *value.pointer_mut(pointer).unwrap() = histogram_mutant(rng).into();
        }
        return;
    }
    let target = value.pointer_mut(&pointers[rng.random_range(0..pointers.len())]).unwrap();
    match kind {
        0 => {
            if let Some(object) = target.as_object_mut()
                && !object.is_empty()
            {
                let key = object.keys().nth(rng.random_range(0..object.len())).unwrap().clone();
                object.remove(&key);
            }
        }
        1 => {
            *target = match rng.random_range(0..6) {
                0 => Value::Null,
                1 => json!(true),
                2 => json!("text"),
                3 => json!(42),
                4 => json!([]),
                _ => json!({}),
            }
        }
        2 | 3 => {
            const EXTREMES: [f64; 12] = [
                0.0,
                1.0,
                -1.0,
                999.0,
                1000.0,
                4.5,
                1e-300,
                1e300,
                -1e300,
                9007199254740993.0,
                3.6e12,
                6e10,
            ];
            *target = match rng.random_range(0..4) {
                0 => json!(u64::MAX),
                1 => json!(i64::MIN),
                2 => json!(rng.random_range(0..1_000u64)),
                _ => json!(EXTREMES[rng.random_range(0..EXTREMES.len())]),
            }
        }
        4 => {
            if let Some(array) = target.as_array_mut() {
                match rng.random_bool(0.5) {
                    true => array.clear(),
                    false => {
                        if let Some(first) = array.first().cloned() {
                            array.extend(std::iter::repeat_n(first, rng.random_range(1..50)));
                        }
                    }
                }
            }
        }
        5 => {
            let length = [201, 16_385, 100_000][rng.random_range(0..3)];
            *target = "\u{1b}[2J|<b>\n".repeat(length / 9 + 1).into();
        }
        6 => {
            let depth = [14, 17, 200][rng.random_range(0..3)];
            let mut nested = target.take();
            for _ in 0..depth {
                nested = json!([nested]);
            }
            *target = nested;
        }
        _ => {
            // Runs of other processes: what the statistics group by.
            if let Some(object) = target.as_object_mut() {
                object.insert("process".to_owned(), rng.random_range(0..1_000u64).into());
            }
        }
    }
}

/// A histogram a reader must either refuse or take: forged headers, and
/// real encodings at the edges of what is allowed.
fn histogram_mutant(rng: &mut ChaCha8Rng) -> String {
    match rng.random_range(0..4) {
        0 => {
            let figures = rng.random_range(0..=6);
            let lowest = rng.random_range(0..=3);
            let highest = [0, 2, 1_000, 3_600_000_000_000, 3_600_000_000_001, 1 << 62, u64::MAX]
                [rng.random_range(0..7)];
            let payload: Vec<u8> = (0..rng.random_range(0..64)).map(|_| rng.random()).collect();
            let declared = [0, payload.len() as u32, u32::MAX][rng.random_range(0..3)];
            forged_histogram(figures, lowest, highest, &payload, declared)
        }
        1 => {
            // Real encodings, plain or deflated, of extreme values and counts.
            let highest = [2, 10_000_000_000, 3_600_000_000_000][rng.random_range(0..3)];
            let figures = rng.random_range(1..=3);
            let mut histogram =
                hdrhistogram::Histogram::<u64>::new_with_bounds(1, highest, figures).unwrap();
            for _ in 0..rng.random_range(0..20) {
                let value = rng.random_range(1..=highest);
                histogram.record_n(value, rng.random_range(1..1u64 << 37)).unwrap();
            }
            let mut bytes = Vec::new();
            match rng.random_bool(0.5) {
                true => V2Serializer::new().serialize(&histogram, &mut bytes).unwrap(),
                false => V2DeflateSerializer::new().serialize(&histogram, &mut bytes).unwrap(),
            };
            base64::engine::general_purpose::STANDARD.encode(bytes)
        }
        2 => {
            let plain = base64::engine::general_purpose::STANDARD
                .decode(forged_histogram(3, 1, 60_000_000_000, &[], 0))
                .unwrap();
            deflated(&plain[..rng.random_range(0..plain.len())])
        }
        _ => {
            let text: String =
                (0..rng.random_range(0..200)).map(|_| rng.random_range(' '..='~')).collect();
            text
        }
    }
}

fn collect_pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object {
                collect_pointers(
                    inner,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(array) => {
            for (i, inner) in array.iter().enumerate() {
                collect_pointers(inner, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}
