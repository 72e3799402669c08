//! Text from outside cannot take over the terminal or the exports: capture
//! symbols and results-file names holding ESC, OSC, CSI (C1), DEL, bidi
//! overrides, line breaks and markup reach stdout and stderr escaped, the
//! Markdown export renders them as text, and the CSV export keeps one line
//! per row. The values themselves survive where a format carries them (JSON).

use std::process::Output;

use crate::common::*;
use serde_json::Value;

/// Everything a terminal or a reader could be fooled by at once: an OSC that
/// retitles the terminal, a screen clear, a cell break, markup, a forged
/// warning line, a C1 CSI and a right-to-left override.
const HOSTILE: &str = "\x1b]0;owned\x07\x1b[2J|<script>alert(1)</script><img src=x onerror=alert(1)>\nwarning: forged\u{9b}31m\u{7f}\u{202e}";

/// Characters a terminal acts on or reorders by: control characters (but
/// the line breaks between lines) and the bidirectional overrides.
fn raw(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .collect()
}

/// Standard output and error of a command that must succeed, each checked:
/// no raw control character, no line a value forged.
fn inert(what: &str, output: Output) -> (String, String) {
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{what}: {stderr}");
    for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        assert!(raw(text).is_empty(), "{what}: raw {:?} on {name}: {text}", raw(text));
        assert!(
            !text.lines().any(|l| l.starts_with("warning: forged")),
            "{what}: a value forged a line on {name}: {text}"
        );
    }
    (stdout, stderr)
}

/// A DEEP 1.0 trade of `symbol` (8 bytes, any bytes at all).
fn trade(symbol: &[u8; 8]) -> Vec<u8> {
    let mut message = vec![b'T', 0];
    message.extend_from_slice(&1_710_509_400_000_000_000i64.to_le_bytes());
    message.extend_from_slice(symbol);
    message.extend_from_slice(&100u32.to_le_bytes());
    message.extend_from_slice(&1_000_000i64.to_le_bytes());
    message.extend_from_slice(&7i64.to_le_bytes());
    message
}

/// A capture of one trade per symbol, each in a packet of its own.
fn capture_of(symbols: &[&[u8; 8]]) -> Vec<u8> {
    let frames: Vec<Vec<u8>> = symbols
        .iter()
        .map(|symbol| {
            let message = trade(symbol);
            let mut block = (message.len() as u16).to_le_bytes().to_vec();
            block.extend_from_slice(&message);
            udp_frame(&iex_packet(block.len() as u16, 1, &block))
        })
        .collect();
    pcap(&frames)
}

const SYMBOLS: [&[u8; 8]; 4] =
    [b"\x1b]0;pw\x07 ", b"\x1b[2J\x1b[H ", b"A\nB\rC\x9b1m", b"\x7f\x85<b>|  "];

#[test]
fn capture_symbols_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "hostile.pcap", &capture_of(&SYMBOLS));

    let (text, _) = inert("inspect", shootout().arg("inspect").arg(&path).output().unwrap());
    for shown in ["\\x1b]0;pw\\x07", "\\x1b[2J\\x1b[H", "A\\nB\\rC\\u{9b}1m", "\\x7f\\u{85}<b>|"] {
        assert!(text.contains(shown), "{shown} not shown: {text}");
    }

    // JSON carries the symbols exactly, escaped as JSON escapes them.
    let (json, _) = inert(
        "inspect --json",
        shootout().args(["inspect", "--json"]).arg(&path).output().unwrap(),
    );
    let report: Value = serde_json::from_str(&json).unwrap();
    let symbols: Vec<&String> = report["symbols"].as_object().unwrap().keys().collect();
    assert!(symbols.contains(&&"A\nB\rC\u{9b}1m".to_owned()), "{symbols:?}");

    inert(
        "run",
        quick_run()
            .args(["--formats", "msgpack-array,bincode", "--input"])
            .arg(&path)
            .output()
            .unwrap(),
    );
}

/// A results file whose every name, label and version is [`HOSTILE`].
fn hostile_results(dir: &tempfile::TempDir, old: &std::path::Path) -> std::path::PathBuf {
    edited(dir, old, "hostile.json", |results| {
        results["environment"]["cpu"] = HOSTILE.into();
        for format in results["formats"].as_array_mut().unwrap() {
            if format["name"] == "bincode" {
                format["name"] = format!("bincode{HOSTILE}").into();
                format["library"] = HOSTILE.into();
                format["library_version"] = HOSTILE.into();
                format["tags"].as_array_mut().unwrap().push(HOSTILE.into());
            }
        }
    })
}

#[test]
fn results_file_names_reach_the_terminal_and_the_exports_inert() {
    let dir = tempfile::tempdir().unwrap();
    let old = sql_results(&dir, "old.json", SOME_FORMATS);
    let hostile = hostile_results(&dir, &old);

    let (tables, _) = inert("report", shootout().arg("report").arg(&hostile).output().unwrap());
    assert!(tables.contains("bincode\\x1b]0;owned\\x07\\x1b[2J|<script>"), "{tables}");
    inert("compare", shootout().arg("compare").args([&old, &hostile]).output().unwrap());
    inert("recommend", shootout().args(["recommend", "--results"]).arg(&hostile).output().unwrap());

    for (what, args) in [
        ("report --export-markdown", vec!["report", "--export-markdown", "-"]),
        ("compare --markdown", vec!["compare", "--markdown"]),
    ] {
        let mut command = shootout();
        command.args(&args);
        if what.starts_with("compare") {
            command.arg(&old);
        }
        let (markdown, _) = inert(what, command.arg(&hostile).output().unwrap());
        for markup in ["<script", "<img", "](", "\n- warning: forged"] {
            assert!(!markdown.contains(markup), "{what}: {markup} in {markdown}");
        }
        // Every row of a table has the header's cells: no name breaks one.
        for table in markdown.split("\n\n").filter(|b| b.starts_with('|')) {
            let cells = |line: &str| line.replace("\\|", "").matches('|').count();
            let header = cells(table.lines().next().unwrap());
            assert!(table.lines().all(|line| cells(line) == header), "{what}: {table}");
        }
    }

    let (csv, _) = inert(
        "report --export-csv",
        shootout().args(["report", "--export-csv", "-"]).arg(&hostile).output().unwrap(),
    );
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let width = reader.headers().unwrap().len();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(csv.lines().count(), rows.len() + 1, "one line per row: {csv}");
    assert!(rows.iter().all(|row| row.len() == width), "{csv}");
    let library =
        rows.iter().find(|row| row[2].starts_with("bincode")).map(|row| row[4].to_owned()).unwrap();
    assert_eq!(
        library,
        "\\x1b]0;owned\\x07\\x1b[2J|<script>alert(1)</script><img src=x onerror=alert(1)>\\nwarning: \
         forged\\u{9b}31m\\x7f\\u{202e}"
    );
}
