//! Any CSV: a header with the user's own column names, any number of
//! columns, each column's type inferred from its cells (or given), each row
//! read as a JSON object of its non-empty cells (`csv` workload,
//! docs/dataset-format.md). Read in windows, so memory stays bounded.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use num_bigint::BigInt;

use crate::input::csv::Records;
use crate::input::source::Source;
use crate::input::{Input, Reader, Scanned, Window, in_file_order};
use crate::sanitize::{elide, listing};
use crate::workload::jsonl::schema::{RecordSchemas, is_identifier};
use crate::workload::jsonl::{Csv, MAX_DIGITS, Value, ValueSink, visit};
use crate::workload::tabular::Cell;
use crate::workload::{Dataset, Workload};

/// What a column's cells hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnType {
    /// Whole numbers, exact up to 4,300 digits.
    Integer,
    /// 64-bit floats (NaN and inf as written).
    Float,
    /// `true` or `false`, in any case.
    Boolean,
    Text,
}

impl fmt::Display for ColumnType {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            ColumnType::Integer => "integer",
            ColumnType::Float => "float",
            ColumnType::Boolean => "boolean",
            ColumnType::Text => "text",
        })
    }
}

/// `--column-types NAME=TYPE`: a column's type given, not inferred.
pub fn column_type(arg: &str) -> Result<(String, ColumnType), String> {
    let (name, kind) = arg.rsplit_once('=').ok_or_else(|| {
        format!("'{arg}': expected NAME=TYPE, TYPE one of integer, float, boolean, text")
    })?;
    let kind = <ColumnType as clap::ValueEnum>::from_str(kind, true)
        .map_err(|_| format!("'{kind}' is not a column type: integer, float, boolean or text"))?;
    Ok((name.to_owned(), kind))
}

#[derive(Debug, Clone)]
pub struct Column {
    pub name: String,
    pub kind: ColumnType,
}

/// A CSV file whose columns' types are known: read once to infer them when
/// it is opened, then once per pass.
pub struct CsvColumns {
    source: Source,
    pub columns: Vec<Column>,
    /// The protobuf and Avro schemas the columns give (or why not), for
    /// the schema formats.
    pub schemas: RecordSchemas,
}

impl CsvColumns {
    /// Reads the header and every row once, inferring each column's type from
    /// its non-empty cells; `given` overrides columns by name.
    pub fn infer(source: Source, given: &[(String, ColumnType)]) -> Result<CsvColumns> {
        let mut given_types: HashMap<&str, ColumnType> = HashMap::with_capacity(given.len());
        for (name, kind) in given {
            match given_types.insert(name, *kind) {
                Some(earlier) if earlier != *kind => bail!(
                    "--column-types gives column '{}' two types, {earlier} and {kind}; give it one",
                    elide(name)
                ),
                _ => {}
            }
        }
        let mut rows = Rows::open(&source)?;
        let header: HashSet<&str> = rows.header.iter().map(String::as_str).collect();
        if let Some(name) = given_types.keys().find(|name| !header.contains(*name)) {
            bail!(
                "{}: --column-types names '{}', which is not a column (columns: {})",
                rows.records.name,
                elide(name),
                listing(rows.header.iter().map(|h| elide(h)))
            );
        }
        let mut possible = vec![Possible::default(); rows.header.len()];
        while rows.next()? {
            for (cell, p) in rows.records.record.iter().zip(&mut possible) {
                p.see(cell);
            }
        }
        let columns = rows
            .header
            .iter()
            .zip(&possible)
            .map(|(name, p)| Column {
                name: name.clone(),
                kind: given_types.get(name.as_str()).copied().unwrap_or(p.kind()),
            })
            .collect::<Vec<Column>>();
        let wide = columns
            .iter()
            .zip(&possible)
            .find(|(c, p)| c.kind == ColumnType::Integer && p.wide)
            .map(|(c, _)| c.name.as_str());
        let schemas = schemas_of(&columns, wide);
        Ok(CsvColumns { source, columns, schemas })
    }

    /// One line for the terminal: each column and its type, the listing
    /// cut short (with the number left out) when there are many.
    pub fn describe(&self) -> String {
        let columns = self.columns.iter().map(|c| format!("{} ({})", elide(&c.name), c.kind));
        format!("{}: {} columns: {}", self.source.name(), self.columns.len(), listing(columns))
    }
}

/// The schemas a `csv` run's columns give (docs/dataset-format.md, "`csv`
/// schemas"): a proto3 message `Row` with an `optional` field per column and
/// an Avro record `Row` with a `["null", T]` field per column, or why not.
/// `wide` names an integer column holding a value beyond 64 signed bits.
fn schemas_of(columns: &[Column], wide: Option<&str>) -> RecordSchemas {
    let refused =
        |reason: String| RecordSchemas { protobuf: Err(reason.clone()), avro: Err(reason) };
    if let Some(column) = columns.iter().find(|c| !is_identifier(&c.name)) {
        return refused(format!(
            "the csv's columns give no schema: column '{}' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)",
            elide(&column.name)
        ));
    }
    if let Some(column) = wide {
        return refused(format!(
            "the csv's columns give no schema: integer column '{}' holds a value beyond 64 signed bits",
            elide(column)
        ));
    }
    let fields: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let kind = match c.kind {
                ColumnType::Integer => "int64",
                ColumnType::Float => "double",
                ColumnType::Boolean => "bool",
                ColumnType::Text => "string",
            };
            format!("  optional {kind} {} = {};\n", c.name, field_number(i))
        })
        .collect();
    let proto = format!(
        "syntax = \"proto3\";\n\npackage shootout.csv;\n\nmessage Row {{\n{}}}\n",
        fields.concat()
    );
    let fields: Vec<serde_json::Value> = columns
        .iter()
        .map(|c| {
            let kind = match c.kind {
                ColumnType::Integer => "long",
                ColumnType::Float => "double",
                ColumnType::Boolean => "boolean",
                ColumnType::Text => "string",
            };
            serde_json::json!({ "name": c.name, "type": ["null", kind], "default": null })
        })
        .collect();
    let avsc = serde_json::json!({ "type": "record", "name": "Row", "namespace": "shootout.csv", "fields": fields });
    RecordSchemas {
        protobuf: super::schema::compile_text("row.proto", proto).map(Arc::new),
        avro: crate::workload::jsonl::schema::AvroSchema::new("row.avsc".into(), avsc.to_string())
            .map(Arc::new),
    }
}

/// The protobuf field number of column `i` (0-based): 1, 2, … in order,
/// skipping 19000 to 19999, which protobuf reserves for its own use.
fn field_number(i: usize) -> usize {
    match i + 1 {
        n if n < 19_000 => n,
        n => n + 1_000,
    }
}

/// Which types every non-empty cell of a column so far fits.
#[derive(Debug, Clone, Copy)]
struct Possible {
    seen: bool,
    /// An integer cell beyond 64 signed bits, which the derived schemas cannot hold.
    wide: bool,
    integer: bool,
    float: bool,
    boolean: bool,
}

impl Default for Possible {
    fn default() -> Self {
        Possible { seen: false, wide: false, integer: true, float: true, boolean: true }
    }
}

impl Possible {
    fn see(&mut self, cell: &str) {
        if cell.is_empty() {
            return;
        }
        self.seen = true;
        let code = is_code(cell);
        self.integer &= !code && is_integer(cell);
        self.wide |= is_integer(cell) && cell.parse::<i64>().is_err();
        // A number beyond a double's range (`1e400`) still makes the column
        // a float's, so that reading it refuses the cell as the f1..f20
        // reader does, rather than keeping it as text.
        self.float &= !code && (self.integer || cell.parse::<f64>().is_ok());
        self.boolean &= boolean(cell).is_some();
    }

    fn kind(&self) -> ColumnType {
        match *self {
            Possible { seen: false, .. } => ColumnType::Text,
            Possible { integer: true, .. } => ColumnType::Integer,
            Possible { float: true, .. } => ColumnType::Float,
            Possible { boolean: true, .. } => ColumnType::Boolean,
            _ => ColumnType::Text,
        }
    }
}

/// Digits with an optional sign.
fn is_integer(cell: &str) -> bool {
    let digits = cell.strip_prefix(['-', '+']).unwrap_or(cell);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Digits with a leading zero (`02139`): a code whose zero means something,
/// so inference keeps its column text; `--column-types` can still say integer.
fn is_code(cell: &str) -> bool {
    cell.len() > 1 && cell.starts_with('0') && cell.bytes().all(|b| b.is_ascii_digit())
}

fn boolean(cell: &str) -> Option<bool> {
    if cell.eq_ignore_ascii_case("true") {
        Some(true)
    } else if cell.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// A non-empty cell as a value of its column's type.
fn value(cell: &str, kind: ColumnType) -> Result<Value, String> {
    Ok(match kind {
        ColumnType::Text => Value::String(cell.to_owned()),
        ColumnType::Boolean => Value::Bool(
            boolean(cell).ok_or_else(|| format!("'{}' is not true or false", elide(cell)))?,
        ),
        ColumnType::Float => Value::Float(<f64 as Cell>::parse(cell)?),
        ColumnType::Integer => {
            if !is_integer(cell) {
                return Err(format!("'{}' is not an integer", elide(cell)));
            }
            let digits = cell.strip_prefix('+').unwrap_or(cell);
            // As in JSON Lines: a big integer's reading takes time quadratic in its digits.
            if digits.trim_start_matches('-').len() > MAX_DIGITS {
                return Err(format!(
                    "'{}' has more than {MAX_DIGITS} digits; integers are kept exactly up to {MAX_DIGITS} digits",
                    elide(cell)
                ));
            }
            if let Ok(v) = digits.parse::<i64>() {
                Value::Int(v)
            } else if let Ok(v) = digits.parse::<u64>() {
                Value::UInt(v)
            } else {
                Value::Big(Box::new(digits.parse::<BigInt>().map_err(|e| e.to_string())?))
            }
        }
    })
}

/// The rows of a CSV file after its header, read one at a time.
struct Rows {
    records: Records,
    header: Vec<String>,
}

impl Rows {
    fn open(source: &Source) -> Result<Rows> {
        let mut records = Records::open(source)?;
        if !records.read(&[] as &[&str])? {
            bail!("{}: empty file, expected a header line of column names", records.name);
        }
        let header: Vec<String> = records.record.iter().map(str::to_owned).collect();
        let mut first_of: HashMap<&str, usize> = HashMap::with_capacity(header.len());
        for (i, column) in header.iter().enumerate() {
            if let Some(first) = first_of.insert(column, i) {
                bail!(
                    "{}: line 1: column {} repeats the name '{}' of column {}",
                    records.name,
                    i + 1,
                    elide(column),
                    first + 1
                );
            }
        }
        Ok(Rows { records, header })
    }

    /// Reads the next row; false at the end. A row must have the header's cell count.
    fn next(&mut self) -> Result<bool> {
        if !self.records.read(&self.header)? {
            return Ok(false);
        }
        if self.records.record.len() != self.header.len() {
            bail!(
                "{}: line {}: expected {} cells, as the header has, found {}",
                self.records.name,
                self.records.line(),
                self.header.len(),
                self.records.record.len()
            );
        }
        Ok(true)
    }
}

impl Input<Csv> for CsvColumns {
    fn name(&self) -> String {
        self.source.name()
    }

    fn open(&self) -> Result<Box<dyn Reader<Csv> + '_>> {
        Ok(Box::new(ColumnsReader {
            rows: Rows::open(&self.source)?,
            columns: &self.columns,
            window: Vec::new(),
            order: Vec::new(),
            reference: ValueSink::default(),
            source: &self.source,
        }))
    }

    fn position(&self, op: u64) -> String {
        format!("row {} after the header", op + 1)
    }

    fn record_schemas(&self) -> Option<RecordSchemas> {
        Some(self.schemas.clone())
    }
}

struct ColumnsReader<'a> {
    rows: Rows,
    columns: &'a [Column],
    window: Vec<Value>,
    order: Vec<u32>,
    reference: ValueSink,
    source: &'a Source,
}

impl Reader<Csv> for ColumnsReader<'_> {
    fn next_window(&mut self, max: usize) -> Result<Option<Window<'_, Csv>>> {
        self.window.clear();
        while self.window.len() < max.max(1) && self.rows.next()? {
            let mut members = Vec::new();
            for (i, (cell, column)) in self.rows.records.record.iter().zip(self.columns).enumerate()
            {
                if cell.is_empty() {
                    continue;
                }
                let value = value(cell, column.kind).map_err(|problem| {
                    anyhow!(
                        "{}: line {}, column {} ({}): {problem} (the column is {})",
                        self.rows.records.name,
                        self.rows.records.line(),
                        i + 1,
                        elide(&column.name),
                        column.kind
                    )
                })?;
                members.push((column.name.clone(), value));
            }
            let record = Value::Object(members);
            visit(&record, &mut self.reference);
            self.window.push(record);
        }
        let n = self.window.len();
        Ok((n > 0)
            .then(|| Window { records: &self.window, order: in_file_order(&mut self.order, n) }))
    }

    fn progress(&self) -> (u64, Option<u64>) {
        self.rows.records.tap.progress()
    }

    fn finish(self: Box<Self>) -> Result<Scanned<Csv>> {
        let (bytes, sha256) = self.rows.records.tap.digest();
        let file = self.source.input_file(bytes, sha256);
        let reference = <Csv as Workload>::finish(self.reference);
        Ok(Scanned {
            operations: reference.records,
            reference,
            file,
            warnings: Vec::new(),
            csv: None,
        })
    }
}

/// The `csv` sample: generated orders, read through this reader as
/// `--workload csv` without `--input` reads them.
pub fn sample() -> Dataset<Csv> {
    let name = "generated: 300 orders, seed 1".to_string();
    let bytes = Arc::from(crate::workload::jsonl::orders_csv(300, 1).into_bytes());
    let input = CsvColumns::infer(Source::Memory { name: name.clone(), bytes }, &[])
        .expect("generated CSV");
    let mut reader = input.open().expect("generated CSV");
    let mut records = Vec::new();
    while let Some(window) =
        reader.next_window(crate::input::DEFAULT_WINDOW).expect("generated CSV")
    {
        records.extend_from_slice(window.records);
    }
    Dataset::in_order(records, reader.finish().expect("generated CSV").reference, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::source::CSV_RECORD;
    use crate::workload::jsonl::schema::Given;

    fn column(name: &str, kind: ColumnType) -> Column {
        Column { name: name.into(), kind }
    }

    #[test]
    fn a_csv_row_is_its_own_projection_under_both_derived_schemas() {
        let columns = [
            column("id", ColumnType::Integer),
            column("price", ColumnType::Float),
            column("paid", ColumnType::Boolean),
            column("note", ColumnType::Text),
        ];
        let schemas = schemas_of(&columns, None);
        let row = Value::parse(br#"{"id":0,"price":-0.0,"paid":false,"note":""}"#).unwrap();
        let sparse = Value::parse(br#"{"id":-5}"#).unwrap();
        for given in [
            Given::Protobuf(schemas.protobuf.ok().unwrap()),
            Given::Avro(schemas.avro.ok().unwrap()),
        ] {
            assert_eq!(given.project(&row).unwrap(), row);
            assert_eq!(given.project(&sparse).unwrap(), sparse);
        }
    }

    /// A CSV of `columns` columns `c0`, `c1`, … and one row of 1s.
    fn wide(columns: usize) -> Source {
        let header: Vec<String> = (0..columns).map(|i| format!("c{i}")).collect();
        memory(&format!("{}\n{}\n", header.join(","), vec!["1"; columns].join(",")))
    }

    /// Reading is linear in the columns: 100,000 of them are read, typed
    /// and given their schemas in seconds, where searching the names for
    /// each column took minutes.
    #[test]
    fn a_csv_of_100k_columns_is_read_in_seconds() {
        let input = CsvColumns::infer(wide(100_000), &[]).unwrap();
        assert_eq!(input.columns.len(), 100_000);
        assert!(input.schemas.avro.is_ok() && input.schemas.protobuf.is_ok());
        let record = crate::dataset::scan(&input).unwrap();
        assert_eq!(record.operations, 1);
    }

    /// Past 18,999 columns the protobuf schema's field numbers skip
    /// protobuf's reserved 19000 to 19999, so protobuf-dynamic still runs.
    #[test]
    fn field_numbers_skip_the_range_protobuf_reserves() {
        assert_eq!(field_number(0), 1);
        assert_eq!(field_number(18_998), 18_999);
        assert_eq!(field_number(18_999), 20_000);
        let input = CsvColumns::infer(wide(19_500), &[]).unwrap();
        let schema = input.schemas.protobuf.clone().expect("a protobuf schema");
        assert_eq!(schema.message.get_field_by_name("c18999").unwrap().number(), 20_000);
        let row = Value::Object(vec![("c18999".into(), Value::Int(1))]);
        assert_eq!(Given::Protobuf(schema).project(&row).unwrap(), row);
    }

    #[test]
    fn a_float_column_refuses_a_cell_beyond_a_double() {
        let input = CsvColumns::infer(memory("x\n1.5\n1e400\n"), &[]).unwrap();
        assert_eq!(input.columns[0].kind, ColumnType::Float, "1e400 is a number, if not a double");
        let error = crate::dataset::scan(&input).err().unwrap().to_string();
        assert!(
            error.starts_with("t.csv: line 3, column 1 (x): '1e400' is beyond the range"),
            "{error}"
        );
    }

    #[test]
    fn a_record_over_the_cap_is_refused() {
        let long = format!("a\n{}", "x".repeat(CSV_RECORD.bytes as usize + (2 << 20)));
        let error = CsvColumns::infer(memory(&long), &[]).err().unwrap().to_string();
        assert_eq!(
            error,
            "t.csv: line 2: a record of more than 16777216 bytes; expected at most 16777216 (16 MiB) for a CSV record"
        );
    }

    #[test]
    fn columns_that_make_no_schema_say_why() {
        let schemas = schemas_of(&[column("weight kg", ColumnType::Float)], None);
        assert!(
            schemas.protobuf.err().unwrap().contains("column 'weight kg' is not an identifier")
        );
        let schemas = schemas_of(&[column("n", ColumnType::Integer)], Some("n"));
        assert!(schemas.avro.err().unwrap().contains("beyond 64 signed bits"));
    }

    fn memory(text: &str) -> Source {
        Source::Memory { name: "t.csv".into(), bytes: Arc::from(text.as_bytes()) }
    }

    fn kinds(text: &str) -> Vec<(String, ColumnType)> {
        let columns = CsvColumns::infer(memory(text), &[]).unwrap().columns;
        columns.into_iter().map(|c| (c.name, c.kind)).collect()
    }

    #[test]
    fn each_column_takes_the_narrowest_type_all_its_cells_fit() {
        let text = "id,price,paid,note,empty,big,zip\n1,2.5,true,x,,123456789012345678901234567890,02139\n-2,3,FALSE,7,,1,10001\n";
        assert_eq!(
            kinds(text),
            [
                ("id".into(), ColumnType::Integer),
                ("price".into(), ColumnType::Float),
                ("paid".into(), ColumnType::Boolean),
                ("note".into(), ColumnType::Text),
                ("empty".into(), ColumnType::Text),
                ("big".into(), ColumnType::Integer),
                ("zip".into(), ColumnType::Text),
            ]
        );
    }

    #[test]
    fn rows_are_objects_of_their_present_cells() {
        let input = CsvColumns::infer(memory("a,b,c\n1,,x\n,2.5,\n"), &[]).unwrap();
        let mut reader = input.open().unwrap();
        let window = reader.next_window(10).unwrap().unwrap();
        assert_eq!(
            window.records,
            [
                Value::Object(vec![
                    ("a".into(), Value::Int(1)),
                    ("c".into(), Value::String("x".into()))
                ]),
                Value::Object(vec![("b".into(), Value::Float(2.5))]),
            ]
        );
    }

    #[test]
    fn a_given_type_is_checked_cell_by_cell() {
        let given = [("a".to_owned(), ColumnType::Integer), ("b".to_owned(), ColumnType::Text)];
        let input = CsvColumns::infer(memory("a,b\n1,2\nx,3\n"), &given).unwrap();
        assert_eq!(input.columns[1].kind, ColumnType::Text);
        let error = crate::dataset::scan(&input).err().unwrap().to_string();
        assert_eq!(
            error,
            "t.csv: line 3, column 1 (a): 'x' is not an integer (the column is integer)"
        );
        let unknown = CsvColumns::infer(memory("a\n1\n"), &[("z".into(), ColumnType::Text)]);
        assert!(unknown.err().unwrap().to_string().contains("names 'z', which is not a column"));
    }

    #[test]
    fn bad_files_are_one_line_with_the_place() {
        let error = |text: &str| CsvColumns::infer(memory(text), &[]).err().unwrap().to_string();
        assert_eq!(error(""), "t.csv: empty file, expected a header line of column names");
        assert_eq!(error("a,b,a\n"), "t.csv: line 1: column 3 repeats the name 'a' of column 1");
        assert_eq!(
            error("a,b\n1,2\n3\n"),
            "t.csv: line 3: expected 2 cells, as the header has, found 1"
        );
        assert_eq!(
            column_type("n=int"),
            Err("'int' is not a column type: integer, float, boolean or text".into())
        );
        assert_eq!(column_type("a=b=Float"), Ok(("a=b".into(), ColumnType::Float)));
    }
}
