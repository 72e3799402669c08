//! JSON Lines: one JSON value per line, plain or gzipped, read in windows of
//! records so memory stays bounded whatever the file's size: a line is at
//! most [`JSONL_LINE`], a window's lines together too (a window may hold
//! fewer records than asked), and a line nesting deeper than [`MAX_DEPTH`]
//! is refused at the bracket that goes too deep, before the rest of it is
//! read. Lines holding only whitespace are skipped; anything else that is
//! not one JSON value is refused with its line and column.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};

use crate::input::capture::GZIP_MAGIC;
use crate::input::source::{JSONL_LINE, Source, Tap};
use crate::input::{Input, Reader, Scanned, Window, in_file_order};
use crate::workload::Workload;
use crate::workload::jsonl::schema::{Given, RecordSchemas};
use crate::workload::jsonl::{
    Jsonl, MAX_DEPTH, Value, ValueSink, nested_too_deep, visit, visit_input,
};

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
        let gzip = head.starts_with(&GZIP_MAGIC);
        let lines: Box<dyn BufRead> = if gzip {
            let text: Box<dyn Read> = Box::new(flate2::bufread::MultiGzDecoder::new(plain));
            Box::new(BufReader::with_capacity(1 << 20, text))
        } else {
            Box::new(plain)
        };
        Ok(Box::new(JsonlReader {
            name,
            lines,
            gzip,
            tap,
            line: Vec::new(),
            line_number: 0,
            offset: 0,
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
    /// Whether `lines` are the gzip stream's, decompressed.
    gzip: bool,
    tap: Arc<Tap>,
    line: Vec<u8>,
    line_number: u64,
    /// Bytes of the (decompressed) text before `line`.
    offset: u64,
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
            self.offset += self.line.len() as u64;
            let read = read_line(&mut self.lines, &mut self.line, JSONL_LINE.bytes as usize);
            let line = self.line_number + 1;
            match read.map_err(|e| self.read_failed(e))? {
                Line::End => return Ok(None),
                Line::Read => self.line_number += 1,
                Line::TooLong => {
                    let cut = format!("line {line}: more than {} bytes", JSONL_LINE.bytes);
                    return Err(JSONL_LINE.exceeded(&self.name, &cut));
                }
                Line::TooDeep { column } => {
                    bail!("{}: line {line}, {}", self.name, nested_too_deep(column));
                }
            }
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

    /// A read error, at the byte of the text where it happened: for gzip, a corrupt stream.
    fn read_failed(&self, e: io::Error) -> anyhow::Error {
        let (line, byte) = (self.line_number + 1, self.offset + self.line.len() as u64);
        match self.gzip {
            true => anyhow!(
                "{}: line {line}, decompressed byte {byte}: corrupt gzip stream: {e}",
                self.name
            ),
            false => anyhow!("{}: line {line}, byte {byte}: read failed: {e}", self.name),
        }
    }
}

/// How reading one line ended.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// The input had no more bytes.
    End,
    /// A line is in the buffer, its newline included when it had one.
    Read,
    /// The line runs past the cap: the buffer holds its first bytes.
    TooLong,
    /// The bracket at this column (1-based, in bytes) opens a level beyond [`MAX_DEPTH`].
    TooDeep { column: usize },
}

/// Reads one line into `line` (cleared first), at most `cap` bytes before
/// its newline, following the nesting of its brackets as the bytes come:
/// a line that goes too deep or too long is refused where it does, and
/// nothing after that is read.
fn read_line(input: &mut dyn BufRead, line: &mut Vec<u8>, cap: usize) -> io::Result<Line> {
    line.clear();
    let mut nesting = Nesting::default();
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if line.is_empty() { Line::End } else { Line::Read });
        }
        let newline = memchr::memchr(b'\n', available);
        let text = &available[..newline.unwrap_or(available.len())];
        let room = cap - line.len();
        let (scanned, too_long) = match text.len() > room {
            true => (&text[..room], true),
            false => (text, false),
        };
        if let Some(at) = nesting.too_deep(scanned) {
            line.extend_from_slice(&scanned[..=at]);
            input.consume(at + 1);
            return Ok(Line::TooDeep { column: line.len() });
        }
        if too_long {
            line.extend_from_slice(scanned);
            input.consume(room);
            return Ok(Line::TooLong);
        }
        let taken = newline.map_or(text.len(), |at| at + 1);
        line.extend_from_slice(&available[..taken]);
        input.consume(taken);
        if newline.is_some() {
            return Ok(Line::Read);
        }
    }
}

/// The nesting of a JSON text's arrays and objects so far, as its brackets
/// outside strings say.
#[derive(Default)]
struct Nesting {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Nesting {
    /// Follows `bytes`; the index of the first bracket among them that opens
    /// a level beyond [`MAX_DEPTH`].
    fn too_deep(&mut self, bytes: &[u8]) -> Option<usize> {
        for (at, &byte) in bytes.iter().enumerate() {
            match (self.in_string, byte) {
                (true, _) if self.escaped => self.escaped = false,
                (true, b'\\') => self.escaped = true,
                (true, b'"') => self.in_string = false,
                (true, _) => {}
                (false, b'"') => self.in_string = true,
                (false, b'[' | b'{') => {
                    self.depth += 1;
                    if self.depth > MAX_DEPTH {
                        return Some(at);
                    }
                }
                (false, b']' | b'}') => self.depth = self.depth.saturating_sub(1),
                (false, _) => {}
            }
        }
        None
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
        // A window's lines stay within one line's cap, so its values stay within a few hundred MB.
        let window_start = self.offset + self.line.len() as u64;
        while self.window.len() < max.max(1)
            && self.offset + self.line.len() as u64 - window_start < JSONL_LINE.bytes
        {
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
                eprintln!("{}", crate::sanitize::line(&format!("{}: {violation}", self.name)));
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

    /// `byte`, endlessly, from a reader that fails the test if read past
    /// `limit` bytes: where the line reader must have stopped.
    struct Endless {
        byte: u8,
        given: usize,
        limit: usize,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            assert!(self.given < self.limit, "read past byte {}", self.limit);
            buf[0] = self.byte;
            self.given += 1;
            Ok(1)
        }
    }

    fn endless(byte: u8, limit: usize) -> BufReader<Endless> {
        BufReader::with_capacity(1, Endless { byte, given: 0, limit })
    }

    #[test]
    fn a_line_nested_too_deep_is_refused_at_its_513th_byte_and_no_further() {
        let mut line = Vec::new();
        let read = read_line(&mut endless(b'[', MAX_DEPTH + 1), &mut line, 1 << 20).unwrap();
        assert_eq!(read, Line::TooDeep { column: 513 });
        let error = scan(format!("{}\n", "[".repeat(600)).as_bytes()).err().unwrap();
        assert_eq!(
            error.to_string(),
            "t.jsonl: line 1, column 513: arrays and objects nested deeper than 512 levels"
        );
        let in_strings = format!("[\"{}\\\"[\"]\n", "[".repeat(600));
        assert!(scan(in_strings.as_bytes()).is_ok(), "brackets in strings do not nest");
    }

    #[test]
    fn a_line_over_the_cap_is_refused_at_the_cap_and_no_further() {
        let mut line = Vec::new();
        let read = read_line(&mut endless(b' ', 101), &mut line, 100).unwrap();
        assert_eq!((read, line.len()), (Line::TooLong, 100));
        let mut exact = std::io::Cursor::new(format!("{}\n{{}}", " ".repeat(100)));
        assert_eq!(read_line(&mut exact, &mut line, 100).unwrap(), Line::Read);
        assert_eq!(read_line(&mut exact, &mut line, 100).unwrap(), Line::Read);
        assert_eq!((read_line(&mut exact, &mut line, 100).unwrap(), line.len()), (Line::End, 0));
    }

    #[test]
    fn a_corrupt_gzip_stream_is_named_by_its_line_and_decompressed_byte() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&b"{\"a\":[1,2,3]}\n".repeat(20_000)).unwrap();
        let mut bytes = gz.finish().unwrap();
        // The CRC-32 of the text, in the gzip trailer: found wrong at the end.
        let crc = bytes.len() - 8;
        bytes[crc] ^= 0x5a;
        let error = scan(&bytes).err().unwrap().to_string();
        assert!(
            error.starts_with(
                "t.jsonl: line 20001, decompressed byte 280000: corrupt gzip stream: "
            ),
            "{error}"
        );
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
