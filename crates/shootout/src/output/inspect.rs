//! `shootout inspect` as text.

use std::io::{self, Write};

use comfy_table::{Table, presets::UTF8_BORDERS_ONLY};

use crate::workload::iex::ingest::CaptureReport;

fn price(raw: Option<i64>) -> String {
    raw.map_or_else(|| "-".to_owned(), |p| format!("{:.4}", p as f64 / 10_000.0))
}

pub fn write(report: &CaptureReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "file          {}", report.file)?;
    writeln!(out, 
        "packets       {} ({} IEX-TP, {} other, skipped)",
        report.packets, report.iex_packets, report.other_packets
    )?;
    let protocols: Vec<String> = report.protocols.iter().map(|(name, n)| format!("{name} ({n} packets)")).collect();
    writeln!(out, "protocols     {}", protocols.join(", "))?;
    if let Some([first, last]) = &report.time_range {
        writeln!(out, "time range    {first} .. {last}")?;
    }
    let counts: Vec<String> = report.messages.iter().map(|(kind, n)| format!("{kind}: {n}")).collect();
    writeln!(out, "messages      {} ({})", report.messages_total, counts.join(", "))?;
    let skipped = &report.skipped_messages;
    writeln!(out, 
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
            symbol.clone(),
            s.trade_volume.to_string(),
            price(s.bid_low),
            price(s.bid_high),
            price(s.ask_low),
            price(s.ask_high),
        ]);
    }
    writeln!(out, "{table}")
}
