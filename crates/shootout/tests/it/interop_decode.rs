//! `shootout interop --decode DIR` as a user runs it, Rust only (no Go or
//! JVM build): streams written "outside" (here: copies of Rust's, one with a
//! value changed) join the matrix as producers; a bad manifest is one clear
//! error line.

use std::path::Path;

use crate::common::{change_json_digit, one_line_error, shootout, stdout_of};
use serde_json::Value;

const RUN: [&str; 6] = ["--workload", "user", "--records", "40", "--lang", "rust"];
const FORMATS: &str = "json,msgpack-map,flatbuffers";

/// Rust's streams of `FORMATS`, kept in `dir`.
fn keep(dir: &Path) {
    let output = shootout()
        .arg("interop")
        .args(RUN)
        .args(["--formats", FORMATS, "--keep"])
        .arg(dir)
        .output()
        .unwrap();
    stdout_of(output);
}

/// `kept/rust-<format>.{bin,ends}` copied into `into` as `<stem>.*`, with
/// its manifest edited by `edit` (after `language` is set to "outside").
fn copy(kept: &Path, format: &str, into: &Path, stem: &str, edit: impl FnOnce(&mut Value)) {
    for ext in ["bin", "ends"] {
        let from = kept.join(format!("rust-{format}.{ext}"));
        std::fs::copy(from, into.join(format!("{stem}.{ext}"))).unwrap();
    }
    let from = kept.join(format!("rust-{format}.json"));
    let mut manifest: Value = serde_json::from_slice(&std::fs::read(from).unwrap()).unwrap();
    manifest["language"] = "outside".into();
    manifest["stream"] = format!("{stem}.bin").into();
    edit(&mut manifest);
    std::fs::write(into.join(format!("{stem}.json")), manifest.to_string()).unwrap();
}

fn decode(dir: &Path) -> std::process::Output {
    shootout()
        .arg("interop")
        .args(RUN)
        .args(["--formats", FORMATS, "--export-json", "-", "--decode"])
        .arg(dir)
        .output()
        .unwrap()
}

fn cell<'a>(matrix: &'a Value, producer: &str, consumer: &str) -> &'a Value {
    matrix["wires"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|w| w["cells"].as_array().unwrap())
        .find(|c| c["producer"] == producer && c["consumer"] == consumer)
        .unwrap_or_else(|| panic!("no cell {producer} -> {consumer}"))
}

#[test]
fn an_outside_stream_is_checked_and_its_first_wrong_record_named() {
    let kept = tempfile::tempdir().unwrap();
    keep(kept.path());
    let outside = tempfile::tempdir().unwrap();
    let dir = outside.path();

    // JSON Lines: record 7's `tutorial` ends in another digit (same length,
    // so the framing holds); the sha256 no longer matches, so it goes.
    copy(kept.path(), "json-serde_json", dir, "outside-json", |m| {
        m.as_object_mut().unwrap().remove("sha256");
    });
    let bin = dir.join("outside-json.bin");
    let mut bytes = std::fs::read(&bin).unwrap();
    change_json_digit(&mut bytes, 7, "tutorial");
    std::fs::write(&bin, bytes).unwrap();

    // MessagePack unchanged, under a name of the producer's own with the
    // wire named, and no `.ends` (its u32le framing says where records end).
    copy(kept.path(), "msgpack-map", dir, "outside-msgpack", |m| {
        m["format"] = "rmp-python".into();
        m["wire"] = "msgpack-map".into();
    });
    std::fs::remove_file(dir.join("outside-msgpack.ends")).unwrap();

    // FlatBuffers unchanged: readable by the checked decoders, never fed to
    // the unchecked one, whose library did not write it in this process.
    copy(kept.path(), "flatbuffers", dir, "outside-flatbuffers", |_| {});

    let matrix: Value = serde_json::from_str(&stdout_of(decode(dir))).unwrap();
    for consumer in ["rust/json-serde_json", "rust/json-sonic-rs"] {
        let c = cell(&matrix, "outside/json-serde_json", consumer);
        assert_eq!(c["status"], "mismatch", "{c}");
        let detail = c["detail"].as_str().unwrap();
        assert!(detail.starts_with("record 7: field tutorial"), "{detail}");
    }
    assert_eq!(cell(&matrix, "rust/json-serde_json", "rust/json-serde_json")["status"], "ok");
    assert_eq!(cell(&matrix, "outside/rmp-python", "rust/msgpack-map")["status"], "ok");
    assert_eq!(cell(&matrix, "outside/flatbuffers", "rust/flatbuffers")["status"], "ok");
    assert_eq!(cell(&matrix, "outside/flatbuffers", "rust/flatbuffers-planus")["status"], "ok");
    let unchecked = cell(&matrix, "outside/flatbuffers", "rust/flatbuffers-unchecked");
    assert_eq!(unchecked["status"], "n/a", "{unchecked}");
    assert!(unchecked["detail"].as_str().unwrap().contains("UNCHECKED"), "{unchecked}");
    // An outside language only produces.
    let wires = matrix["wires"].as_array().unwrap();
    assert!(wires.iter().all(|w| {
        w["consumers"].as_array().unwrap().iter().all(|c| c.as_str().unwrap().starts_with("rust/"))
    }));
    let msgpack = wires.iter().find(|w| w["wire"] == "msgpack-map").unwrap();
    assert_eq!(msgpack["bytes"][0]["identical"], true, "{}", msgpack["bytes"]);
}

/// A change to a copied manifest.
type Edit = fn(&mut Value);

#[test]
fn a_bad_outside_manifest_is_one_line_naming_its_file() {
    let kept = tempfile::tempdir().unwrap();
    keep(kept.path());
    let cases: [(&str, Edit, &str); 5] = [
        ("missing stream", |m| m["stream"] = "gone.bin".into(), "gone.bin: cannot read"),
        ("unknown wire", |m| m["format"] = "msgpack-python".into(), "no wire format"),
        ("escaping path", |m| m["stream"] = "../x.bin".into(), "not a file name"),
        ("wrong workload", |m| m["workload"] = "sql".into(), "workload \"sql\""),
        ("records", |m| m["records"] = 39.into(), "39 records, this run's input has 40"),
    ];
    for (case, edit, said) in cases {
        let outside = tempfile::tempdir().unwrap();
        copy(kept.path(), "msgpack-map", outside.path(), "outside-msgpack", edit);
        let error = one_line_error(&decode(outside.path()));
        assert!(
            error.contains("outside-msgpack.json: ") && error.contains(said),
            "{case}: {error}"
        );
    }
}
