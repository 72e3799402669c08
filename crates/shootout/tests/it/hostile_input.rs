//! The hostile battery's twelve classes of failure on the new doors (JSON
//! Lines, any CSV, `--schema`, `replay`, `interop --decode`, `report
//! --attach`), each reproduced: every case ends in one short line naming the
//! file and what was expected, or runs as it should, and never hangs,
//! aborts or overwrites what it reads. Inputs are small or generated
//! lazily, so each case takes well under a second or two.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::*;

/// Far beyond any of these cases in a debug build, far short of a hang.
const HANG: Duration = Duration::from_secs(30);

/// The longest line any of them may write.
const SHORT_LINE: usize = 450;

/// Every line of standard error, each checked to be short.
fn short_lines(output: &std::process::Output) -> Vec<String> {
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    for line in stderr.lines() {
        assert!(line.chars().count() <= SHORT_LINE, "{} characters: {line}", line.chars().count());
    }
    stderr.lines().map(str::to_owned).collect()
}

/// The `error:` line of `command`, which must fail within [`HANG`] with
/// that line last and alone (a line of what it read may come before),
/// naming `file` and saying `expected`.
fn refused(command: &mut assert_cmd::Command, file: &Path, expected: &str) -> String {
    let output = command.timeout(HANG).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = short_lines(&output);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    let line = lines.last().unwrap().clone();
    assert!(line.starts_with("error: "), "{lines:?}");
    assert!(line.contains(&file.display().to_string()), "{} not named: {line}", file.display());
    assert!(line.contains(expected), "no {expected:?} in: {line}");
    line
}

/// `run` of `workload` on `input` with one quick format.
fn run_on(workload: &str, input: &Path) -> assert_cmd::Command {
    let mut command = quick_run();
    command.args(["--workload", workload, "--formats", "json-serde_json", "--input"]).arg(input);
    command
}

/// `run` of `workload` on a file `name` holding `bytes`, refused in one
/// line naming it and saying `expected`.
fn input_refused(
    dir: &tempfile::TempDir,
    workload: &str,
    name: &str,
    bytes: &[u8],
    expected: &str,
) {
    let input = temp_file(dir, name, bytes);
    refused(&mut run_on(workload, &input), &input, expected);
}

fn gzipped(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// `run --workload jsonl` of a line, with the schema `schema`.
fn jsonl_with_schema(dir: &tempfile::TempDir, schema: &Path) -> assert_cmd::Command {
    let mut command = run_on("jsonl", &temp_file(dir, "in.jsonl", b"{\"id\":1}\n"));
    command.arg("--schema").arg(schema);
    command
}

/// `interop --decode dir` of Rust's json streams of 40 `user` records.
fn decode(dir: &Path) -> assert_cmd::Command {
    let mut command = shootout();
    command
        .args(["interop", "--workload", "user", "--records", "40", "--lang", "rust"])
        .args(["--formats", "json", "--decode"])
        .arg(dir);
    command
}

/// Rust's json stream of 40 `user` records, its `.ends` and its manifest
/// (as from outside: language `outside`), in a new folder.
fn outside_stream() -> tempfile::TempDir {
    let kept = tempfile::tempdir().unwrap();
    stdout_of(
        shootout()
            .args(["interop", "--workload", "user", "--records", "40", "--lang", "rust"])
            .args(["--formats", "json", "--keep"])
            .arg(kept.path())
            .output()
            .unwrap(),
    );
    let outside = tempfile::tempdir().unwrap();
    for ext in ["bin", "ends"] {
        let from = kept.path().join(format!("rust-json-serde_json.{ext}"));
        std::fs::copy(from, outside.path().join(format!("py.{ext}"))).unwrap();
    }
    let manifest = kept.path().join("rust-json-serde_json.json");
    let mut manifest: Value = serde_json::from_slice(&std::fs::read(manifest).unwrap()).unwrap();
    manifest["language"] = "outside".into();
    manifest["stream"] = "py.bin".into();
    std::fs::write(outside.path().join("py.json"), manifest.to_string()).unwrap();
    outside
}

/// A `.proto` in `dir` importing `import`, whose record is `R`.
fn importing(dir: &tempfile::TempDir, import: &str) -> PathBuf {
    let text =
        format!("syntax = \"proto3\";\nimport \"{import}\";\nmessage R {{ int64 id = 1; }}\n");
    temp_file(dir, "importing.proto", text.as_bytes())
}

/// Class 1: every file read whole has a cap and a JSON Lines line is read
/// within one, so `/dev/zero`, a gzip of endless `[` or a schema linked to
/// `/dev/zero` is one line naming it, not an abort.
#[test]
fn no_file_is_read_without_a_cap() {
    let zero = Path::new("/dev/zero");
    refused(
        &mut run_on("jsonl", zero),
        zero,
        "line 1: more than 16777216 bytes; expected at most 16777216 (16 MiB) for a JSON Lines line",
    );

    let dir = tempfile::tempdir().unwrap();
    input_refused(
        &dir,
        "jsonl",
        "brackets.jsonl.gz",
        &gzipped(&vec![b'['; 1 << 20]),
        "line 1, column 513: arrays and objects nested deeper than 512 levels",
    );

    let linked = dir.path().join("zero.proto");
    std::os::unix::fs::symlink(zero, &linked).unwrap();
    let proto = importing(&dir, "zero.proto");
    refused(&mut jsonl_with_schema(&dir, &proto), &linked, "not a regular file (a device)");
    let avsc = dir.path().join("zero.avsc");
    std::os::unix::fs::symlink(zero, &avsc).unwrap();
    refused(&mut jsonl_with_schema(&dir, &avsc), &avsc, "not a regular file (a device)");
    let large = dir.path().join("large.avsc");
    std::fs::File::create(&large).unwrap().set_len(5 << 20).unwrap();
    refused(
        &mut jsonl_with_schema(&dir, &large),
        &large,
        "5242880 bytes; expected at most 4194304 (4 MiB) for a schema file",
    );

    let outside = outside_stream();
    let manifest = outside.path().join("py.json");
    std::fs::remove_file(&manifest).unwrap();
    std::os::unix::fs::symlink(zero, &manifest).unwrap();
    refused(&mut decode(outside.path()), &manifest, "not a regular file (a device)");
}

/// A CSV of `columns` columns named `c0`, `c1`, … and one row of 1s.
fn wide_csv(dir: &tempfile::TempDir, columns: usize) -> PathBuf {
    let header: Vec<String> = (0..columns).map(|i| format!("c{i}")).collect();
    let text = format!("{}\n{}\n", header.join(","), vec!["1"; columns].join(","));
    temp_file(dir, &format!("wide-{columns}.csv"), text.as_bytes())
}

/// Class 5 (class 2's reading is `input::columns`' unit test of 100,000
/// columns): the listing of a wide CSV's columns is one short line, cut
/// with the number it left out.
#[test]
fn a_wide_csv_lists_its_columns_in_one_short_line() {
    let dir = tempfile::tempdir().unwrap();
    let output = run_on("csv", &wide_csv(&dir, 3_000)).timeout(HANG).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = short_lines(&output);
    let listing = lines.iter().find(|l| l.contains("3000 columns: ")).expect("the columns");
    assert!(listing.contains(": c0 (integer), c1 (integer), "), "{listing}");
    assert!(listing.ends_with(" more)"), "{listing}");
}

/// Class 3: the `csv` workload refuses what the f1..f20 reader refuses: a
/// quote left open to the end of the file, a float beyond a double.
#[test]
fn the_csv_workload_refuses_an_open_quote_and_an_overflowing_float() {
    let dir = tempfile::tempdir().unwrap();
    input_refused(
        &dir,
        "csv",
        "open.csv",
        b"id,text\n1,\"never closed\n2,x\n",
        "line 2, column 2 (text): unterminated quote: the quoted cell starting there runs to the end of the file",
    );
    input_refused(
        &dir,
        "csv",
        "overflow.csv",
        b"id,price\n1,2.5\n2,1e400\n",
        "line 3, column 2 (price): '1e400' is beyond the range of a 64-bit float",
    );
}

/// Class 4: send times at both ends of i64 are refused in one line, where
/// the schedule's arithmetic wrapped and a replay thread spun forever.
#[test]
fn replay_refuses_send_times_beyond_what_a_schedule_holds() {
    let dir = tempfile::tempdir().unwrap();
    let mut capture = generated_capture(200);
    // Ethernet, IPv4 and UDP, then the IEX-TP header: version 1, protocol 0x8004, …, send time at 32.
    let iex = |frame: &[u8]| frame.len() > 42 + 40 && frame[42..46] == [1, 0, 0x04, 0x80];
    let packets: Vec<usize> = shootout::input::generate::records(&capture)
        .filter(|(_, _, frame)| iex(frame))
        .map(|(at, _, _)| at + 16 + 42 + 32)
        .collect();
    // i64::MIN and i64::MAX alternating, after enough of i64::MIN that the
    // first packet holding a trade or a price update (the first record) has it.
    let half = packets.len() / 2;
    for (i, send_time) in packets.into_iter().enumerate() {
        let extreme = if i < half || i % 2 == 0 { i64::MIN } else { i64::MAX };
        capture[send_time..send_time + 8].copy_from_slice(&extreme.to_le_bytes());
    }
    let path = temp_file(&dir, "extreme.pcap", &capture);
    let mut replay = shootout();
    replay.args(["replay", "--formats", "bincode", "--speed", "1,max", "--input"]).arg(&path);
    refused(&mut replay, &path, "lie 2^63 ns (292 years) or more apart");
}

/// Class 5: a member name of 200,000 characters in a schema violation is
/// cut, with its length, and no line of the run passes the bound.
#[test]
fn a_long_unknown_member_is_cut_in_its_violation() {
    let dir = tempfile::tempdir().unwrap();
    let name = "z".repeat(200_000);
    let line = format!("{{\"{name}\":1}}\n");
    let input = temp_file(&dir, "long.jsonl", line.as_bytes());
    let schema = temp_file(&dir, "r.proto", b"syntax = \"proto3\";\nmessage R { int64 id = 1; }\n");
    let output =
        run_on("jsonl", &input).arg("--schema").arg(&schema).timeout(HANG).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    let violation = stderr.lines().next().unwrap();
    assert!(violation.ends_with("… (200000 bytes): no such field in message R"), "{violation}");
    for line in stderr.lines() {
        assert!(line.chars().count() <= SHORT_LINE, "{} characters: {line}", line.len());
    }
}

/// Class 6: a FIFO where a file is expected (a manifest, a stream, a
/// `.proto` import, an `.avsc`, the `--schema` itself) is refused as what
/// it is; nothing waits for a writer that never comes.
#[test]
fn a_fifo_where_a_file_is_expected_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let fifo_import = dir.path().join("fifo.proto");
    make_fifo(&fifo_import);
    let proto = importing(&dir, "fifo.proto");
    refused(&mut jsonl_with_schema(&dir, &proto), &fifo_import, "not a regular file (a FIFO)");
    for schema in ["schema.avsc", "schema.proto"] {
        let fifo = dir.path().join(schema);
        make_fifo(&fifo);
        refused(&mut jsonl_with_schema(&dir, &fifo), &fifo, "not a regular file (a FIFO)");
    }

    for file in ["py.json", "py.bin", "py.ends"] {
        let outside = outside_stream();
        let path = outside.path().join(file);
        std::fs::remove_file(&path).unwrap();
        make_fifo(&path);
        refused(&mut decode(outside.path()), &path, "not a regular file (a FIFO)");
    }
}

/// Class 8: errors with the place and the right words.
#[test]
fn errors_name_the_place_in_the_right_words() {
    let dir = tempfile::tempdir().unwrap();
    let avsc = temp_file(&dir, "bad.avsc", b"{\"type\": \"record\",\n  \"name\" \"R\"}\n");
    refused(
        &mut jsonl_with_schema(&dir, &avsc),
        Path::new("bad.avsc"),
        "bad.avsc: line 2, column 10: not JSON (expected `:`)",
    );

    let mut corrupt = gzipped(&b"{\"a\":[1,2,3]}\n".repeat(20_000));
    // The CRC-32 of the text, in the gzip trailer: found wrong at the end.
    let crc = corrupt.len() - 8;
    corrupt[crc] ^= 0x5a;
    input_refused(
        &dir,
        "jsonl",
        "corrupt.jsonl.gz",
        &corrupt,
        "line 20001, decompressed byte 280000: corrupt gzip stream: ",
    );

    for import in ["/etc/passwd", "../outside.proto"] {
        let proto = importing(&dir, import);
        refused(
            &mut jsonl_with_schema(&dir, &proto),
            Path::new("importing.proto"),
            &format!("line 2, column 8: import \"{import}\" is outside the schema's folder"),
        );
    }

    let folder = dir.path().join("folder.proto");
    std::fs::create_dir(&folder).unwrap();
    refused(&mut jsonl_with_schema(&dir, &folder), &folder, "not a regular file (a directory)");

    let outside = outside_stream();
    let manifest = outside.path().join("py.json");
    let mut edited: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    edited["language"] = "go".into();
    std::fs::write(&manifest, edited.to_string()).unwrap();
    refused(
        &mut decode(outside.path()),
        &manifest,
        "is one of shootout's own (rust, go, java, jvm)",
    );
}

/// Class 9: integers are kept exactly up to 4,300 digits, and one longer is
/// refused naming that limit (docs/dataset-format.md says so).
#[test]
fn an_integer_beyond_4300_digits_is_refused_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    input_refused(
        &dir,
        "jsonl",
        "long.jsonl",
        format!("[{}]\n", "7".repeat(4_301)).as_bytes(),
        "line 1, column 4303: a number of more than 4300 digits before its point or exponent; integers are kept exactly up to 4300 digits",
    );
}

/// Class 10: an export that is the input, however named, is refused even
/// with `--force`, and the input is left as it was.
#[test]
fn an_export_onto_the_input_is_refused_even_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let input = temp_file(&dir, "in.jsonl", b"{\"a\":1}\n");
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    for export in [&input, &link] {
        let mut run = run_on("jsonl", &input);
        run.arg("--export-json").arg(export).arg("--force");
        refused(&mut run, &input, "give the output a path of its own");
        assert_eq!(std::fs::read(&input).unwrap(), b"{\"a\":1}\n");
    }
    let mut dataset = shootout();
    dataset.args(["export-dataset", "--workload", "jsonl", "--force", "--input"]).arg(&input);
    refused(dataset.arg("--out").arg(&input), &input, "is the input");
    assert_eq!(std::fs::read(&input).unwrap(), b"{\"a\":1}\n");
}

/// Each forgery of `genuine`, attached to a `report`: refused in one short
/// line naming the file and saying what the forgery expects (its JSON path,
/// what was expected).
fn forgeries_refused(dir: &tempfile::TempDir, genuine: &Value, forgeries: &[Forgery]) {
    for (name, forge, said) in forgeries {
        let mut forged = genuine.clone();
        forge(&mut forged);
        let file = temp_file(dir, &format!("{name}.json"), forged.to_string().as_bytes());
        let error = shootout::report::merge(&[], false, std::slice::from_ref(&file), false).err();
        let line = format!("{:#}", error.unwrap_or_else(|| panic!("{name} was taken")));
        assert!(line.starts_with(&file.display().to_string()), "{name}: {line}");
        assert!(line.contains(said), "{name}: no {said:?} in {line}");
        assert!(!line.contains('\n') && line.len() <= SHORT_LINE, "{name}: {line}");
    }
}

/// A name, an edit of a genuine document and what its refusal says.
type Forgery = (&'static str, fn(&mut Value), &'static str);

/// The JSON `command` exports to `name` in `dir`.
fn exported(dir: &tempfile::TempDir, name: &str, command: &mut assert_cmd::Command) -> Value {
    let path = dir.path().join(name);
    stdout_of(command.arg("--export-json").arg(&path).output().unwrap());
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

/// Class 11: a replay's results, forged, are refused by `report --attach`
/// in one line with their JSON path, before anything reaches a page; so
/// are forged interop, evolution and robustness matrices.
#[test]
fn forged_attachments_are_refused_by_report_attach() {
    let dir = tempfile::tempdir().unwrap();
    let capture = temp_file(&dir, "replayed.pcap", &generated_capture(300));
    let mut replay = shootout();
    replay
        .args(["replay", "--formats", "bincode", "--speed", "max", "--transport", "ring"])
        .args(["--max-records", "100", "--warmup-records", "10", "--input"])
        .arg(&capture);
    let genuine = exported(&dir, "replay.json", &mut replay);
    forgeries_refused(
        &dir,
        &genuine,
        &[
            ("negative", |v| v["languages"][0]["runs"][0]["sent"] = json!(-5), "runs[0].sent"),
            ("1e30", |v| v["rows"][0]["received"] = json!(1e30), "rows[0].received"),
            (
                "garbage histogram",
                |v| v["languages"][0]["runs"][0]["latency"] = "AAAA////".into(),
                "languages[0].runs[0].latency: ",
            ),
            (
                "more received than sent",
                |v| v["languages"][0]["runs"][0]["received"] = json!(1_000_000),
                "expected at most the records sent",
            ),
            ("no runs", |v| v["runs"] = json!([]), "at runs: no run"),
            (
                "no language's runs",
                |v| v["languages"][0]["runs"] = json!([]),
                "at languages[0].runs: no run",
            ),
        ],
    );
    let replayed = dir.path().join("replay.json");
    let document =
        shootout::saved::Document::open(&replayed, "replay.json", &shootout::saved::ATTACHMENT)
            .unwrap();
    let attached = document.attachment::<shootout::replay::Document>().unwrap();
    assert_eq!(attached["rows"], genuine["rows"], "the rows, computed again, are those written");

    let mut evolution = shootout();
    evolution.args(["evolution", "--formats", "rkyv"]);
    let genuine = exported(&dir, "evolution.json", &mut evolution);
    forgeries_refused(
        &dir,
        &genuine,
        &[
            (
                "evolution negative",
                |v| v["formats"][0]["cells"][0]["records"]["ok"] = json!(-1),
                "at formats[0].cells[0].records.ok: invalid value",
            ),
            (
                "evolution counted twice",
                |v| v["formats"][0]["cells"][0]["records"]["ok"] = v["records"].clone(),
                "expected the matrix's 29 records counted once",
            ),
            (
                "evolution silent hidden",
                |v| {
                    let records = &mut v["formats"][0]["cells"][0]["records"];
                    records["error"] = json!(records["error"].as_u64().unwrap() - 1);
                    records["silent"] = json!(1);
                },
                "and the worst of them as the outcome",
            ),
            ("evolution empty", |v| v["formats"] = json!([]), "at formats: none"),
        ],
    );

    let mut robustness = shootout();
    robustness
        .args(["robustness", "--workload", "user", "--records", "200", "--formats", "bincode"])
        .args(["--cases", "200", "--sample", "20", "--reproducers"])
        .arg(dir.path().join("reproducers"));
    let genuine = exported(&dir, "robustness.json", &mut robustness);
    forgeries_refused(
        &dir,
        &genuine,
        &[
            (
                "robustness 1e30",
                |v| v["formats"][0]["counts"]["rejected"] = json!(1e30),
                "at formats[0].counts: invalid type: floating point `1e+30`",
            ),
            (
                "robustness miscounted",
                |v| v["formats"][0]["cases"] = json!(199),
                "expected its 199 cases, each once",
            ),
            (
                "robustness by mutation",
                |v| v["formats"][0]["by_mutation"] = json!({}),
                "at formats[0].by_mutation: 0 ",
            ),
            (
                "robustness records",
                |v| v["formats"][0]["records"] = json!(21),
                "expected at most the 20 sample records",
            ),
        ],
    );

    let mut interop = shootout();
    interop.args(["interop", "--workload", "user", "--records", "40", "--lang", "rust"]);
    let genuine = exported(&dir, "interop.json", interop.args(["--formats", "json"]));
    forgeries_refused(
        &dir,
        &genuine,
        &[
            ("interop empty", |v| v["wires"] = json!([]), "at wires: none"),
            (
                "interop stray cell",
                |v| v["wires"][0]["cells"][0]["producer"] = "python/json".into(),
                "\"python/json\" read by \"rust/json-serde_json\"; expected one of the wire format's producers",
            ),
            (
                "interop records",
                |v| v["wires"][0]["producers"][0]["records"] = json!(41),
                "expected at most the matrix's 40 records",
            ),
            (
                "interop status",
                |v| v["wires"][0]["cells"][0]["status"] = "fine".into(),
                "at wires[0].cells[0].status: unknown variant",
            ),
        ],
    );
}

/// Class 12: one column given two types is refused before the file is read.
#[test]
fn a_column_given_two_types_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let csv = temp_file(&dir, "ids.csv", b"id,name\n1,a\n");
    let output =
        run_on("csv", &csv).args(["--column-types", "id=integer,id=text"]).output().unwrap();
    let line = one_line_error(&output);
    assert!(
        line.contains("--column-types gives column 'id' two types, integer and text; give it one"),
        "{line}"
    );
}
