//! `shootout inspect`: one streaming pass over a capture, shown as text.

use std::io::{self, IsTerminal, Write};

use anyhow::Result;
use comfy_table::{Table, presets::UTF8_BORDERS_ONLY};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::DEFAULT_WINDOW;
use crate::input::Source;
use crate::input::ingest::{CaptureReport, Records};
use crate::sanitize::terminal;

/// Reads the whole capture, keeping no records, with a progress bar on a terminal.
pub fn scan(source: &Source) -> Result<CaptureReport> {
    let mut records = Records::open(source)?;
    let progress = if io::stderr().is_terminal() {
        match records.progress() {
            (_, Some(total)) => ProgressBar::new(total).with_style(
                ProgressStyle::with_template(
                    "{spinner} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            ),
            (_, None) => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec}")
                    .expect("valid template"),
            ),
        }
    } else {
        ProgressBar::hidden()
    };
    let mut window = Vec::new();
    let mut read = || -> Result<()> {
        while records.next_window(&mut window, DEFAULT_WINDOW)? > 0 {
            progress.set_position(records.progress().0);
        }
        Ok(())
    };
    let read = read();
    progress.finish_and_clear();
    read?;
    records.finish()
}

fn price(raw: Option<i64>) -> String {
    raw.map_or_else(|| "-".to_owned(), |p| format!("{:.4}", p as f64 / 10_000.0))
}

/// The report as text. Symbols are the capture's bytes (any byte, as Latin-1)
/// and the file name is the user's: both are shown, never obeyed.
pub fn write(report: &CaptureReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "file          {}", terminal(&report.file))?;
    writeln!(out, "input         {} bytes, SHA-256 {}", report.input_bytes, report.sha256)?;
    writeln!(
        out,
        "packets       {} ({} IEX-TP, {} other, skipped)",
        report.packets, report.iex_packets, report.other_packets
    )?;
    let protocols: Vec<String> =
        report.protocols.iter().map(|(name, n)| format!("{name} ({n} packets)")).collect();
    writeln!(out, "protocols     {}", protocols.join(", "))?;
    if let Some([first, last]) = &report.time_range {
        writeln!(out, "time range    {first} .. {last}")?;
    }
    let counts: Vec<String> =
        report.messages.iter().map(|(kind, n)| format!("{kind}: {n}")).collect();
    writeln!(out, "messages      {} ({})", report.messages_total, counts.join(", "))?;
    let skipped = &report.skipped_messages;
    writeln!(
        out,
        "skipped       {} unknown type, {} shorter than spec; {} longer than spec read by known fields",
        skipped.unknown_type, skipped.shorter_than_spec, skipped.longer_than_spec
    )?;
    writeln!(out, "records       {} packets with trades or price updates", report.records)?;
    writeln!(out)?;
    let mut table = Table::new();
    table.load_style(UTF8_BORDERS_ONLY);
    table.set_header(["symbol", "trade volume", "bid low", "bid high", "ask low", "ask high"]);
    for (symbol, s) in &report.symbols {
        table.add_row([
            terminal(symbol).into_owned(),
            s.trade_volume.to_string(),
            price(s.bid_low),
            price(s.bid_high),
            price(s.ask_low),
            price(s.ask_high),
        ]);
    }
    writeln!(out, "{table}")
}
