//! The matrix as one self-contained HTML page: the table coloured by outcome
//! (each non-ok cell linked to its finding, its detail as a tooltip), the
//! legend, the findings and each format's rules.

use std::io::{self, Write};

use super::matrix::Outcome;
use super::show::{Export, LEGEND, short_change, short_direction, tally};

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}\
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:center}\
td.name{text-align:left;font-weight:600}.ok{background:#d8f0d8}.error{background:#fbe7b8}\
.silent{background:#f4b6b6;font-weight:700}.panic{background:#d9c2ef}a{color:inherit}\
li{margin:.3em 0}dt{font-weight:600;margin-top:.6em}";

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub(super) fn write(document: &Export, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>shootout: schema evolution</title><style>{STYLE}</style></head><body>"
    )?;
    writeln!(
        out,
        "<h1>Schema evolution</h1><p>{} <code>user</code> records written by one version, read by the \
         other; each record on its own.</p>",
        document.records
    )?;
    write!(out, "<table><thead><tr><th rowspan=\"2\">format</th>")?;
    for change in &document.changes {
        write!(
            out,
            "<th colspan=\"{}\" title=\"{}\">{}</th>",
            document.directions.len(),
            escape(change.description),
            short_change(change.name)
        )?;
    }
    write!(out, "</tr><tr>")?;
    for _ in &document.changes {
        for direction in &document.directions {
            write!(
                out,
                "<th title=\"{}\">{}</th>",
                escape(direction.description),
                short_direction(direction.name)
            )?;
        }
    }
    writeln!(out, "</tr></thead><tbody>")?;
    let mut findings = Vec::new();
    for row in document.formats {
        write!(
            out,
            "<tr><td class=\"name\" title=\"{}\">{}</td>",
            escape(row.rules),
            escape(row.name)
        )?;
        for cell in &row.cells {
            let class = cell.outcome.class();
            if cell.outcome == Outcome::Ok {
                write!(out, "<td class=\"ok\">ok</td>")?;
            } else {
                findings.push((row.name, cell));
                let number = findings.len();
                write!(
                    out,
                    "<td class=\"{class}\" title=\"{}\"><a href=\"#finding-{number}\">{class}&nbsp;{number}</a></td>",
                    escape(&cell.outcome.detail())
                )?;
            }
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(out, "<h2>Changes</h2><ul>")?;
    for change in &document.changes {
        writeln!(
            out,
            "<li><b>{}</b>: {}</li>",
            short_change(change.name),
            escape(change.description)
        )?;
    }
    writeln!(out, "</ul><p><b>Outcomes</b>: {}</p>", escape(LEGEND))?;
    if !findings.is_empty() {
        writeln!(out, "<h2>Findings</h2><ol>")?;
        for (number, (name, cell)) in findings.iter().enumerate() {
            writeln!(
                out,
                "<li id=\"finding-{}\"><span class=\"{class}\">{class}</span> {} {} {} ({}): {}</li>",
                number + 1,
                escape(name),
                short_change(cell.change),
                short_direction(cell.direction),
                tally(&cell.records),
                escape(&cell.outcome.detail()),
                class = cell.outcome.class(),
            )?;
        }
        writeln!(out, "</ol>")?;
    }
    writeln!(out, "<h2>Each format's evolution rules</h2><dl>")?;
    for row in document.formats {
        writeln!(
            out,
            "<dt>{} ({})</dt><dd>{}</dd>",
            escape(row.name),
            escape(row.family),
            escape(row.rules)
        )?;
    }
    writeln!(out, "</dl></body></html>")
}
