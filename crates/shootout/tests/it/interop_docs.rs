//! docs/interop.md is enough to read shootout's streams: a consumer written
//! only from the documents (docs/interop.md, docs/dataset-format.md, the
//! IDL files in schemas/ and the formats' own specifications), in Python's
//! standard library (`fixtures/docs_reader.py`), decodes every record of the
//! streams `shootout interop --keep` writes and compares it field by field
//! with the dataset `shootout export-dataset` writes. Run as a user would:
//! the CLI, then `python3`. Skipped, with the reason printed, when there is
//! no `python3`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{change_json_digit, shootout, stdout_of};

/// The wires the reader checks, on both workloads (iex-tp: iex only).
const WIRES: [&str; 18] = [
    "json",
    "sbe",
    "iex-tp",
    "protobuf",
    "flatbuffers",
    "cbor-array",
    "bincode-legacy",
    "cbor-map",
    "msgpack-map",
    "msgpack-array",
    "avro",
    "thrift-binary",
    "thrift-compact",
    "bson",
    "ubjson",
    "capnp-unpacked",
    "capnp-packed",
    "flexbuffers",
];

fn reader() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/docs_reader.py")
}

/// `python3`, or `None` with the reason printed (to the stderr handle itself,
/// so the skip shows in `cargo test`'s output).
fn python() -> Option<&'static str> {
    match std::process::Command::new("python3").arg("--version").output() {
        Ok(output) if output.status.success() => Some("python3"),
        _ => {
            let _ = writeln!(
                std::io::stderr().lock(),
                "skipping: no python3 on PATH to run tests/fixtures/docs_reader.py"
            );
            None
        }
    }
}

/// The kept streams of one workload and its dataset file, made as a user
/// makes them: `interop --lang rust --keep` and `export-dataset` with the
/// same data options.
struct Workload {
    kept: PathBuf,
    dataset: PathBuf,
}

fn workload(dir: &Path, name: &str, data: &[&str]) -> Workload {
    let kept = dir.join(format!("kept-{name}"));
    let dataset = dir.join(format!("{name}.jsonl"));
    stdout_of(
        shootout()
            .args(["interop", "--workload", name, "--lang", "rust", "--formats"])
            .arg(WIRES.join(","))
            .args(data)
            .arg("--keep")
            .arg(&kept)
            .output()
            .unwrap(),
    );
    let output = shootout()
        .args(["export-dataset", "--workload", name])
        .args(data)
        .arg("--out")
        .arg(&dataset)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    Workload { kept, dataset }
}

fn read(python: &str, workloads: &[&Workload]) -> Output {
    let mut command = std::process::Command::new(python);
    command.arg(reader()).arg("--wires").arg(WIRES.join(","));
    for w in workloads {
        command.arg("--dataset").arg(&w.dataset);
    }
    for w in workloads {
        command.arg(&w.kept);
    }
    command.output().unwrap()
}

/// The number of records the reader checked for `wire` on `workload`
/// (summed over that wire's streams), from its `<wire> <workload> <stream>:
/// <n> records ok` lines.
fn checked(stdout: &str, wire: &str, workload: &str) -> usize {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix(&format!("{wire} {workload} "))?;
            let (_, verdict) = rest.split_once(": ")?;
            verdict.strip_suffix(" records ok")?.parse::<usize>().ok()
        })
        .sum()
}

#[test]
fn a_reader_written_from_the_docs_decodes_every_record_of_every_chosen_wire() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("capture.pcap");
    stdout_of(
        shootout()
            .args(["gen-capture", "--packets", "300", "--seed", "4", "--out"])
            .arg(&capture)
            .output()
            .unwrap(),
    );
    let iex = workload(dir.path(), "iex", &["--input", capture.to_str().unwrap()]);
    let user = workload(dir.path(), "user", &["--records", "60"]);

    let output = read(python, &[&iex, &user]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "the docs reader failed:\n{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for wire in WIRES {
        assert!(checked(&stdout, wire, "iex") > 0, "{wire} on iex was not checked:\n{stdout}");
        if wire != "iex-tp" {
            assert!(
                checked(&stdout, wire, "user") > 0,
                "{wire} on user was not checked:\n{stdout}"
            );
        }
    }

    // The same bytes with one value changed: the reader names the record.
    // user's JSON Lines: record 7's `tutorial` ends in another digit.
    let json = user.kept.join("rust-json-serde_json.bin");
    let mut bytes = std::fs::read(&json).unwrap();
    change_json_digit(&mut bytes, 7, "tutorial");
    std::fs::write(&json, bytes).unwrap();
    // iex's SBE: the first message's `size` (at byte 24 of the group's first
    // 31-byte entry, after the 8-byte header, the 8-byte root block and the
    // 4-byte group header) of record 5, one more.
    let sbe = iex.kept.join("rust-sbe.bin");
    let ends = std::fs::read(iex.kept.join("rust-sbe.ends")).unwrap();
    let start = u64::from_le_bytes(ends[4 * 8..5 * 8].try_into().unwrap()) as usize;
    let mut bytes = std::fs::read(&sbe).unwrap();
    assert_ne!(
        u16::from_le_bytes([bytes[start + 18], bytes[start + 19]]),
        0,
        "record 5 has messages"
    );
    let size = start + 8 + 8 + 4 + 24;
    bytes[size] = bytes[size].wrapping_add(1);
    std::fs::write(&sbe, bytes).unwrap();

    let output = read(python, &[&iex, &user]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(!output.status.success(), "a changed value went unnoticed:\n{stdout}");
    let verdict = |stream: &str| {
        let line = stdout.lines().find(|l| l.contains(stream)).unwrap_or_else(|| {
            panic!("no line for {stream}:\n{stdout}");
        });
        line.to_string()
    };
    let line = verdict("json user rust-json-serde_json.bin");
    assert!(line.contains("MISMATCH record 7: field tutorial"), "{line}");
    let line = verdict("sbe iex rust-sbe.bin");
    assert!(line.contains("MISMATCH record 5: field messages[0]."), "{line}");
    assert!(line.contains(".size: expected"), "{line}");
    // The other streams still read.
    assert!(checked(&stdout, "protobuf", "iex") > 0, "{stdout}");
    assert!(checked(&stdout, "json", "user") > 0, "{stdout}");

    // The reference changed instead: user's record 3 has another uid, and
    // every stream of every wire says so, so none is read without comparing.
    let text = std::fs::read_to_string(&user.dataset).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut record: serde_json::Value = serde_json::from_str(&lines[1 + 3]).unwrap();
    record["uid"] = (record["uid"].as_i64().unwrap() ^ 1).into();
    lines[1 + 3] = record.to_string();
    std::fs::write(&user.dataset, lines.join("\n") + "\n").unwrap();
    let output = read(python, &[&iex, &user]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(!output.status.success(), "{stdout}");
    let user_lines: Vec<&str> = stdout.lines().filter(|l| l.contains(" user ")).collect();
    for wire in WIRES.iter().filter(|w| **w != "iex-tp") {
        assert!(
            user_lines.iter().any(|l| l.starts_with(&format!("{wire} user "))),
            "no {wire} user line:\n{stdout}"
        );
    }
    for line in user_lines {
        assert!(line.contains(": MISMATCH record 3: field uid: expected"), "{line}");
    }
}
