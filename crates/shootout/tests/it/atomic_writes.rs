//! Files shootout writes are never lost: interrupted exports (SIGINT,
//! SIGTERM), failing writes (a full disk, a read-only directory, a device),
//! symlinks, hard links and dangling links leave every target exactly as it
//! was, or correctly replaced, and no temporary file behind.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::common::{one_line_error, shootout, stdout_of, temp_file};

/// The signals an export is interrupted with, by `kill`'s name and number.
const SIGNALS: [(&str, i32); 2] = [("INT", 2), ("TERM", 15)];

/// What a directory holds, entry by entry, to compare before and after.
#[derive(PartialEq, Eq)]
enum Entry {
    File(Vec<u8>),
    Link(PathBuf),
    Directory,
}

/// A file as its size and first bytes: a failed comparison stays readable.
impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Entry::File(bytes) => write!(
                f,
                "{} bytes: {:?}",
                bytes.len(),
                String::from_utf8_lossy(&bytes[..bytes.len().min(40)])
            ),
            Entry::Link(target) => write!(f, "link to {target:?}"),
            Entry::Directory => write!(f, "directory"),
        }
    }
}

fn snapshot(dir: &Path) -> BTreeMap<String, Entry> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let kind = path.symlink_metadata().unwrap().file_type();
            let entry = if kind.is_symlink() {
                Entry::Link(std::fs::read_link(&path).unwrap())
            } else if kind.is_dir() {
                Entry::Directory
            } else {
                Entry::File(std::fs::read(&path).unwrap())
            };
            (path.file_name().unwrap().to_string_lossy().into_owned(), entry)
        })
        .collect()
}

/// The temporary files of `target` in its directory: `.NAME.XXXXXX.tmp`.
fn temporaries(target: &Path) -> Vec<String> {
    let prefix = format!(".{}.", target.file_name().unwrap().to_string_lossy());
    std::fs::read_dir(target.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&prefix) && name.ends_with(".tmp"))
        .collect()
}

fn kill(signal: &str, pid: u32) {
    let status = Command::new("kill").args(["-s", signal, &pid.to_string()]).status().unwrap();
    assert!(status.success(), "kill -s {signal} {pid}");
}

/// Starts shootout with `args`, waits until the temporary file of `target`
/// is there, freezes the process (SIGSTOP) and, when that file is still there
/// (the export not yet renamed), sends `signal`, resumes it and returns how it
/// ended. Standard output is a pipe nobody reads, so an export to `-` blocks.
fn interrupt_mid_export(args: &[OsString], target: &Path, signal: &str) -> ExitStatus {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("shootout"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        if !temporaries(target).is_empty() {
            kill("STOP", child.id());
            if !temporaries(target).is_empty() {
                break;
            }
            kill("CONT", child.id());
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "shootout ended ({status}) before its export to {target:?} could be interrupted"
            );
        }
        assert!(Instant::now() < deadline, "no temporary file of {target:?} appeared");
        std::thread::sleep(Duration::from_millis(1));
    }
    kill(signal, child.id());
    kill("CONT", child.id());
    child.wait().unwrap()
}

fn args(parts: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    parts.iter().map(|p| p.as_ref().to_owned()).collect()
}

/// A quick run's exports: the JSON and Markdown files as staged files, the
/// HTML page (larger than a pipe holds) to standard output.
fn quick_run_exports(json: &Path, markdown: &Path) -> Vec<OsString> {
    args(&[
        &"run",
        &"--workload",
        &"user",
        &"--records",
        &"500",
        &"--runs",
        &"1",
        &"--warmup",
        &"0",
        &"--formats",
        &"postcard",
        &"--force",
        &"--export-json",
        &json,
        &"--export-markdown",
        &markdown,
        &"--export-html",
        &"-",
    ])
}

/// Interrupts `command` with each signal in turn, each time in a fresh
/// directory holding `files` (names and earlier contents) while it writes the
/// last of them, and asserts that it ended by that signal and left the
/// directory exactly as it was.
fn assert_interruptions_lose_nothing(
    files: &[(&str, &str)],
    command: impl Fn(&[PathBuf]) -> Vec<OsString>,
) {
    for (signal, number) in SIGNALS {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<PathBuf> =
            files.iter().map(|(name, earlier)| temp_file(&dir, name, earlier.as_bytes())).collect();
        let before = snapshot(dir.path());
        let status = interrupt_mid_export(&command(&paths), paths.last().unwrap(), signal);
        assert_eq!(status.signal(), Some(number), "{status}");
        assert_eq!(snapshot(dir.path()), before, "SIG{signal}");
    }
}

#[test]
fn run_interrupted_mid_export_leaves_every_export_as_it_was() {
    assert_interruptions_lose_nothing(
        &[("results.json", "an earlier run's JSON"), ("results.md", "an earlier run's tables")],
        |paths| quick_run_exports(&paths[0], &paths[1]),
    );
}

#[test]
fn report_interrupted_mid_export_leaves_every_export_as_it_was() {
    let inputs = tempfile::tempdir().unwrap();
    let results = inputs.path().join("results.json");
    stdout_of(
        shootout()
            .args(quick_run_exports(&results, &inputs.path().join("results.md")))
            .output()
            .unwrap(),
    );
    assert_interruptions_lose_nothing(&[("report.md", "an earlier report")], |paths| {
        args(&[
            &"report",
            &results,
            &"--force",
            &"--export-markdown",
            &paths[0],
            &"--export-html",
            &"-",
        ])
    });
}

#[test]
fn export_dataset_interrupted_mid_write_leaves_the_old_file() {
    // About 100 MB of JSON Lines: long enough to be caught writing.
    assert_interruptions_lose_nothing(&[("primitives.jsonl", "an earlier dataset")], |paths| {
        args(&[
            &"export-dataset",
            &"--workload",
            &"primitives",
            &"--records",
            &"200000",
            &"--force",
            &"--out",
            &paths[0],
        ])
    });
}

/// Runs `script` with `sh` as root of its own user and mount namespaces
/// (`$0`: the shootout binary, `$1`: an empty directory to mount a tmpfs on,
/// seen only there), or `None`, with the reason printed, where the system
/// does not allow that.
fn in_namespace(script: &str) -> Option<std::process::Output> {
    let mountpoint = tempfile::tempdir().unwrap();
    let allowed = Command::new("unshare")
        .args(["-rm", "sh", "-c", "mount -t tmpfs tmpfs \"$0\""])
        .arg(mountpoint.path())
        .output();
    if !allowed.as_ref().is_ok_and(|o| o.status.success()) {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipping: cannot mount a tmpfs in a user namespace here (unshare -rm: {allowed:?})"
        );
        return None;
    }
    let output = Command::new("unshare")
        .args(["-rm", "sh", "-c", script])
        .arg(assert_cmd::cargo::cargo_bin("shootout"))
        .arg(mountpoint.path())
        .output()
        .unwrap();
    Some(output)
}

/// Fails unless an [`in_namespace`] script printed `stdout` and one line of
/// error holding every one of `needles`.
fn assert_script_said(output: &std::process::Output, stdout: &str, needles: &[&str]) {
    assert_eq!(String::from_utf8_lossy(&output.stdout), stdout);
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(error.lines().count(), 1, "{error}");
    for needle in needles {
        assert!(error.contains(needle), "{needle:?} missing: {error}");
    }
}

#[test]
fn a_full_disk_mid_write_leaves_the_old_file_and_no_temporary_file() {
    let Some(output) = in_namespace(
        r#"mount -t tmpfs -o size=1m tmpfs "$1" && printf old > "$1/data.jsonl" || exit 99
        "$0" export-dataset --workload primitives --records 20000 --force --out "$1/data.jsonl"
        echo "status $?"; ls -A "$1"; cat "$1/data.jsonl""#,
    ) else {
        return;
    };
    assert_script_said(
        &output,
        "status 1\ndata.jsonl\nold",
        &["/data.jsonl: cannot write", "No space left on device"],
    );
}

#[test]
fn a_full_disk_is_found_before_any_work() {
    let Some(output) = in_namespace(
        r#"mount -t tmpfs -o size=64k tmpfs "$1" || exit 99
        head -c 1000000 /dev/zero > "$1/filler" 2>/dev/null
        "$0" gen-csv --workload mixed --out "$1/mixed.csv"
        echo "status $?"; ls -A "$1""#,
    ) else {
        return;
    };
    assert_script_said(
        &output,
        "status 1\nfiller\n",
        &["/mixed.csv: cannot write a file in", "No space left"],
    );
}

/// Each command that writes a file, its output in a read-only directory and
/// its input missing: the output's error comes first, so paths are checked
/// before the input is read. Root included, which file permissions would not stop.
#[test]
fn a_read_only_directory_is_found_before_the_input_is_read() {
    let Some(output) = in_namespace(
        r#"mount -t tmpfs tmpfs "$1" && printf old > "$1/out" && mount -o remount,ro "$1" || exit 99
        "$0" run --input /no/such.pcap --force --export-json "$1/out"; echo "status $?"
        "$0" report /no/such.json --force --export-html "$1/out"; echo "status $?"
        "$0" export-dataset --input /no/such.csv --workload mixed --force --out "$1/out"; echo "status $?"
        "$0" gen-capture --force --out "$1/out"; echo "status $?"
        "$0" gen-csv --workload longs --force --out "$1/out"; echo "status $?"
        ls -A "$1"; cat "$1/out""#,
    ) else {
        return;
    };
    assert_eq!(String::from_utf8_lossy(&output.stdout), "status 1\n".repeat(5) + "out\nold");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 5, "{stderr}");
    for line in stderr.lines() {
        assert!(
            line.contains("/out: cannot write a file in") && line.contains("Read-only file system"),
            "{line}"
        );
    }
}

/// `export-dataset` of a few sql records to `out`, replacing what is there.
fn export_sql_dataset(out: &Path) {
    stdout_of(
        shootout()
            .args(["export-dataset", "--workload", "sql", "--records", "10"])
            .args(["--force", "--out"])
            .arg(out)
            .output()
            .unwrap(),
    );
}

#[test]
fn a_symlink_stays_a_link_and_its_file_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    let file = dir.path().join("data/sql.jsonl");
    std::fs::write(&file, "old").unwrap();
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink("data/sql.jsonl", &link).unwrap();
    export_sql_dataset(&link);
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("data/sql.jsonl"));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.starts_with(r#"{"schema":"shootout-dataset/1""#), "{written}");
    assert_eq!(snapshot(&dir.path().join("data")).into_keys().collect::<Vec<_>>(), ["sql.jsonl"]);
}

#[test]
fn hard_links_are_one_file_and_a_replaced_one_keeps_the_others_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let first = temp_file(&dir, "first.json", b"old");
    let second = dir.path().join("second.csv");
    std::fs::hard_link(&first, &second).unwrap();
    let before = snapshot(dir.path());
    assert_refused_as_one_file(&first, &second, &["--force"]);
    assert_eq!(snapshot(dir.path()), before);

    export_sql_dataset(&first);
    assert!(std::fs::read_to_string(&first).unwrap().contains("shootout-dataset/1"));
    assert_eq!(std::fs::read(&second).unwrap(), b"old");
}

#[test]
fn dangling_links_are_one_file_and_writing_through_one_creates_it() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    std::os::unix::fs::symlink("new.jsonl", &first).unwrap();
    std::os::unix::fs::symlink("new.jsonl", &second).unwrap();
    assert_refused_as_one_file(&first, &second, &[]);

    stdout_of(
        shootout()
            .args(["export-dataset", "--workload", "sql", "--records", "10", "--out"])
            .arg(&first)
            .output()
            .unwrap(),
    );
    assert!(first.symlink_metadata().unwrap().is_symlink());
    let created = std::fs::read_to_string(dir.path().join("new.jsonl")).unwrap();
    assert!(created.contains("shootout-dataset/1"));
}

#[test]
fn a_device_is_written_in_place_and_never_deleted() {
    let output = shootout()
        .args(["export-dataset", "--workload", "sql", "--records", "10"])
        .args(["--force", "--out", "/dev/full"])
        .output()
        .unwrap();
    let error = one_line_error(&output);
    assert!(
        error.contains("/dev/full: cannot write") && error.contains("No space left"),
        "{error}"
    );
    let full = std::fs::metadata("/dev/full").unwrap();
    assert!(full.file_type().is_char_device());

    // A FIFO given as an output: written as is, still a FIFO after.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader_end = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read(reader_end).unwrap());
    stdout_of(
        shootout()
            .args(["gen-csv", "--workload", "longs", "--records", "5", "--force", "--out"])
            .arg(&fifo)
            .output()
            .unwrap(),
    );
    let read = String::from_utf8(reader.join().unwrap()).unwrap();
    assert_eq!(read.lines().count(), 6, "{read}");
    assert!(fifo.metadata().unwrap().file_type().is_fifo());
}

#[test]
fn generators_write_to_standard_output_what_they_write_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    for (command, name) in [
        (&["gen-capture", "--packets", "300", "--seed", "4"][..], "capture.pcap"),
        (&["gen-csv", "--workload", "mixed", "--records", "300"][..], "mixed.csv"),
    ] {
        let file = dir.path().join(name);
        stdout_of(shootout().args(command).arg("--out").arg(&file).output().unwrap());
        let output = shootout().args(command).args(["--out", "-"]).output().unwrap();
        assert!(output.status.success(), "{output:?}");
        assert_eq!(output.stdout, std::fs::read(&file).unwrap(), "{name}");
    }
    assert_eq!(
        snapshot(dir.path()).into_keys().collect::<Vec<_>>(),
        ["capture.pcap", "mixed.csv"],
        "no file named - and no temporary file"
    );
}

/// `run` exporting JSON to `first` and CSV to `second` (with `extra`
/// options) stops with one line saying they name the same file.
fn assert_refused_as_one_file(first: &Path, second: &Path, extra: &[&str]) {
    let refused = shootout()
        .args(["run", "--runs", "1"])
        .args(extra)
        .arg("--export-json")
        .arg(first)
        .arg("--export-csv")
        .arg(second)
        .output()
        .unwrap();
    assert!(one_line_error(&refused).contains("name the same file"));
}
