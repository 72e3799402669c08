//! `shootout export-dataset`: a workload's records and reference aggregate in
//! one language-neutral file (docs/dataset-format.md), so runners in other
//! languages measure the same records and validate against the same answer.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use serde::Serialize;

use crate::benchmark::Registered;
use crate::benchmark::input::{Input, InputFile, Scanned};
use crate::workload::Workload;
use crate::workload::catalog::WorkloadTask;

pub const SCHEMA: &str = "shootout-dataset/1";

/// The output, checked before the input is read.
pub struct Target {
    path: PathBuf,
    force: bool,
}

impl Target {
    pub fn new(path: PathBuf, force: bool) -> Result<Target> {
        let target = crate::export::Target {
            kind: crate::export::Kind::Json,
            path: path.clone(),
        };
        crate::export::check_targets(std::slice::from_ref(&target), force)?;
        Ok(Target { path, force })
    }

    fn open(&self) -> Result<Box<dyn Write>> {
        if self.path.as_os_str() == "-" {
            return Ok(Box::new(BufWriter::new(io::stdout().lock())));
        }
        let file = crate::export::create(&self.path, self.force)?;
        Ok(Box::new(BufWriter::new(file)))
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
    reference: &'a A,
}

/// Two passes: the first for the reference aggregate the header carries, the
/// second writes the records, so memory stays bounded whatever the input.
pub fn export<W: Workload>(input: &dyn Input<W>, target: Target) -> Result<()>
where
    W::Record: Serialize,
{
    let scanned = scan(input)?;
    for warning in &scanned.warnings {
        eprintln!("warning: {warning}");
    }

    let written = write(input, &scanned, &target);
    if written.is_err() && target.path.as_os_str() != "-" {
        // A partial dataset would validate nothing: remove what this run created.
        let _ = std::fs::remove_file(&target.path);
    }
    let written = written?;
    if target.path.as_os_str() != "-" {
        eprintln!(
            "wrote {} ({written} {} records, {SCHEMA})",
            target.path.display(),
            W::NAME
        );
    }
    Ok(())
}

/// One pass over the input for its reference aggregate and record count.
pub fn scan<W: Workload>(input: &dyn Input<W>) -> Result<Scanned<W>> {
    let mut reader = input.open()?;
    while reader
        .next_window(crate::benchmark::DEFAULT_WINDOW)?
        .is_some()
    {}
    reader.finish()
}

fn write<W: Workload>(input: &dyn Input<W>, scanned: &Scanned<W>, target: &Target) -> Result<u64>
where
    W::Record: Serialize,
{
    let name = target.path.display().to_string();
    write_to(input, scanned, &mut target.open()?, &name)
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
        reference: &scanned.reference,
    };
    let cannot_write = || format!("{name}: cannot write");
    line(out, &header).with_context(cannot_write)?;

    let mut reader = input.open()?;
    let mut written = 0u64;
    while let Some(window) = reader.next_window(crate::benchmark::DEFAULT_WINDOW)? {
        for &i in window.order {
            let record = &window.records[i as usize];
            if let Some(field) = W::non_finite_field(record) {
                bail!(
                    "{}: {}: field {field} holds a NaN or infinite float, which JSON cannot carry; the dataset is not written whole",
                    input.name(),
                    input.position(written)
                );
            }
            line(out, record).with_context(cannot_write)?;
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
