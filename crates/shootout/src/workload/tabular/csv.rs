//! Tabular data as CSV: header f1..f20, one record per line, empty cell = absent.

use std::path::Path;

use anyhow::{Context, Result, bail};

use super::{HEADER, Row};

/// The CSV text of `rows`, header first.
pub fn render<R: Row>(rows: &[R]) -> String {
    let mut out = HEADER.join(",");
    out.push('\n');
    for row in rows {
        row.write(&mut out);
    }
    out
}

/// Sizes the original study compared formats against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CsvSize {
    /// The whole file, header included.
    pub bytes: u64,
    /// Present (non-empty) cells.
    pub values: u64,
}

/// Parses CSV `bytes` (named `name` in errors) into rows.
pub fn parse<R: Row>(name: &str, bytes: &[u8]) -> Result<(Vec<R>, CsvSize)> {
    let mut reader = ::csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes);
    let mut records = reader.records();
    let header = match records.next() {
        Some(row) => row.with_context(|| format!("{name}: line 1: unreadable header"))?,
        None => bail!("{name}: empty file, expected a header line f1,...,f20"),
    };
    if header.iter().ne(HEADER) {
        bail!("{name}: line 1: expected the header {}, found {}", HEADER.join(","), header.iter().collect::<Vec<_>>().join(","));
    }
    let mut rows = Vec::new();
    let mut values = 0u64;
    for record in records {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            anyhow::anyhow!("{name}: line {line}: {e}")
        })?;
        let line = record.position().map_or(0, |p| p.line());
        if record.len() != HEADER.len() {
            bail!("{name}: line {line}: expected {} cells, found {}", HEADER.len(), record.len());
        }
        let cells: Vec<&str> = record.iter().collect();
        values += cells.iter().filter(|c| !c.is_empty()).count() as u64;
        let row = R::parse(&cells).map_err(|(column, problem)| {
            anyhow::anyhow!("{name}: line {line}, column {} ({}): {problem}", column + 1, HEADER[column])
        })?;
        rows.push(row);
    }
    Ok((rows, CsvSize { bytes: bytes.len() as u64, values }))
}

pub fn read<R: Row>(path: &Path) -> Result<(Vec<R>, CsvSize)> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).with_context(|| format!("{name}: cannot open"))?;
    parse(&name, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::tabular::{LongsRow, MixedRow, generate_rows};

    fn error_of<R: Row + std::fmt::Debug>(text: &str) -> String {
        format!("{:#}", parse::<R>("t.csv", text.as_bytes()).unwrap_err())
    }

    #[test]
    fn round_trips_through_text() {
        let rows: Vec<MixedRow> = generate_rows(300, 7, 0.5);
        let text = render(&rows);
        let (back, size) = parse::<MixedRow>("t.csv", text.as_bytes()).unwrap();
        assert_eq!(back, rows);
        assert_eq!(size.bytes, text.len() as u64);
    }

    #[test]
    fn errors_name_line_and_column() {
        let header = HEADER.join(",");
        let bad_number = format!("{header}\n{}\n1,2,x3{}\n", ",".repeat(19), ",".repeat(17));
        assert_eq!(error_of::<LongsRow>(&bad_number), "t.csv: line 3, column 3 (f3): 'x3' is not a 64-bit integer");
        let short_row = format!("{header}\n1,2,3\n");
        assert_eq!(error_of::<LongsRow>(&short_row), "t.csv: line 2: expected 20 cells, found 3");
        let no_header = format!("{}\n", ["1"; 20].join(","));
        assert!(error_of::<LongsRow>(&no_header).starts_with("t.csv: line 1: expected the header f1,f2,"));
        assert_eq!(error_of::<LongsRow>(""), "t.csv: empty file, expected a header line f1,...,f20");
    }
}
