//! The interop matrix in the terminal: a summary line per wire format, then
//! each wire format's producer × consumer table, its notes numbered. Names,
//! sources and details come from the runners' manifests and from decoders fed
//! other languages' bytes: every line and cell is shown as a terminal shows
//! text from outside.

use std::io::{self, Write};

use comfy_table::Table;
use comfy_table::presets::UTF8_BORDERS_ONLY;

use super::{Matrix, Status};
use crate::sanitize;

pub fn terminal(matrix: &Matrix, out: &mut dyn Write) -> io::Result<()> {
    let shown = |text: &str| sanitize::terminal(text).into_owned();
    writeln!(
        out,
        "interop: workload {}, {} records ({}); languages {}",
        matrix.workload,
        matrix.records,
        shown(&matrix.source),
        shown(&matrix.languages.join(", "))
    )?;
    writeln!(
        out,
        "Each stream written by a producer (row) is decoded by each consumer (column) and checked \
         against the reference aggregate: ok, mismatch (decoded, wrong values), error (the decoder's \
         message), n/a (why)."
    )?;
    let mut summary = Table::new();
    summary.load_style(UTF8_BORDERS_ONLY);
    summary.set_header([
        "wire format",
        "ok",
        "mismatch",
        "error",
        "n/a",
        "same bytes across languages",
    ]);
    let (tried, untried): (Vec<_>, Vec<_>) = matrix.wires.iter().partition(|w| !w.cells.is_empty());
    for wire in &tried {
        let count = |s: Status| wire.cells.iter().filter(|c| c.status == s).count().to_string();
        let same = match wire.bytes.len() {
            0 => "-".to_owned(),
            pairs => {
                format!("{} of {pairs} pairs", wire.bytes.iter().filter(|b| b.identical).count())
            }
        };
        summary.add_row([
            wire.wire.to_owned(),
            count(Status::Ok),
            count(Status::Mismatch),
            count(Status::Error),
            count(Status::NotApplicable),
            same,
        ]);
    }
    writeln!(out, "{summary}")?;
    if !untried.is_empty() {
        let names: Vec<&str> = untried.iter().map(|w| w.wire.as_str()).collect();
        writeln!(out, "No codec of these in the languages chosen: {}", names.join(", "))?;
    }

    for wire in &matrix.wires {
        writeln!(out)?;
        writeln!(out, "{}", wire.wire)?;
        let mut notes = Vec::new();
        if !wire.cells.is_empty() {
            let mut table = Table::new();
            table.load_style(UTF8_BORDERS_ONLY);
            let mut header = vec!["producer \\ consumer".to_owned()];
            header.extend(wire.consumers.iter().map(|c| shown(c)));
            table.set_header(header);
            for producer in &wire.producers {
                let id = format!("{}/{}", producer.language, producer.format);
                let mut row = vec![id.clone()];
                for consumer in &wire.consumers {
                    let cell =
                        wire.cells.iter().find(|c| c.producer == id && &c.consumer == consumer);
                    row.push(match cell {
                        None => String::new(),
                        Some(c) => match &c.detail {
                            Some(detail) if c.status != Status::Ok => {
                                let detail =
                                    detail.split_whitespace().collect::<Vec<_>>().join(" ");
                                notes.push(format!("{} → {}: {detail}", c.producer, c.consumer));
                                format!("{} [{}]", c.status.word(), notes.len())
                            }
                            _ => c.status.word().to_owned(),
                        },
                    });
                }
                table.add_row(row.iter().map(|cell| shown(cell)));
            }
            writeln!(out, "{table}")?;
        }
        let mut lines: Vec<String> =
            notes.iter().enumerate().map(|(i, note)| format!("  [{}] {note}", i + 1)).collect();
        lines.extend(wire.bytes.iter().map(|b| match &b.first_difference {
            None => format!("  bytes: {} and {} write identical records", b.a, b.b),
            Some(d) => format!("  bytes: {} and {} differ first at {d}", b.a, b.b),
        }));
        lines.extend(wire.absent.iter().map(|a| format!("  n/a {}: {}", a.language, a.reason)));
        for line in lines {
            writeln!(out, "{}", shown(&line))?;
        }
    }
    Ok(())
}
