//! `shootout interop` as a user runs it, every language on small generated
//! data: each cell's status and each pair's byte identity must equal the
//! committed expected matrix, so a cell that stops being `ok` (or starts) shows
//! in review, in the same commit as the change that moved it.

use std::path::PathBuf;

use crate::common::{shootout, stdout_of};

/// The matrix's outcomes, one line per cell and per producer pair, without
/// the details (which carry byte offsets and library messages).
fn outcomes(matrix: &serde_json::Value) -> String {
    let mut lines = Vec::new();
    for wire in matrix["wires"].as_array().unwrap() {
        let name = wire["wire"].as_str().unwrap();
        for cell in wire["cells"].as_array().unwrap() {
            lines.push(format!(
                "{name}: {} -> {}: {}",
                cell["producer"].as_str().unwrap(),
                cell["consumer"].as_str().unwrap(),
                cell["status"].as_str().unwrap()
            ));
        }
        for pair in wire["bytes"].as_array().unwrap() {
            lines.push(format!(
                "{name}: bytes {} {} {}",
                pair["a"].as_str().unwrap(),
                if pair["identical"].as_bool().unwrap() { "==" } else { "!=" },
                pair["b"].as_str().unwrap()
            ));
        }
        for absent in wire["absent"].as_array().unwrap() {
            lines.push(format!("{name}: n/a {}", absent["language"].as_str().unwrap()));
        }
    }
    lines.join("\n") + "\n"
}

fn check(name: &str, args: &[&str]) {
    let output = shootout()
        .arg("interop")
        .args(args)
        .args(["--lang", "all", "--export-json", "-"])
        .output()
        .unwrap();
    let matrix: serde_json::Value = serde_json::from_str(&stdout_of(output)).unwrap();
    let got = outcomes(&matrix);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/expected/interop-{name}.txt"));
    if std::env::var_os("SHOOTOUT_UPDATE_EXPECTED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if got != expected {
        let changed: Vec<String> = diff(&expected, &got);
        panic!(
            "the interop matrix of {name} changed from {}:\n{}\nIf the change is meant, update the file in the same commit: \
             SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --test it -- interop::",
            path.display(),
            changed.join("\n")
        );
    }
}

/// Lines only in `expected` (-) or only in `got` (+).
fn diff(expected: &str, got: &str) -> Vec<String> {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = got.lines().collect();
    let mut out: Vec<String> =
        old.iter().filter(|l| !new.contains(l)).map(|l| format!("- {l}")).collect();
    out.extend(new.iter().filter(|l| !old.contains(l)).map(|l| format!("+ {l}")));
    out
}

#[test]
fn every_language_reads_every_other_languages_user_records() {
    check("user", &["--workload", "user", "--records", "120"]);
}

#[test]
fn every_language_reads_every_other_languages_iex_records() {
    check("iex", &["--workload", "iex", "--max-records", "400"]);
}
