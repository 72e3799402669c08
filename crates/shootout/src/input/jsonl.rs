//! JSON Lines: one JSON value per line, plain or gzipped, read in windows of
//! records so memory stays bounded whatever the file's size. Lines holding
//! only whitespace are skipped; anything else that is not one JSON value is
//! refused with its line and column.

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};

use crate::input::capture::GZIP_MAGIC;
use crate::input::source::{Source, Tap};
use crate::input::{Input, Reader, Scanned, Window, in_file_order};
use crate::workload::Workload;
use crate::workload::jsonl::schema::{Given, RecordSchemas};
use crate::workload::jsonl::{Jsonl, Value, ValueSink, visit, visit_input};

/// A JSON Lines file as the harness reads it: one streaming pass per run.
pub struct JsonlFile {
    pub source: Source,
    /// `--schema`: every record is checked against it and runs as it types it.
    pub schema: Option<Given>,
}

/// Violations a pass names one per line before it stops; the rest are counted.
const VIOLATIONS_SHOWN: usize = 20;

impl Input<Jsonl> for JsonlFile {
    fn name(&self) -> String {
        self.source.name()
    }

    fn open(&self) -> Result<Box<dyn Reader<Jsonl> + '_>> {
        let name = self.source.name();
        let raw = self.source.open()?;
        let tap = raw.tap();
        let mut plain = BufReader::with_capacity(1 << 20, raw);
        let head = plain.fill_buf().map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
        let lines: Box<dyn BufRead> = if head.starts_with(&GZIP_MAGIC) {
            let text: Box<dyn Read> = Box::new(flate2::bufread::MultiGzDecoder::new(plain));
            Box::new(BufReader::with_capacity(1 << 20, text))
        } else {
            Box::new(plain)
        };
        Ok(Box::new(JsonlReader {
            name,
            lines,
            tap,
            line: Vec::new(),
            line_number: 0,
            window: Vec::new(),
            order: Vec::new(),
            reference: ValueSink::default(),
            source: &self.source,
            schema: self.schema.as_ref(),
            violations: Vec::new(),
            records_violating: 0,
            records_typed: 0,
        }))
    }

    fn position(&self, op: u64) -> String {
        format!("record {} (blank lines not counted)", op + 1)
    }

    fn record_schemas(&self) -> Option<RecordSchemas> {
        self.schema.as_ref().map(Given::schemas)
    }
}

struct JsonlReader<'a> {
    name: String,
    lines: Box<dyn BufRead>,
    tap: Arc<Tap>,
    line: Vec<u8>,
    line_number: u64,
    window: Vec<Value>,
    order: Vec<u32>,
    /// The records' values as read: what every format must reproduce.
    reference: ValueSink,
    source: &'a Source,
    schema: Option<&'a Given>,
    /// The first violations of the schema, each a line of the error.
    violations: Vec<String>,
    records_violating: u64,
    /// Records whose projection differs from the line.
    records_typed: u64,
}

impl JsonlReader<'_> {
    /// The next non-blank line's record, or `None` at the end of the input.
    fn next_record(&mut self) -> Result<Option<Value>> {
        loop {
            self.line.clear();
            let n = self
                .lines
                .read_until(b'\n', &mut self.line)
                .map_err(|e| anyhow!("{}: read failed: {e}", self.name))?;
            if n == 0 {
                return Ok(None);
            }
            self.line_number += 1;
            if self.line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let record = Value::parse(&self.line).map_err(|problem| {
                anyhow!("{}: line {}, {problem}", self.name, self.line_number)
            })?;
            let Some(schema) = self.schema else { return Ok(Some(record)) };
            match schema.project(&record) {
                Ok(projection) => {
                    self.records_typed += u64::from(!same_value(&record, &projection));
                    return Ok(Some(projection));
                }
                Err(violations) => {
                    self.records_violating += 1;
                    for violation in violations {
                        if self.violations.len() < VIOLATIONS_SHOWN {
                            self.violations.push(format!("line {}: {violation}", self.line_number));
                        }
                    }
                }
            }
        }
    }
}

/// Whether two values are the same but for their members' order.
fn same_value(a: &Value, b: &Value) -> bool {
    let hash = |value: &Value| {
        let mut sink = ValueSink::default();
        visit(value, &mut sink);
        sink.finish().hash
    };
    a == b || hash(a) == hash(b)
}

impl Reader<Jsonl> for JsonlReader<'_> {
    fn next_window(&mut self, max: usize) -> Result<Option<Window<'_, Jsonl>>> {
        self.window.clear();
        while self.window.len() < max.max(1) {
            let Some(record) = self.next_record()? else { break };
            visit_input(&record, &mut self.reference);
            self.window.push(record);
        }
        let n = self.window.len();
        Ok((n > 0)
            .then(|| Window { records: &self.window, order: in_file_order(&mut self.order, n) }))
    }

    fn progress(&self) -> (u64, Option<u64>) {
        self.tap.progress()
    }

    fn finish(self: Box<Self>) -> Result<Scanned<Jsonl>> {
        if let Some(schema) = self.schema
            && self.records_violating > 0
        {
            // One line per violation, each naming the file and line, then the error.
            for violation in &self.violations {
                eprintln!("{}: {}", self.name, crate::sanitize::terminal(violation));
            }
            let records = match self.records_violating {
                1 => "1 record does".to_owned(),
                n => format!("{n} records do"),
            };
            let shown = match self.violations.len() {
                VIOLATIONS_SHOWN => format!("the first {VIOLATIONS_SHOWN} violations above"),
                _ => "the violations above".to_owned(),
            };
            bail!("{}: {records} not fit {} ({shown})", self.name, schema.describe());
        }
        let (bytes, sha256) = self.tap.digest();
        let file = self.source.input_file(bytes, sha256);
        let reference = <Jsonl as Workload>::finish(self.reference);
        let mut warnings = Vec::new();
        if let Some(schema) = self.schema {
            warnings.push(format!(
                "{}: every record fits {}; {} of {} differ from their line as the schema types them (defaults and nulls left out, numbers typed by their fields): every format runs them as typed",
                self.name,
                schema.describe(),
                self.records_typed,
                reference.records
            ));
        }
        if reference.duplicate_keys > 0 {
            warnings.push(format!(
                "{}: {} object members repeat a key earlier in their object; libraries that keep one value per key will fail validation, by name",
                self.name, reference.duplicate_keys
            ));
        }
        Ok(Scanned { operations: reference.records, reference, file, warnings, csv: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(text: &[u8]) -> JsonlFile {
        JsonlFile {
            source: Source::Memory { name: "t.jsonl".into(), bytes: Arc::from(text) },
            schema: None,
        }
    }

    fn scan(text: &[u8]) -> Result<Scanned<Jsonl>> {
        crate::dataset::scan(&memory(text))
    }

    #[test]
    fn records_are_read_across_windows_and_blank_lines_skipped() {
        let text = b"{\"a\":1}\n\n  \n[1,2]\r\n\"x\"\n3";
        let file = memory(text);
        let mut reader = file.open().unwrap();
        let mut seen = 0;
        while let Some(window) = reader.next_window(2).unwrap() {
            assert!(window.order.len() <= 2);
            seen += window.order.len();
        }
        assert_eq!(seen, 4);
        let scanned = reader.finish().unwrap();
        assert_eq!(scanned.operations, 4);
        assert!(scanned.file.is_none());
    }

    #[test]
    fn bad_lines_name_their_line_and_column() {
        let error = |text: &[u8]| scan(text).err().unwrap().to_string();
        assert_eq!(error(b"{}\n\n[1,]\n"), "t.jsonl: line 3, column 4: trailing comma");
        assert!(
            error(b"{}\n\"\xff\"\n").starts_with("t.jsonl: line 2, column "),
            "{}",
            error(b"{}\n\"\xff\"\n")
        );
        assert!(error(b"1e999\n").contains("line 1, column"), "{}", error(b"1e999\n"));
        assert!(
            error(b"{} {}\n").starts_with("t.jsonl: line 1, column 4:"),
            "{}",
            error(b"{} {}\n")
        );
    }

    #[test]
    fn gzipped_lines_read_as_plain_ones() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"{\"a\":1}\n[2]\n").unwrap();
        let scanned = scan(&gz.finish().unwrap()).unwrap();
        assert_eq!(scanned.reference, scan(b"{\"a\":1}\n[2]\n").unwrap().reference);
    }

    #[test]
    fn duplicate_keys_are_a_warning() {
        let scanned = scan(b"{\"a\":1,\"a\":2}\n").unwrap();
        assert_eq!(scanned.reference.duplicate_keys, 1);
        assert!(
            scanned.warnings[0].contains("1 object members repeat a key"),
            "{:?}",
            scanned.warnings
        );
    }
}
