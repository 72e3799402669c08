//! spec/fixtures kept current: each workload's fixture is what `shootout
//! export-dataset` writes today (spec/README.md), byte for byte, so the Go and
//! JVM tests that read them check their codecs against the records and
//! reference aggregate Rust computes now. Rust has no reader of dataset files,
//! so the byte compare is also what checks each fixture's reference against
//! Rust's. `SHOOTOUT_UPDATE_EXPECTED=1` rewrites the fixtures instead.

use std::path::{Path, PathBuf};

use crate::common::*;
use shootout::catalog::WORKLOADS;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../spec/fixtures")
}

/// The fixtures with a schema, beyond one per workload: (name, workload, schema).
const WITH_SCHEMA: &[(&str, &str, &str)] =
    &[("jsonl-protobuf", "jsonl", "events.proto"), ("jsonl-avro", "jsonl", "events.avsc")];

/// Every fixture: its name, its workload and the schema it is typed by.
fn every_fixture() -> Vec<(&'static str, &'static str, Option<&'static str>)> {
    let plain = WORKLOADS.iter().map(|w| (w.name, w.name, None));
    plain
        .chain(WITH_SCHEMA.iter().map(|&(name, workload, schema)| (name, workload, Some(schema))))
        .collect()
}

/// `shootout export-dataset` for `workload` (typed by the fixtures' `schema`)
/// as spec/README.md says, into `dir`.
fn export(name: &str, workload: &str, schema: Option<&str>, dir: &Path) -> Vec<u8> {
    let size = match workload {
        "iex" => ["--packets", "200"],
        _ => ["--records", "300"],
    };
    let out = dir.join(format!("{name}.jsonl"));
    let schema = schema.map(|file| fixtures().join(file));
    stdout_of(
        shootout()
            .args(["export-dataset", "--workload", workload])
            .args(size)
            .args(
                schema.iter().flat_map(|path| [std::ffi::OsStr::new("--schema"), path.as_os_str()]),
            )
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap(),
    );
    std::fs::read(&out).unwrap()
}

/// Where `fixture` first differs from `written`: the line, both ways, cut short.
fn first_difference(fixture: &[u8], written: &[u8]) -> String {
    let (fixture, written) = (String::from_utf8_lossy(fixture), String::from_utf8_lossy(written));
    let (fixture, written): (Vec<&str>, Vec<&str>) =
        (fixture.lines().collect(), written.lines().collect());
    let Some(index) =
        (0..fixture.len().max(written.len())).find(|&i| fixture.get(i) != written.get(i))
    else {
        return "the same lines, different line endings".to_owned();
    };
    let show = |line: Option<&&str>| match line {
        Some(line) => line.chars().take(160).collect(),
        None => "(end of file)".to_owned(),
    };
    format!(
        "line {}:\n  fixture: {}\n  written: {}",
        index + 1,
        show(fixture.get(index)),
        show(written.get(index))
    )
}

/// One test, so that an update writes a new workload's fixture before anything
/// checks that it exists.
#[test]
fn every_workload_has_its_fixture_as_export_dataset_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let update = std::env::var_os("SHOOTOUT_UPDATE_EXPECTED").is_some();
    let mut stale = Vec::new();
    let fixtures_list = every_fixture();
    for &(name, workload, schema) in &fixtures_list {
        let written = export(name, workload, schema, dir.path());
        let path = fixtures().join(format!("{name}.jsonl"));
        if update {
            std::fs::write(&path, &written).unwrap();
            continue;
        }
        let fixture = std::fs::read(&path).unwrap_or_default();
        if fixture != written {
            stale.push(format!("{}, {}", path.display(), first_difference(&fixture, &written)));
        }
    }
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        let is_dataset = path.extension().is_some_and(|e| e == "jsonl");
        if is_dataset && !fixtures_list.iter().any(|(fixture, ..)| *fixture == name) {
            if update {
                std::fs::remove_file(&path).unwrap();
            } else {
                stale.push(format!("{}, the fixture of no workload", path.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "spec/fixtures differ from what export-dataset writes:\n{}\n\
         If the change is meant, rewrite them in the same commit (every language's tests read them):\n  \
         SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --test it -- spec::",
        stale.join("\n")
    );
}
