//! Helpers shared by the integration tests.

use std::io::Write;
use std::path::PathBuf;

use assert_cmd::Command;

pub fn shootout() -> Command {
    Command::cargo_bin("shootout").expect("binary built")
}

/// Every place, by its JSON pointer, where `results` (one `shootout-results/3`
/// object) departs from spec/results.schema.json, the schema every language's
/// runner is held to.
pub fn results_schema_errors(results: &serde_json::Value) -> Vec<String> {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../../../spec/results.schema.json"))
            .expect("spec/results.schema.json is JSON");
    let validator = jsonschema::draft202012::new(&schema)
        .expect("spec/results.schema.json is a draft 2020-12 schema");
    validator
        .iter_errors(results)
        .map(|error| format!("at {:?}: {error}", error.instance_path().as_str()))
        .collect()
}

pub fn assert_fits_results_schema(results: &serde_json::Value) {
    let errors = results_schema_errors(results);
    assert!(
        errors.is_empty(),
        "the results do not fit spec/results.schema.json:\n{}",
        errors.join("\n")
    );
}

/// A capture from `../shared/data/iex/`, or `None` (with the reason printed) when
/// that folder is absent, so only the tests that need it are skipped. The
/// reason is written to the stderr handle itself: the test harness captures
/// only the print macros, so the skip shows in `cargo test`'s output.
pub fn shared_capture(name: &str) -> Option<PathBuf> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/iex").join(name);
    if path.exists() {
        Some(path)
    } else {
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipping: {} not found (real captures live in ../shared/data/iex)",
            path.display()
        );
        None
    }
}

/// A classic little-endian µs pcap holding the given Ethernet frames.
pub fn pcap(frames: &[Vec<u8>]) -> Vec<u8> {
    pcap_of_link_type(1, frames)
}

/// A classic little-endian µs pcap of the given link type.
pub fn pcap_of_link_type(linktype: u32, frames: &[Vec<u8>]) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
    p.extend_from_slice(&2u16.to_le_bytes());
    p.extend_from_slice(&4u16.to_le_bytes());
    p.extend_from_slice(&[0; 8]);
    p.extend_from_slice(&65_535u32.to_le_bytes());
    p.extend_from_slice(&linktype.to_le_bytes());
    for frame in frames {
        p.extend_from_slice(&[0; 8]);
        p.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        p.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        p.extend_from_slice(frame);
    }
    p
}

/// Ethernet → IPv4 → UDP around `payload`.
pub fn udp_frame(payload: &[u8]) -> Vec<u8> {
    let mut f =
        vec![0x01, 0x00, 0x5e, 0x57, 0x15, 0x04, 0, 0x1e, 0x67, 0x9f, 0xc8, 0xef, 0x08, 0x00];
    f.extend_from_slice(&[0x45, 0]);
    f.extend_from_slice(&((28 + payload.len()) as u16).to_be_bytes());
    f.extend_from_slice(&[0, 0, 0x40, 0, 64, 17, 0, 0, 23, 226, 155, 132, 233, 215, 21, 4]);
    f.extend_from_slice(&[0x28, 0x8a, 0x28, 0x8a]);
    f.extend_from_slice(&((8 + payload.len()) as u16).to_be_bytes());
    f.extend_from_slice(&[0, 0]);
    f.extend_from_slice(payload);
    f
}

/// An IEX-TP DEEP 1.0 packet; `payload_len` and `count` as given, so tests can lie.
pub fn iex_packet(payload_len: u16, count: u16, body: &[u8]) -> Vec<u8> {
    let mut p = vec![1, 0, 0x04, 0x80];
    p.extend_from_slice(&1u32.to_le_bytes());
    p.extend_from_slice(&1u32.to_le_bytes());
    p.extend_from_slice(&payload_len.to_le_bytes());
    p.extend_from_slice(&count.to_le_bytes());
    p.extend_from_slice(&[0; 24]);
    p.extend_from_slice(body);
    p
}

pub fn temp_file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

pub fn generated_capture(packets: u64) -> Vec<u8> {
    shootout::input::generate::generate(shootout::input::generate::Options { packets, seed: 3 })
}

/// Start offsets of the packet records of a capture `generate` wrote.
pub fn pcap_records(pcap: &[u8]) -> Vec<usize> {
    shootout::input::generate::records(pcap).map(|(at, _, _)| at).collect()
}

/// A capture `generate` wrote, as pcapng.
pub fn pcapng_of(pcap: &[u8]) -> Vec<u8> {
    shootout::input::generate::pcapng(pcap, None)
}

/// Start offsets of the blocks of a little-endian pcapng.
pub fn pcapng_blocks(pcapng: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    while at + 12 <= pcapng.len() {
        starts.push(at);
        at += u32::from_le_bytes(pcapng[at + 4..at + 8].try_into().unwrap()) as usize;
    }
    starts
}

/// How `shootout inspect` is handed its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    File,
    /// `--input -`, from a pipe.
    Stdin,
    /// `/dev/stdin` fed by `cat … |`.
    Pipe,
    /// A named pipe (FIFO) a writer fills as the reader reads.
    Fifo,
    /// `<(cat …)`, as bash passes it: a /dev/fd path.
    ProcessSubstitution,
}

pub const EVERY_WAY: [Via; 5] =
    [Via::File, Via::Stdin, Via::Pipe, Via::Fifo, Via::ProcessSubstitution];

/// Runs `shootout inspect <args> <input>` with `path`'s bytes handed over `via`;
/// a hang fails the test rather than stalling it.
pub fn inspect_via(via: Via, path: &std::path::Path, args: &[&str]) -> std::process::Output {
    let timeout = std::time::Duration::from_secs(120);
    let binary = assert_cmd::cargo::cargo_bin("shootout");
    let bash = |script: &str| {
        let mut command = Command::new("bash");
        command.arg("-c").arg(script).arg(&binary).arg(path).args(args).timeout(timeout);
        command
    };
    match via {
        Via::File => {
            shootout().arg("inspect").args(args).arg(path).timeout(timeout).output().unwrap()
        }
        Via::Stdin => shootout()
            .arg("inspect")
            .args(args)
            .arg("-")
            .write_stdin(std::fs::read(path).unwrap())
            .timeout(timeout)
            .output()
            .unwrap(),
        Via::Pipe => bash(r#"cat "$1" | "$0" inspect "${@:2}" /dev/stdin"#).output().unwrap(),
        Via::ProcessSubstitution => bash(r#""$0" inspect "${@:2}" <(cat "$1")"#).output().unwrap(),
        Via::Fifo => {
            let dir = tempfile::tempdir().unwrap();
            let fifo = dir.path().join("capture.fifo");
            make_fifo(&fifo);
            let bytes = std::fs::read(path).unwrap();
            let writer_end = fifo.clone();
            // The reader may stop early on an error, so the writer's own result is not checked.
            std::thread::spawn(move || std::fs::write(writer_end, bytes));
            shootout().arg("inspect").args(args).arg(&fifo).timeout(timeout).output().unwrap()
        }
    }
}

/// Makes a named pipe (FIFO) at `path`.
pub fn make_fifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// The DOM of a local HTML file after headless Chromium ran its scripts, or
/// `None` (with the reason printed) when no Chromium is installed. CI sets
/// SHOOTOUT_REQUIRE_BROWSER so that a missing browser fails there instead.
pub fn chromium_dom(page: &std::path::Path) -> Option<String> {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("SHOOTOUT_REQUIRE_BROWSER").is_none(),
            "SHOOTOUT_REQUIRE_BROWSER is set but no chromium is on PATH (Debian: apt-get install chromium)"
        );
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipping: no chromium on PATH to render {} (Debian: apt-get install chromium)",
            page.display()
        );
        return None;
    };
    let profile = tempfile::tempdir().expect("temporary profile");
    let output = std::process::Command::new("timeout")
        .arg("120")
        .arg(browser)
        .args(chromium_flags(profile.path()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.canonicalize().unwrap().display()))
        .output()
        .expect("chromium starts");
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(String::from_utf8(output.stdout).expect("a UTF-8 DOM"))
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// Headless, as root in a sandbox-less CI, and without the background
/// connections a closed network refuses; virtual time lets the page's scripts finish.
fn chromium_flags(profile: &std::path::Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--virtual-time-budget=10000",
    ]
    .iter()
    .map(|flag| flag.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// The formats of the quick runs whose results files the report, compare and recommend tests read.
pub const SOME_FORMATS: &str = "msgpack-array,cbor-minicbor,protobuf-prost,bincode,postcard,borsh";

/// A results file of a quick `run` on the sql workload (exactly 5 runs, so
/// compare's test can reach significance), with `formats` (empty: all).
pub fn sql_results(dir: &tempfile::TempDir, name: &str, formats: &str) -> PathBuf {
    let path = dir.path().join(name);
    let mut command = shootout();
    command.args(["run", "--workload", "sql", "--records", "500", "--runs", "5", "--warmup", "0"]);
    if !formats.is_empty() {
        command.args(["--formats", formats]);
    }
    stdout_of(command.arg("--export-json").arg(&path).output().unwrap());
    path
}

/// A results file's JSON, changed by `edit`, written as `name` beside it.
pub fn edited(
    dir: &tempfile::TempDir,
    from: &std::path::Path,
    name: &str,
    edit: impl FnOnce(&mut serde_json::Value),
) -> PathBuf {
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(from).unwrap()).unwrap();
    edit(&mut value);
    temp_file(dir, name, &serde_json::to_vec(&value).unwrap())
}

/// The one line of a failed command's stderr.
pub fn one_line_error(output: &std::process::Output) -> String {
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

/// `shootout run` measuring once (one run of one throughput round) with no
/// warm-up: for tests of what a run reports, not of its timings.
pub fn quick_run() -> Command {
    let mut command = shootout();
    command.args(["run", "--runs", "1", "--warmup", "0", "--throughput-rounds", "1"]);
    command
}

/// Every workload but iex: those of field records, each with an embedded default.
pub const FIELD_WORKLOADS: [&str; 7] =
    ["user", "sql", "primitives", "object", "mixed", "strings", "longs"];

/// The header of a `mixed`, `strings` or `longs` CSV: f1 to f20.
pub fn csv_header() -> String {
    (1..=20).map(|i| format!("f{i}")).collect::<Vec<_>>().join(",")
}

/// A `mixed` CSV: the header, then one row per value of `f2` (a float
/// column), every other cell the same.
pub fn mixed_csv(f2: &[&str]) -> String {
    let rows =
        f2.iter().map(|f2| format!("a,{f2},3,4,e,6.5,7,8,9,10,11.5,12.5,m,n,15,16,17,r,s,t\n"));
    std::iter::once(csv_header() + "\n").chain(rows).collect()
}

/// `bytes` (JSON Lines) with the last digit of record `record`'s number
/// `key` changed: the same length, so the framing holds.
pub fn change_json_digit(bytes: &mut [u8], record: usize, key: &str) {
    let line = bytes.split(|&b| b == b'\n').take(record).map(|l| l.len() + 1).sum::<usize>();
    let key = format!("\"{key}\":");
    let key = key.as_bytes();
    let at = line + bytes[line..].windows(key.len()).position(|w| w == key).unwrap() + key.len();
    let last = at + bytes[at..].iter().position(|b| !b.is_ascii_digit()).unwrap() - 1;
    bytes[last] = if bytes[last] == b'1' { b'2' } else { b'1' };
}

/// Standard output of a command that must succeed (its stderr shown if not).
pub fn stdout_of(output: std::process::Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}
