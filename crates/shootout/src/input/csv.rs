//! Tabular data as CSV: header f1..f20, one record per line, empty cell = absent.
//! Read in windows of rows, so memory stays bounded whatever the file's size.

use std::io::{self, Read, Write};
use std::marker::PhantomData;
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use csv::StringRecord;

use crate::document::CsvSize;
use crate::input::source::{CSV_RECORD, Raw, Source, Tap};
use crate::input::{Input, Reader, Scanned, Window, in_file_order};
use crate::sanitize::elide;
use crate::workload::Workload;
use crate::workload::fields::{FieldSink, Fields};
use crate::workload::tabular::{HEADER, Row};

/// The CSV text of `rows`, header first.
pub fn render<R: Row>(rows: &[R]) -> String {
    let mut out = HEADER.join(",");
    out.push('\n');
    for row in rows {
        row.write(&mut out);
    }
    out
}

/// Writes `rows` as [`render`] does, a row at a time, so memory stays
/// bounded whatever their number; returns the bytes written.
pub fn write<R: Row>(rows: impl IntoIterator<Item = R>, out: &mut dyn Write) -> io::Result<u64> {
    let header = format!("{}\n", HEADER.join(","));
    out.write_all(header.as_bytes())?;
    let mut written = header.len() as u64;
    let mut line = String::new();
    for row in rows {
        row.write(&mut line);
        out.write_all(line.as_bytes())?;
        written += line.len() as u64;
        line.clear();
    }
    Ok(written)
}

/// What a whole pass over a CSV file saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvInput {
    pub size: CsvSize,
    /// SHA-256 of the file as given, hex.
    pub sha256: String,
}

/// The bytes csv reads, counted on their way: its quote characters (an odd
/// count at the end of the file is the only sign of an unterminated quote,
/// which csv accepts silently) and how far it has read past the last
/// record's end (csv grows a record without bound; this is where it stops).
struct Counted {
    raw: Raw,
    quotes: u64,
    read: u64,
    /// Where the record being read starts.
    record_start: u64,
    /// The record being read reached [`CSV_RECORD`] and reading stopped.
    over_cap: bool,
}

/// The bytes csv reads ahead of where it is.
const CSV_BUFFER: usize = 1 << 20;

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.read - self.record_start > CSV_RECORD.bytes + CSV_BUFFER as u64 {
            self.over_cap = true;
            return Err(io::Error::other("a record longer than the cap"));
        }
        let n = self.raw.read(buf)?;
        self.quotes += memchr::memchr_iter(b'"', &buf[..n]).count() as u64;
        self.read += n as u64;
        Ok(n)
    }
}

/// The records of a CSV file, one at a time, with what csv itself does not
/// check: a record at most [`CSV_RECORD`] long, and no quote left open at
/// the end of the file. Shared by the f1..f20 reader and the `csv` workload's.
pub(super) struct Records {
    pub name: String,
    reader: csv::Reader<Counted>,
    pub tap: Arc<Tap>,
    /// The last record read.
    pub record: StringRecord,
    /// Where the next record is read, so `record` keeps the last one at the end.
    next: StringRecord,
}

impl Records {
    pub fn open(source: &Source) -> Result<Records> {
        let raw = source.open()?;
        let tap = raw.tap();
        let counted = Counted { raw, quotes: 0, read: 0, record_start: 0, over_cap: false };
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(CSV_BUFFER)
            .from_reader(counted);
        let (record, next) = (StringRecord::new(), StringRecord::new());
        Ok(Records { name: source.name(), reader, tap, record, next })
    }

    /// Reads the next record into `record`; false at the end of the file,
    /// where `record` keeps the last record. `columns` name the cells in errors.
    pub fn read(&mut self, columns: &[impl AsRef<str>]) -> Result<bool> {
        match self.reader.read_record(&mut self.next) {
            Err(_) if self.reader.get_ref().over_cap => {
                let line = self.reader.position().line();
                let found =
                    format!("line {line}: a record of more than {} bytes", CSV_RECORD.bytes);
                return Err(CSV_RECORD.exceeded(&self.name, &found));
            }
            Err(e) => return Err(csv_error(&self.name, &e, columns)),
            Ok(false) if self.quote_left_open() => return Err(self.unterminated_quote(columns)),
            Ok(false) => return Ok(false),
            Ok(true) => {}
        }
        let end = self.reader.position().byte();
        self.reader.get_mut().record_start = end;
        std::mem::swap(&mut self.record, &mut self.next);
        Ok(true)
    }

    /// The line the last record starts on.
    pub fn line(&self) -> u64 {
        self.record.position().map_or(0, |p| p.line())
    }

    /// An odd number of quotes, and a last cell that swallowed line breaks.
    fn quote_left_open(&self) -> bool {
        self.reader.get_ref().quotes % 2 == 1
            && self.record.iter().next_back().is_some_and(|cell| cell.contains(['\n', '\r']))
    }

    fn unterminated_quote(&self, columns: &[impl AsRef<str>]) -> anyhow::Error {
        let column = self.record.len();
        let line = self.line()
            + self.record.iter().take(column - 1).map(|cell| line_breaks(cell) as u64).sum::<u64>();
        let field =
            columns.get(column - 1).map_or(String::new(), |f| format!(" ({})", elide(f.as_ref())));
        anyhow!(
            "{}: line {line}, column {column}{field}: unterminated quote: the quoted cell starting there runs to the end of the file",
            self.name
        )
    }
}

/// A streaming reader of the rows of a CSV file with the header f1..f20.
pub struct Rows<R> {
    records: Records,
    values: u64,
    rows: PhantomData<fn() -> R>,
}

impl<R: Row> Rows<R> {
    /// Opens `source` and checks its header line.
    pub fn open(source: &Source) -> Result<Rows<R>> {
        let mut records = Records::open(source)?;
        if !records.read(&HEADER)? {
            bail!("{}: empty file, expected a header line f1,...,f20", records.name);
        }
        if records.record.iter().ne(HEADER) {
            let found = records.record.iter().collect::<Vec<_>>().join(",");
            bail!(
                "{}: line 1: expected the header {}, found {}",
                records.name,
                HEADER.join(","),
                elide(&found)
            );
        }
        Ok(Rows { records, values: 0, rows: PhantomData })
    }

    /// Clears `window` and fills it with up to `max` rows, reusing the rows
    /// (and their strings) already in it. Returns the count; 0 = end.
    pub fn next_window(&mut self, window: &mut Vec<R>, max: usize) -> Result<usize> {
        let mut filled = 0;
        while filled < max && self.records.read(&HEADER)? {
            let line = self.records.line();
            if self.records.record.len() != HEADER.len() {
                return Err(self.cell_count_error(line));
            }
            let mut cells = [""; HEADER.len()];
            for (cell, text) in cells.iter_mut().zip(&self.records.record) {
                *cell = text;
            }
            self.values += cells.iter().filter(|c| !c.is_empty()).count() as u64;
            if filled == window.len() {
                window.push(R::default());
            }
            window[filled].parse_into(&cells).map_err(|(column, problem)| {
                anyhow!(
                    "{}: line {line}, column {} ({}): {problem}",
                    self.records.name,
                    column + 1,
                    HEADER[column]
                )
            })?;
            filled += 1;
        }
        window.truncate(filled);
        Ok(filled)
    }

    /// Raw bytes read so far, and the file's size when known.
    pub fn progress(&self) -> (u64, Option<u64>) {
        self.records.tap.progress()
    }

    /// After the last window: the file's size, present values and SHA-256.
    pub fn finish(self) -> CsvInput {
        let (bytes, sha256) = self.records.tap.digest();
        CsvInput { size: CsvSize { bytes, values: self.values }, sha256 }
    }

    fn cell_count_error(&mut self, line: u64) -> anyhow::Error {
        let found = self.records.record.len();
        let last = self.records.record.clone();
        match self.records.read(&HEADER) {
            Err(e) => return e,
            Ok(_) => self.records.record = last,
        }
        let multiline = self.records.record.iter().position(|cell| cell.contains(['\n', '\r']));
        let hint = multiline.map_or(String::new(), |column| {
            let cell = &self.records.record[column];
            format!(
                "; column {} is one quoted cell across {} line breaks: is a closing quote missing?",
                column + 1,
                line_breaks(cell)
            )
        });
        anyhow!(
            "{}: line {line}: expected {} cells, found {found}{hint}",
            self.records.name,
            HEADER.len()
        )
    }
}

fn line_breaks(text: &str) -> usize {
    text.matches('\n').count()
}

/// csv's own messages, without the cell text of its UTF-8 errors.
pub(super) fn csv_error(
    name: &str,
    error: &csv::Error,
    columns: &[impl AsRef<str>],
) -> anyhow::Error {
    match error.kind() {
        csv::ErrorKind::Utf8 { pos, err } => {
            let line = pos.as_ref().map_or(0, |p| p.line());
            let column = err.field() + 1;
            let field =
                columns.get(err.field()).map_or(String::new(), |f| format!(" ({})", f.as_ref()));
            anyhow!(
                "{name}: line {line}, column {column}{field}: not UTF-8 text (from byte {} of the cell)",
                err.valid_up_to()
            )
        }
        csv::ErrorKind::Io(e) => anyhow!("{name}: read failed: {e}"),
        _ => anyhow!("{name}: {error}"),
    }
}

/// A CSV file as the harness reads it: one streaming pass per run, in windows.
pub struct CsvFile<R> {
    pub source: Source,
    rows: PhantomData<fn() -> R>,
}

impl<R> CsvFile<R> {
    pub fn new(source: Source) -> Self {
        CsvFile { source, rows: PhantomData }
    }
}

impl<R: Row> Input<Fields<R>> for CsvFile<R> {
    fn name(&self) -> String {
        self.source.name()
    }

    fn open(&self) -> Result<Box<dyn Reader<Fields<R>> + '_>> {
        Ok(Box::new(CsvReader {
            rows: Rows::open(&self.source)?,
            window: Vec::new(),
            order: Vec::new(),
            reference: FieldSink::new(R::FIELDS.len()),
            source: &self.source,
        }))
    }

    fn position(&self, op: u64) -> String {
        format!("row {} after the header", op + 1)
    }
}

struct CsvReader<'a, R> {
    rows: Rows<R>,
    window: Vec<R>,
    order: Vec<u32>,
    /// The rows' values as parsed: what every format must reproduce.
    reference: FieldSink,
    source: &'a Source,
}

impl<R: Row> Reader<Fields<R>> for CsvReader<'_, R> {
    fn next_window(&mut self, max: usize) -> Result<Option<Window<'_, Fields<R>>>> {
        let n = self.rows.next_window(&mut self.window, max)?;
        for row in &self.window {
            row.visit(&mut self.reference);
        }
        Ok((n > 0)
            .then(|| Window { records: &self.window, order: in_file_order(&mut self.order, n) }))
    }

    fn progress(&self) -> (u64, Option<u64>) {
        self.rows.progress()
    }

    fn finish(self: Box<Self>) -> Result<Scanned<Fields<R>>> {
        let input = self.rows.finish();
        let file = self.source.input_file(input.size.bytes, input.sha256);
        let reference = <Fields<R> as Workload>::finish(self.reference);
        Ok(Scanned {
            operations: reference.records,
            reference,
            file,
            warnings: Vec::new(),
            csv: Some(input.size),
        })
    }
}

/// Every row in memory, for tests that want them all at once.
#[cfg(test)]
pub fn load<R: Row>(source: &Source) -> Result<(Vec<R>, CsvInput)> {
    let mut reader = Rows::<R>::open(source)?;
    let mut rows = Vec::new();
    let mut window = Vec::new();
    while reader.next_window(&mut window, crate::input::DEFAULT_WINDOW)? > 0 {
        rows.append(&mut window);
    }
    Ok((rows, reader.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::tabular::{LongsRow, MixedRow, StringsRow, generate_rows};

    fn memory(text: &str) -> Source {
        Source::Memory { name: "t.csv".into(), bytes: Arc::from(text.as_bytes()) }
    }

    fn error_of<R: Row + std::fmt::Debug>(text: &str) -> String {
        format!("{:#}", load::<R>(&memory(text)).unwrap_err())
    }

    #[test]
    fn round_trips_through_text() {
        let rows: Vec<MixedRow> = generate_rows(300, 7, 0.5);
        let text = render(&rows);
        let (back, input) = load::<MixedRow>(&memory(&text)).unwrap();
        assert_eq!(back, rows);
        assert_eq!(input.size.bytes, text.len() as u64);
        assert_eq!(input.sha256.len(), 64);
    }

    #[test]
    fn windows_reuse_their_rows_and_add_up_to_the_file() {
        let rows: Vec<StringsRow> = generate_rows(1000, 8, 1.0);
        let mut reader = Rows::<StringsRow>::open(&memory(&render(&rows))).unwrap();
        let mut window = Vec::new();
        assert_eq!(reader.next_window(&mut window, 300).unwrap(), 300);
        let first_cell = window[0].f1.as_ref().unwrap().as_ptr();
        let mut read = window.clone();
        while reader.next_window(&mut window, 300).unwrap() > 0 {
            assert_eq!(
                window[0].f1.as_ref().unwrap().as_ptr(),
                first_cell,
                "the row's string is reused"
            );
            read.extend_from_slice(&window);
        }
        assert_eq!(read, rows);
        assert_eq!(reader.finish().size.values, 20_000);
    }

    #[test]
    fn errors_name_line_and_column() {
        let header = HEADER.join(",");
        let bad_number = format!("{header}\n{}\n1,2,x3{}\n", ",".repeat(19), ",".repeat(17));
        assert_eq!(
            error_of::<LongsRow>(&bad_number),
            "t.csv: line 3, column 3 (f3): 'x3' is not a 64-bit integer"
        );
        let short_row = format!("{header}\n1,2,3\n");
        assert_eq!(error_of::<LongsRow>(&short_row), "t.csv: line 2: expected 20 cells, found 3");
        let no_header = format!("{}\n", ["1"; 20].join(","));
        assert!(
            error_of::<LongsRow>(&no_header)
                .starts_with("t.csv: line 1: expected the header f1,f2,")
        );
        assert_eq!(
            error_of::<LongsRow>(""),
            "t.csv: empty file, expected a header line f1,...,f20"
        );
    }

    #[test]
    fn a_huge_cell_is_cut_in_the_error() {
        let header = HEADER.join(",");
        let error = error_of::<LongsRow>(&format!(
            "{header}\n{}{}\n",
            "9".repeat(5_000_000),
            ",".repeat(19)
        ));
        assert!(error.starts_with("t.csv: line 2, column 1 (f1): '9999"), "{error}");
        assert!(error.ends_with("… (5000000 bytes)' is not a 64-bit integer"), "{error}");
        assert!(error.len() < 200, "{error}");
    }

    #[test]
    fn an_unterminated_quote_is_named_with_line_and_column() {
        let header = HEADER.join(",");
        let rows = format!("{}\n", ["1"; 20].join(",")).repeat(3);
        let cut = format!("{header}\n{rows}1,2,\"3,4\n{rows}");
        assert_eq!(
            error_of::<LongsRow>(&cut),
            "t.csv: line 5, column 3 (f3): unterminated quote: the quoted cell starting there runs to the end of the file"
        );
        let last_column = format!("{header}\n{rows}{},\"x\n{rows}", ["a"; 19].join(","));
        assert_eq!(
            error_of::<StringsRow>(&last_column),
            "t.csv: line 5, column 20 (f20): unterminated quote: the quoted cell starting there runs to the end of the file"
        );
    }

    #[test]
    fn a_quote_closed_too_late_is_hinted_at() {
        let header = HEADER.join(",");
        let rows = format!("{}\n", ["1"; 20].join(",")).repeat(2);
        let text = format!("{header}\n1,\"2\n{rows}3\",4\n{rows}");
        assert_eq!(
            error_of::<LongsRow>(&text),
            "t.csv: line 2: expected 20 cells, found 3; column 2 is one quoted cell across 3 line breaks: is a closing quote missing?"
        );
    }

    #[test]
    fn a_literal_quote_inside_a_cell_is_text() {
        let header = HEADER.join(",");
        let (rows, _) =
            load::<StringsRow>(&memory(&format!("{header}\n5\" pipe{}\n", ",".repeat(19))))
                .unwrap();
        assert_eq!(rows[0].f1.as_deref(), Some("5\" pipe"));
    }
}
