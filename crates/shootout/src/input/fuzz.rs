//! The fuzzers' entry points: the capture and CSV readers driven from bytes as
//! `shootout run --input FILE` drives them, and a check that an error keeps
//! the promise made of bad input: one line naming the file and where in it.
//! Shared by the libFuzzer targets (fuzz/) and the bounded run in `cargo test`.

use std::sync::Arc;

use anyhow::Result;

use crate::input::Input;
use crate::input::Source;
use crate::input::csv::CsvFile;
use crate::input::ingest::Capture;
use crate::workload::tabular::{LongsRow, MixedRow, Row, StringsRow};

/// The name the fuzzed bytes go by in messages.
pub const CAPTURE_NAME: &str = "fuzz.pcap";
pub const CSV_NAME: &str = "fuzz.csv";
/// Small windows, so the reuse of records across windows is exercised too.
const WINDOW: usize = 7;

/// Reads `bytes` as a capture, to the end; panics if an error breaks the promise.
pub fn read_capture(bytes: &[u8]) {
    if let Err(error) = capture_records(bytes) {
        let message = format!("{error:#}");
        if let Some(broken) = capture_error_broken(&message, bytes) {
            panic!("{broken}: {message}");
        }
    }
}

/// Reads `bytes` as a CSV file of each row type, to the end; panics if an error breaks the promise.
pub fn read_csv(bytes: &[u8]) {
    for result in
        [csv_rows::<MixedRow>(bytes), csv_rows::<StringsRow>(bytes), csv_rows::<LongsRow>(bytes)]
    {
        if let Err(error) = result {
            let message = format!("{error:#}");
            if let Some(broken) = csv_error_broken(&message, bytes) {
                panic!("{broken}: {message}");
            }
        }
    }
}

/// The benchmark records of a capture, counted, as a run reads them.
pub fn capture_records(bytes: &[u8]) -> Result<u64> {
    let input = Capture { source: memory(CAPTURE_NAME, bytes) };
    let mut reader = input.open()?;
    while reader.next_window(WINDOW)?.is_some() {}
    Ok(reader.finish()?.operations)
}

/// The rows of a CSV file, counted, as a run reads them.
pub fn csv_rows<R: Row>(bytes: &[u8]) -> Result<u64> {
    let input = CsvFile::<R>::new(memory(CSV_NAME, bytes));
    let mut reader = input.open()?;
    while reader.next_window(WINDOW)?.is_some() {}
    Ok(reader.finish()?.operations)
}

fn memory(name: &str, bytes: &[u8]) -> Source {
    Source::Memory { name: name.to_owned(), bytes: Arc::from(bytes) }
}

/// How a capture error breaks the promise, if it does: it must be one line,
/// start with the file's name and name a byte offset inside the input, unless
/// it is about the whole file (empty, or without any IEX-TP packet).
pub fn capture_error_broken(message: &str, input: &[u8]) -> Option<String> {
    let whole_file = message.starts_with(&format!("{CAPTURE_NAME}: empty file"))
        || message.starts_with(&format!("no IEX-TP packets in {CAPTURE_NAME}"));
    if message.contains(['\n', '\r']) {
        return Some("more than one line".to_owned());
    }
    if whole_file {
        return None;
    }
    if !message.starts_with(&format!("{CAPTURE_NAME}: ")) {
        return Some("does not start with the file's name".to_owned());
    }
    // Decompressed offsets can lie past the input's length; raw ones cannot.
    let (offset, limit) = if let Some(offset) = number_after(message, "decompressed byte ") {
        (offset, u64::MAX)
    } else if let Some(offset) = number_after(message, "byte ") {
        (offset, input.len() as u64)
    } else {
        return Some("names no byte offset".to_owned());
    };
    (offset > limit).then(|| format!("offset {offset} is past the input's {limit} bytes"))
}

/// How a CSV error breaks the promise, if it does: it must be one line, start
/// with the file's name and name a line of the input, unless the file is empty.
pub fn csv_error_broken(message: &str, input: &[u8]) -> Option<String> {
    if message.contains(['\n', '\r']) {
        return Some("more than one line".to_owned());
    }
    if !message.starts_with(&format!("{CSV_NAME}: ")) {
        return Some("does not start with the file's name".to_owned());
    }
    if message.starts_with(&format!("{CSV_NAME}: empty file")) {
        return None;
    }
    let Some(line) = number_after(message, "line ") else {
        return Some("names no line".to_owned());
    };
    let lines = 1 + input.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u64;
    (line == 0 || line > lines).then(|| format!("line {line} is not one of the input's {lines}"))
}

fn number_after(message: &str, label: &str) -> Option<u64> {
    let (_, rest) = message.split_once(label)?;
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    rest[..digits].parse().ok()
}
