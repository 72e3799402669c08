//! Capture → records and reference aggregate, streamed in windows of records:
//! memory stays bounded whatever the capture's size.

use std::collections::BTreeMap;
use std::time::{Duration, UNIX_EPOCH};

use anyhow::Result;
use serde::Serialize;

use super::{IexPackets, Source};
use crate::input::{Input, Reader, Scanned, Window, in_file_order};
#[cfg(test)]
use crate::workload::Dataset;
use crate::workload::iex::wire::{self, Decoded, Protocol};
use crate::workload::iex::{Aggregate, Aggregator, Body, Iex, Message, MultiMessage, SymbolStats};

/// What `shootout inspect` prints: the capture's contents and its reference aggregate.
#[derive(Debug, Serialize)]
pub struct CaptureReport {
    pub file: String,
    /// Size of the input as given (compressed, for gzip).
    pub input_bytes: u64,
    /// SHA-256 of the input as given, hex.
    pub sha256: String,
    /// Complete packet records in the capture.
    pub packets: u64,
    pub iex_packets: u64,
    /// Packets that are not IEX-TP over UDP/IPv4/Ethernet: counted and skipped.
    pub other_packets: u64,
    /// Capture bytes read (after gzip).
    pub bytes: u64,
    pub protocols: BTreeMap<&'static str, u64>,
    /// First and last IEX-TP send time, RFC 3339 UTC.
    pub time_range: Option<[String; 2]>,
    /// Message counts by type character; types the specs do not define are included.
    pub messages: BTreeMap<String, u64>,
    pub messages_total: u64,
    pub skipped_messages: SkippedMessages,
    /// Benchmark records: packets with at least one trade or counted price update.
    pub records: u64,
    pub warnings: Vec<String>,
    /// The reference aggregate: its totals (its record count is `records`), then per symbol.
    pub record_messages: u64,
    pub seq_no_sum: u64,
    pub symbols: BTreeMap<String, SymbolStats>,
}

#[derive(Debug, Default, Serialize)]
pub struct SkippedMessages {
    /// Types no spec defines, skipped by their length.
    pub unknown_type: u64,
    /// Known types with a body shorter than the spec: skipped.
    pub shorter_than_spec: u64,
    /// Known types with a longer body: read by their known fields, the rest skipped.
    pub longer_than_spec: u64,
}

const PROTOCOLS: [Protocol; 3] = [Protocol::Tops15, Protocol::Tops16, Protocol::Deep10];

/// A streaming reader of benchmark records, with the counts and the reference
/// aggregate of everything it has read.
pub struct Records {
    packets: IexPackets,
    name: String,
    reference: Aggregator,
    counts: [u64; 256],
    skipped: SkippedMessages,
    /// Where the first message shorter than its spec is, for the warning that counts them.
    first_short: Option<u64>,
    /// Packets by protocol, in `PROTOCOLS` order.
    protocols: [u64; 3],
    send_times: Option<(i64, i64)>,
    /// The IEX-TP send time of each record of the last window, in order.
    window_send_times: Vec<i64>,
    records: u64,
    /// Messages cut off the end of reused records, kept for the next ones.
    spare: Vec<Message>,
}

impl Records {
    pub fn open(source: &Source) -> Result<Records> {
        Ok(Records {
            packets: IexPackets::open(source)?,
            name: source.name(),
            reference: Aggregator::default(),
            counts: [0; 256],
            skipped: SkippedMessages::default(),
            first_short: None,
            protocols: [0; 3],
            send_times: None,
            window_send_times: Vec::new(),
            records: 0,
            spare: Vec::new(),
        })
    }

    /// Clears `window` and fills it with up to `max` records, reusing the
    /// records, message lists and symbols already in it. Returns the count; 0 = end.
    pub fn next_window(&mut self, window: &mut Vec<MultiMessage>, max: usize) -> Result<usize> {
        let mut filled = 0;
        self.window_send_times.clear();
        if max > 0 {
            let Records {
                packets,
                reference,
                counts,
                skipped,
                first_short,
                protocols,
                send_times,
                window_send_times,
                spare,
                ..
            } = self;
            packets.next_packets(|packet| {
                let protocol = packet.header.protocol;
                protocols[PROTOCOLS
                    .iter()
                    .position(|&p| p == protocol)
                    .expect("every protocol listed")] += 1;
                let t = packet.header.send_time;
                *send_times = Some(send_times.map_or((t, t), |(lo, hi)| (lo.min(t), hi.max(t))));
                if filled == window.len() {
                    window.push(MultiMessage { seq_no: 0, messages: Vec::new() });
                }
                let record = &mut window[filled];
                record.seq_no = packet.header.first_seq_no;
                let mut used = 0;
                for (offset, body) in packet.located() {
                    counts[usize::from(body[0])] += 1;
                    let message = match wire::decode_message(protocol, body) {
                        Decoded::Known { message, longer_than_spec } => {
                            skipped.longer_than_spec += u64::from(longer_than_spec);
                            message
                        }
                        Decoded::ShorterThanSpec => {
                            skipped.shorter_than_spec += 1;
                            first_short.get_or_insert(offset);
                            continue;
                        }
                        Decoded::Unknown => {
                            skipped.unknown_type += 1;
                            continue;
                        }
                    };
                    add_message(message, &mut record.messages, &mut used, spare, reference);
                }
                if used < record.messages.len() {
                    spare.extend(record.messages.drain(used..));
                }
                if used > 0 {
                    reference.packet(record.seq_no, used);
                    window_send_times.push(t);
                    filled += 1;
                }
                filled < max
            })?;
        }
        for unused in &mut window[filled..] {
            self.spare.append(&mut unused.messages);
        }
        window.truncate(filled);
        self.records += filled as u64;
        Ok(filled)
    }

    /// The IEX-TP send time (ns since the epoch) of each record of the last
    /// window, in the window's order: when the feed sent it, for `replay`.
    pub fn send_times(&self) -> &[i64] {
        &self.window_send_times
    }

    /// Raw bytes read so far (compressed bytes for gzip), and the total when known.
    pub fn progress(&self) -> (u64, Option<u64>) {
        self.packets.progress()
    }

    /// After the last window: what the capture held, its reference aggregate,
    /// and the input's size and SHA-256.
    pub fn finish(self) -> Result<CaptureReport> {
        let mut scan = self.packets.finish()?;
        // What a short message held is in no record: `run` says so as `inspect` does.
        if let Some(offset) = self.first_short {
            let n = self.skipped.shorter_than_spec;
            scan.read.warnings.push(format!(
                "{}: byte {offset}: IEX message shorter than its type's spec length, skipped ({n} such in all, this \
                 the first; none of them is in the records or the reference aggregate)",
                self.name
            ));
        }
        let counts = self.counts;
        let reference = self.reference.finish();
        Ok(CaptureReport {
            file: self.name,
            input_bytes: scan.input_bytes,
            sha256: scan.sha256,
            packets: scan.read.records,
            iex_packets: scan.iex_packets,
            other_packets: scan.other_packets,
            bytes: scan.read.bytes,
            protocols: PROTOCOLS
                .iter()
                .zip(self.protocols)
                .filter(|(_, n)| *n > 0)
                .map(|(p, n)| (p.name(), n))
                .collect(),
            time_range: self.send_times.map(|(lo, hi)| [rfc3339(lo), rfc3339(hi)]),
            messages: (0..=255u8)
                .filter(|&kind| counts[usize::from(kind)] > 0)
                .map(|kind| (type_name(kind), counts[usize::from(kind)]))
                .collect(),
            messages_total: counts.iter().sum(),
            skipped_messages: self.skipped,
            records: self.records,
            warnings: scan.read.warnings,
            record_messages: reference.messages,
            seq_no_sum: reference.seq_no_sum,
            symbols: reference.symbols,
        })
    }
}

impl CaptureReport {
    /// The reference aggregate every format's decode must reproduce.
    pub fn reference(&self) -> Aggregate {
        Aggregate {
            records: self.records,
            messages: self.record_messages,
            seq_no_sum: self.seq_no_sum,
            symbols: self.symbols.clone(),
        }
    }
}

/// A capture as the harness reads it: one streaming pass per run, in windows.
pub struct Capture {
    pub source: Source,
}

impl Input<Iex> for Capture {
    fn name(&self) -> String {
        self.source.name()
    }

    fn open(&self) -> Result<Box<dyn Reader<Iex> + '_>> {
        Ok(Box::new(CaptureReader {
            records: Records::open(&self.source)?,
            window: Vec::new(),
            order: Vec::new(),
            source: &self.source,
        }))
    }

    fn position(&self, op: u64) -> String {
        format!("benchmark record {op} (the {}th packet with a trade or price update)", op + 1)
    }
}

struct CaptureReader<'a> {
    records: Records,
    window: Vec<MultiMessage>,
    order: Vec<u32>,
    source: &'a Source,
}

impl Reader<Iex> for CaptureReader<'_> {
    fn next_window(&mut self, max: usize) -> Result<Option<Window<'_, Iex>>> {
        let n = self.records.next_window(&mut self.window, max)?;
        Ok((n > 0)
            .then(|| Window { records: &self.window, order: in_file_order(&mut self.order, n) }))
    }

    fn progress(&self) -> (u64, Option<u64>) {
        self.records.progress()
    }

    fn finish(self: Box<Self>) -> Result<Scanned<Iex>> {
        let report = self.records.finish()?;
        let file = self.source.input_file(report.input_bytes, report.sha256.clone());
        Ok(Scanned {
            reference: report.reference(),
            operations: report.records,
            file,
            warnings: report.warnings,
            csv: None,
        })
    }
}

#[cfg(test)]
pub struct Ingested {
    pub dataset: Dataset<Iex>,
    pub report: CaptureReport,
}

/// Every record in memory, for tests that want them all at once.
#[cfg(test)]
pub fn load(source: &Source) -> Result<Ingested> {
    let mut reader = Records::open(source)?;
    let mut records = Vec::new();
    let mut window = Vec::new();
    while reader.next_window(&mut window, crate::input::DEFAULT_WINDOW)? > 0 {
        records.append(&mut window);
    }
    let report = reader.finish()?;
    let dataset = Dataset::in_order(records, report.reference(), source.name());
    Ok(Ingested { dataset, report })
}

/// Writes the record messages `message` becomes ([`wire::record_messages`]) into
/// the record. The reference aggregate is fed here, from the wire values, not
/// from the records.
///
/// Messages overwrite `out[*used..]` in place (or come from `spare`), so the
/// steady state allocates nothing.
fn add_message(
    message: wire::Message<'_>,
    out: &mut Vec<Message>,
    used: &mut usize,
    spare: &mut Vec<Message>,
    reference: &mut Aggregator,
) {
    wire::record_messages(message, |ts, wire_symbol, body| {
        if *used == out.len() {
            out.push(spare.pop().unwrap_or_else(|| Message { ts, symbol: String::new(), body }));
        }
        let slot = &mut out[*used];
        *used += 1;
        slot.ts = ts;
        slot.body = body;
        latin1(wire::trim_symbol(wire_symbol), &mut slot.symbol);
        let symbol = &slot.symbol;
        match body {
            Body::Trade { price, size } => reference.trade(ts, symbol.as_bytes(), price, size),
            Body::LevelUpdate { price, size, flags, side } => {
                reference.level_update(ts, symbol.as_bytes(), side, flags, price, size)
            }
        }
    });
}

/// Symbol bytes as Latin-1: each byte b is the character U+00b, so every byte
/// survives (IEX symbols are ASCII, where this is the identity).
fn latin1(bytes: &[u8], out: &mut String) {
    out.clear();
    for &b in bytes {
        out.push(char::from(b));
    }
}

/// The type byte as its character when printable, else as hex (`0x99`).
fn type_name(kind: u8) -> String {
    if kind.is_ascii_graphic() { char::from(kind).to_string() } else { format!("0x{kind:02x}") }
}

pub fn rfc3339(ns: i64) -> String {
    match u64::try_from(ns) {
        Ok(ns) => {
            humantime::format_rfc3339_nanos(UNIX_EPOCH + Duration::from_nanos(ns)).to_string()
        }
        Err(_) => format!("{ns} ns before the epoch"),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::input::generate::{self, Options, big_endian_nanosecond, generate};

    fn load_bytes(name: &str, bytes: Vec<u8>) -> Ingested {
        load(&Source::Memory { name: name.into(), bytes: Arc::from(bytes) }).unwrap()
    }

    #[test]
    fn every_capture_layout_yields_the_same_records_and_aggregate() {
        let pcap = generate(Options { packets: 400, seed: 5 });
        let reference = load_bytes("le-us.pcap", pcap.clone());
        assert!(reference.report.records > 100);
        let mut gzipped = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gzipped, &pcap).unwrap();
        for (name, bytes) in [
            ("be-ns.pcap", big_endian_nanosecond(&pcap)),
            ("vlan.pcapng", generate::pcapng(&pcap, Some(0x2a))),
            ("le-us.pcap.gz", gzipped.finish().unwrap()),
        ] {
            let other = load_bytes(name, bytes);
            assert_eq!(other.report.packets, reference.report.packets, "{name}");
            assert_eq!(other.report.messages, reference.report.messages, "{name}");
            assert_eq!(other.dataset.records, reference.dataset.records, "{name}");
            assert_eq!(other.dataset.reference, reference.dataset.reference, "{name}");
        }
    }

    #[test]
    fn windows_add_up_to_the_whole_capture() {
        let pcap = generate(Options { packets: 3_000, seed: 6 });
        let whole = load_bytes("g.pcap", pcap.clone());
        let mut reader =
            Records::open(&Source::Memory { name: "g.pcap".into(), bytes: Arc::from(pcap) })
                .unwrap();
        let mut window = Vec::new();
        let mut read = Vec::new();
        while reader.next_window(&mut window, 100).unwrap() > 0 {
            assert!(window.len() <= 100);
            read.extend_from_slice(&window);
        }
        let report = reader.finish().unwrap();
        assert_eq!(read, whole.dataset.records);
        assert_eq!(report.records, read.len() as u64);
        assert_eq!(report.reference(), whole.dataset.reference);
        assert_eq!(report.sha256, whole.report.sha256);
    }

    #[test]
    fn symbols_map_every_byte_to_its_latin1_character() {
        let mut record = Vec::new();
        let mut used = 0;
        let mut reference = Aggregator::default();
        let trade = wire::Message::Trade {
            flags: 0,
            ts: 1,
            symbol: b"\xc9T\xffA\x80   ",
            size: 5,
            price: 7,
        };
        add_message(trade, &mut record, &mut used, &mut Vec::new(), &mut reference);
        assert_eq!(record[0].symbol, "\u{c9}T\u{ff}A\u{80}");
        assert_eq!(reference.finish().symbols.keys().collect::<Vec<_>>(), ["\u{c9}T\u{ff}A\u{80}"]);
    }

    #[test]
    fn records_hold_only_trades_and_price_updates() {
        let ingested = load_bytes("g.pcap", generate(Options { packets: 300, seed: 2 }));
        let report = &ingested.report;
        let messages: u64 = ingested.dataset.records.iter().map(|r| r.messages.len() as u64).sum();
        let expected = report.messages["T"] + report.messages["8"] + report.messages["5"];
        assert_eq!(messages, expected);
        assert!(ingested.dataset.records.iter().all(|r| !r.messages.is_empty()));
        assert!(
            ingested
                .dataset
                .records
                .iter()
                .flat_map(|r| &r.messages)
                .all(|m| !m.symbol.ends_with(' '))
        );
    }
}
