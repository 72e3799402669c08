//! Several testbeds' relative costs as a terminal table: one row per
//! language, format and direction, one column per testbed with the cost, its
//! interval and its rank, then the rank changes. Names come from results
//! files: every cell is shown as a terminal shows text from outside.

use std::io::Write;

use anyhow::Result;
use comfy_table::presets::UTF8_BORDERS_ONLY;
use comfy_table::{CellAlignment, Table};

use crate::sanitize;
use crate::testbeds::{Across, Cell};

pub fn terminal(across: &Across, out: &mut dyn Write) -> Result<()> {
    let shown = |text: &str| sanitize::terminal(text).into_owned();
    writeln!(
        out,
        "{}",
        shown(&format!(
            "Across testbeds: {}, {} records. Relative cost: each format's ns/op over its run's anchor, the machine's \
             speed taken out, anchored again on the formats every testbed measured (their geometric mean is 1); \
             95% interval in brackets; #rank among those formats on that testbed. ns/op compares only within a \
             testbed (its tables above).",
            across.workload, across.records
        ))
    )?;
    for column in &across.testbeds {
        writeln!(out, "  {}: {}", shown(&column.label), shown(&column.description))?;
    }
    let mut table = Table::new();
    table.load_style(UTF8_BORDERS_ONLY);
    let mut header = vec!["lang".to_owned(), "format".to_owned(), "direction".to_owned()];
    header.extend(across.testbeds.iter().map(|t| shown(&t.label)));
    table.set_header(header);
    for row in &across.rows {
        let mut cells = vec![shown(&row.language), shown(&row.format), row.direction.to_owned()];
        cells.extend(row.cells.iter().map(|cell| cell.as_ref().map_or("–".to_owned(), text)));
        table.add_row(cells);
    }
    for column in 3..3 + across.testbeds.len() {
        if let Some(column) = table.column_mut(column) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    writeln!(out, "{table}")?;
    match across.rank_changes.is_empty() {
        true => writeln!(out, "no format changes rank between the testbeds")?,
        false => {
            writeln!(out, "rank changes:")?;
            for line in &across.rank_changes {
                writeln!(out, "  {}", shown(line))?;
            }
        }
    }
    Ok(())
}

/// `0.52x [0.50–0.55] #1`.
fn text(cell: &Cell) -> String {
    let interval = cell.cost.interval;
    let rank = cell.rank.map_or(String::new(), |r| format!(" #{r}"));
    format!("{:.2}x [{:.2}–{:.2}]{rank}", cell.cost.value, interval.low, interval.high)
}
