//! `shootout export-dataset`: a workload's records and reference aggregate in
//! one language-neutral file (docs/dataset-format.md), so runners in other
//! languages measure the same records and validate against the same answer.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use serde::Serialize;

use crate::benchmark::Registered;
use crate::catalog::WorkloadTask;
use crate::document::InputFile;
use crate::input::{Input, Scanned};
use crate::workload::Workload;

pub const SCHEMA: &str = "shootout-dataset/1";

/// The output, checked before the input is read.
pub struct Target {
    path: PathBuf,
    force: bool,
}

impl Target {
    /// `path`, checked: writable, and none of the command's `inputs`.
    pub fn new(path: PathBuf, force: bool, inputs: &[PathBuf]) -> Result<Target> {
        crate::export::check_output(&path, force, inputs)?;
        Ok(Target { path, force })
    }
}

impl WorkloadTask for Target {
    fn on<W: Workload>(self, input: &dyn Input<W>, _formats: Vec<Registered<W>>) -> Result<()>
    where
        W::Record: Clone + Serialize,
    {
        export(input, self)
    }
}

#[derive(Serialize)]
struct Header<'a, A> {
    schema: &'static str,
    workload: &'static str,
    records: u64,
    source: String,
    input: Option<&'a InputFile>,
    fields: &'static [&'static str],
    #[serde(skip_serializing_if = "Option::is_none")]
    record_schemas: Option<serde_json::Value>,
    reference: &'a A,
}

/// Two passes: the first for the reference aggregate the header carries, the
/// second writes the records, so memory stays bounded whatever the input.
pub fn export<W: Workload>(input: &dyn Input<W>, target: Target) -> Result<()>
where
    W::Record: Serialize,
{
    let scanned = scan(input)?;
    crate::output::print_warnings(&scanned.warnings);

    // All or nothing: a partial dataset would validate nothing.
    let name = target.path.display().to_string();
    let written = crate::export::write_with(&target.path, target.force, |out| {
        write_to(input, &scanned, out, &name)
    })?;
    if target.path.as_os_str() != "-" {
        eprintln!("wrote {} ({written} {} records, {SCHEMA})", target.path.display(), W::NAME);
    }
    Ok(())
}

/// One pass over the input for its reference aggregate and record count.
pub fn scan<W: Workload>(input: &dyn Input<W>) -> Result<Scanned<W>> {
    let mut reader = input.open()?;
    while reader.next_window(crate::input::DEFAULT_WINDOW)?.is_some() {}
    reader.finish()
}

/// Writes the dataset of `input`, whose first pass found `scanned`, to `out` (named `name` in errors).
pub fn write_to<W: Workload>(
    input: &dyn Input<W>,
    scanned: &Scanned<W>,
    out: &mut dyn Write,
    name: &str,
) -> Result<u64>
where
    W::Record: Serialize,
{
    let header = Header {
        schema: SCHEMA,
        workload: W::NAME,
        records: scanned.operations,
        source: input.name(),
        input: scanned.file.as_ref(),
        fields: W::FIELDS,
        record_schemas: input.record_schemas().map(|schemas| schemas.handoff()),
        reference: &scanned.reference,
    };
    let cannot_write = || format!("{name}: cannot write");
    line(out, &header).with_context(cannot_write)?;

    let mut reader = input.open()?;
    let mut written = 0u64;
    let mut text = Vec::new();
    while let Some(window) = reader.next_window(crate::input::DEFAULT_WINDOW)? {
        for &i in window.order {
            let record = &window.records[i as usize];
            if let Some(field) = W::non_finite_field(record) {
                bail!(
                    "{}: {}: field {field} holds a NaN or infinite float, which JSON cannot carry; the dataset is not written whole",
                    input.name(),
                    input.position(written)
                );
            }
            text.clear();
            W::handoff_line(record, &mut text);
            text.push(b'\n');
            out.write_all(&text).with_context(cannot_write)?;
            written += 1;
        }
    }
    out.flush().with_context(cannot_write)?;
    Ok(written)
}

/// One JSON Lines line.
fn line(out: &mut dyn Write, value: &impl Serialize) -> Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}
