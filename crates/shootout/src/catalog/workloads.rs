//! Every workload, described once: its name, what its records look like, where
//! its data comes from, and how to build its input and its registry of formats.
//! `--workload`, `shootout workloads`, the dispatch of `run` and
//! `export-dataset`, and the tests all read this table; adding a workload is a
//! folder beside this file and one line in `workloads!` below.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Result, bail};
use serde::Serialize;

use super::registry;
use crate::benchmark::Registered;
use crate::input::columns::{ColumnType, CsvColumns};
use crate::input::{InMemory, Input};
use crate::input::{Source, generate};
use crate::input::{csv, ingest, jsonl, schema};
use crate::workload::Workload;
use crate::workload::fields::Fields;
use crate::workload::iex::Iex;
use crate::workload::jsonl::schema::{Given, RecordSchemas};
use crate::workload::jsonl::{self as json_values, Csv, Jsonl};
use crate::workload::tabular::{self, LongsRow, MixedRow, Row, StringsRow};
use crate::workload::{object, primitives, sql, user};

/// Where a workload's records come from, as the user chose.
pub struct Data {
    /// `--input`: a capture or a CSV, depending on the workload.
    pub input: Option<PathBuf>,
    /// Records of a generated workload.
    pub records: u64,
    /// Probability that a generated tabular field is present.
    pub presence: f64,
    /// The generated capture (iex) and the seed of every generator.
    pub generated: generate::Options,
    /// `--column-types`: `csv` columns whose type is given, not inferred.
    pub column_types: Vec<(String, ColumnType)>,
    /// `--schema`: the `jsonl` records' protobuf or Avro schema.
    pub schema: Option<String>,
    /// Schemas given whole (a robustness case file's), for the schema formats
    /// in place of `--schema`'s or a csv's columns'.
    pub record_schemas: Option<RecordSchemas>,
}

impl Data {
    /// The files the data is read from (`--input`, `--schema`), which no
    /// export may replace.
    pub fn inputs(&self) -> Vec<PathBuf> {
        let schema =
            self.schema.as_deref().map(|arg| crate::input::schema::split(arg).0.to_owned());
        self.input.iter().cloned().chain(schema).collect()
    }
}

/// Something to do with a workload's input and registry, whichever workload it is.
pub trait WorkloadTask {
    fn on<W: Workload>(self, input: &dyn Input<W>, formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + Serialize;
}

/// One row of the table, as `shootout workloads` prints it.
#[derive(Debug, Serialize)]
pub struct Entry {
    pub name: &'static str,
    pub summary: &'static str,
    /// The record's shape.
    pub shape: &'static str,
    /// Where its data comes from.
    pub data: &'static str,
}

/// The table: one line per workload, `Variant => "name", summary, shape, data,
/// how to build its input (a function below) and its registry.
macro_rules! workloads {
    ($($variant:ident => $name:literal, $summary:literal, $shape:literal, $data:literal,
        $build:ident $(::<$row:ty>)? ($($arg:expr),*);)+) => {
        /// The workloads `--workload` chooses between.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
        #[serde(rename_all = "lowercase")]
        pub enum WorkloadName {
            $(#[doc = $summary] $variant,)+
        }

        pub const WORKLOADS: &[Entry] = &[
            $(Entry { name: $name, summary: $summary, shape: $shape, data: $data },)+
        ];

        /// Builds the input `data` describes for workload `name` and hands it, with its registry, to `task`.
        pub fn dispatch(name: WorkloadName, data: &Data, task: impl WorkloadTask) -> Result<()> {
            if data.schema.is_some() && name != WorkloadName::Jsonl {
                bail!("--schema is for --workload jsonl: a csv run builds its schemas from its columns, and the other workloads have their own");
            }
            match name {
                $(WorkloadName::$variant => $build $(::<$row>)? ($name, data, task, $($arg),*),)+
            }
        }
    };
}

workloads! {
    Iex => "iex",
        "IEX market data: one record per packet with trades or price updates (capture input)",
        "MultiMessage { seq_no, messages: [Message { ts, symbol, Trade | LevelUpdate }] }",
        "IEX capture (--input), else a generated DEEP 1.0 capture (--packets, --seed)",
        capture(registry::iex());
    User => "user",
        "A small API response of strings and longs; random picks from 1,000 records",
        "UserResponse: 3 longs, 6 strings (hex id, status, nickname, 3 timestamps)",
        "generated: 1,000 records, --records random picks (default 100,000)",
        generated(user::generate, registry::user());
    Sql => "sql",
        "A thin-client SQL request: query string plus arguments",
        "SqlRequest { query: string, args: [i64] }",
        "the study's request, --records times",
        generated(|records, _seed| sql::generate(records), registry::sql());
    Primitives => "primitives",
        "Runs of ints, longs, doubles, booleans and short strings",
        "8 each of i32, i64, f64, bool, short string",
        "generated: 1,000 records, --records random picks",
        generated(primitives::generate, registry::primitives());
    Object => "object",
        "A small record of ten mixed fields",
        "10 mixed fields: i64, 2 strings, i32, f64, f32, bool, u8, i64, [string]",
        "generated: 1,000 records, --records random picks",
        generated(object::generate, registry::object());
    Mixed => "mixed",
        "20 optional fields of mixed types (CSV input)",
        "20 optional fields: strings, f64, i64, i32, f32",
        "CSV (--input) or generated (--records rows, --presence)",
        tabular::<MixedRow>(registry::mixed());
    Strings => "strings",
        "20 optional string fields (CSV input)",
        "20 optional strings (UUID text)",
        "CSV (--input) or generated (--records rows, --presence)",
        tabular::<StringsRow>(registry::strings());
    Longs => "longs",
        "20 optional 64-bit integer fields (CSV input)",
        "20 optional i64",
        "CSV (--input) or generated (--records rows, --presence)",
        tabular::<LongsRow>(registry::longs());
    Jsonl => "jsonl",
        "Your JSON Lines: one record per line, any JSON value (JSON Lines input)",
        "any JSON value: objects, arrays, strings, integers exact up to 4,300 digits, floats",
        "JSON Lines (--input, - for standard input), else generated API events (--records, --seed)",
        json_lines(registry::jsonl());
    Csv => "csv",
        "Your CSV: a header of your column names, each column's type inferred (CSV input)",
        "an object per row: a member per non-empty cell, of its column's type (integer, float, boolean, text)",
        "CSV with a header (--input, - for standard input; --column-types NAME=TYPE), else generated orders (--records, --seed)",
        csv_rows(registry::csv());
}

/// An IEX capture from `--input`, else the generated one.
fn capture(
    _name: &str,
    data: &Data,
    task: impl WorkloadTask,
    formats: Vec<Registered<Iex>>,
) -> Result<()> {
    let source = match &data.input {
        Some(path) => Source::from_arg(path.clone()),
        None => {
            let options = data.generated;
            Source::Memory {
                name: format!(
                    "generated DEEP 1.0 capture (seed {}, {} packets)",
                    options.seed, options.packets
                ),
                bytes: Arc::from(generate::generate(options)),
            }
        }
    };
    task.on(&ingest::Capture { source }, formats)
}

/// Records from a generator; such a workload takes no `--input`.
fn generated<W: Workload>(
    name: &str,
    data: &Data,
    task: impl WorkloadTask,
    generate: impl Fn(usize, u64) -> crate::workload::Dataset<W>,
    formats: Vec<Registered<W>>,
) -> Result<()>
where
    W::Record: Clone + Serialize,
    W::Aggregate: Clone,
{
    if let Some(path) = &data.input {
        bail!("--workload {name} generates its data; it takes no --input ({})", path.display());
    }
    let dataset = generate(data.records as usize, data.generated.seed);
    task.on(&InMemory::generated(dataset), formats)
}

/// A tabular workload from `--input` CSV, or from generated rows rendered to
/// CSV and read back, so both take the same path and have a CSV size.
fn tabular<R: Row + Clone + Serialize>(
    _name: &str,
    data: &Data,
    task: impl WorkloadTask,
    formats: Vec<Registered<Fields<R>>>,
) -> Result<()> {
    let source = match &data.input {
        Some(path) => Source::from_arg(path.clone()),
        None => {
            let seed = data.generated.seed;
            let rows = tabular::generate_rows::<R>(data.records as usize, seed, data.presence);
            let name =
                format!("generated: {} rows, presence {}, seed {seed}", rows.len(), data.presence);
            Source::Memory { name, bytes: Arc::from(csv::render(&rows).into_bytes()) }
        }
    };
    task.on(&csv::CsvFile::<R>::new(source), formats)
}

/// JSON Lines from `--input`, or generated events rendered to JSON Lines and
/// read back, so both take the same path.
fn json_lines(
    _name: &str,
    data: &Data,
    task: impl WorkloadTask,
    formats: Vec<Registered<Jsonl>>,
) -> Result<()> {
    // A schema that cannot be used is an error before any record is made.
    let schema = data.schema.as_deref().map(schema::load).transpose()?;
    let source = match &data.input {
        Some(path) => Source::from_arg(path.clone()),
        None => {
            let seed = data.generated.seed;
            let records = json_values::generate(data.records as usize, seed);
            let name = format!("generated: {} API events, seed {seed}", records.len());
            Source::Memory { name, bytes: Arc::from(json_values::render(&records).into_bytes()) }
        }
    };
    let schemas = match (&data.record_schemas, &schema) {
        (Some(given_whole), _) => given_whole.clone(),
        (None, schema) => schema.as_ref().map_or_else(RecordSchemas::default, Given::schemas),
    };
    task.on(&jsonl::JsonlFile { source, schema }, registry::with_schemas(formats, &schemas))
}

/// Any CSV from `--input`, or generated orders; its columns' types are
/// inferred (or given), and printed before anything runs.
fn csv_rows(
    name: &str,
    data: &Data,
    task: impl WorkloadTask,
    formats: Vec<Registered<Csv>>,
) -> Result<()> {
    let source = match &data.input {
        Some(path) => Source::from_arg(path.clone()),
        None => {
            let seed = data.generated.seed;
            let text = json_values::orders_csv(data.records as usize, seed);
            let name = format!("generated: {} orders, seed {seed}", data.records);
            Source::Memory { name, bytes: Arc::from(text.into_bytes()) }
        }
    };
    if !data.column_types.is_empty() && data.input.is_none() {
        bail!(
            "--column-types needs --input: --workload {name} generates its columns' types itself"
        );
    }
    let input = CsvColumns::infer(source, &data.column_types)?;
    eprintln!("{}", crate::sanitize::line(&input.describe()));
    let schemas = data.record_schemas.as_ref().unwrap_or(&input.schemas);
    let formats = registry::with_schemas(formats, schemas);
    task.on(&input, formats)
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::*;

    #[test]
    fn every_workload_is_named_once_and_parsed_by_its_name() {
        assert_eq!(WORKLOADS.len(), WorkloadName::value_variants().len());
        for (entry, variant) in WORKLOADS.iter().zip(WorkloadName::value_variants()) {
            assert_eq!(WorkloadName::from_str(entry.name, false), Ok(*variant));
        }
    }
}
