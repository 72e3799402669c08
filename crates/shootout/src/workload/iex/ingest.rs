//! Capture → records and reference aggregate, in one streaming pass.

use std::collections::BTreeMap;
use std::time::{Duration, UNIX_EPOCH};

use anyhow::Result;
use serde::Serialize;

use super::{Aggregator, Body, Iex, Message, MultiMessage, Side, SymbolStats};
use crate::capture::iex::{self as wire, Decoded};
use crate::capture::{self, Source};
use crate::workload::Dataset;

/// What `shootout inspect` prints: the capture's contents and its reference aggregate.
#[derive(Debug, Serialize)]
pub struct CaptureReport {
    pub file: String,
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

pub struct Ingested {
    pub dataset: Dataset<Iex>,
    pub report: CaptureReport,
}

pub fn load(source: &Source) -> Result<Ingested> {
    let mut records = Vec::new();
    let mut reference = Aggregator::default();
    let mut counts = [0u64; 256];
    let mut skipped = SkippedMessages::default();
    let mut protocols = BTreeMap::new();
    let mut send_times: Option<(i64, i64)> = None;

    let scan = capture::read_iex(source, |packet| {
        let protocol = packet.header.protocol;
        *protocols.entry(protocol.name()).or_insert(0) += 1;
        let t = packet.header.send_time;
        send_times = Some(send_times.map_or((t, t), |(lo, hi)| (lo.min(t), hi.max(t))));
        let seq_no = packet.header.first_seq_no;
        let mut messages = Vec::new();
        for body in packet {
            counts[usize::from(body[0])] += 1;
            let message = match wire::decode_message(protocol, body) {
                Decoded::Known { message, longer_than_spec } => {
                    skipped.longer_than_spec += u64::from(longer_than_spec);
                    message
                }
                Decoded::ShorterThanSpec => {
                    skipped.shorter_than_spec += 1;
                    continue;
                }
                Decoded::Unknown => {
                    skipped.unknown_type += 1;
                    continue;
                }
            };
            add_message(message, &mut messages, &mut reference);
        }
        if !messages.is_empty() {
            reference.packet(seq_no, messages.len());
            records.push(MultiMessage { seq_no, messages });
        }
    })?;

    let reference = reference.finish();
    let report = CaptureReport {
        file: source.name(),
        packets: scan.read.records,
        iex_packets: scan.iex_packets,
        other_packets: scan.other_packets,
        bytes: scan.read.bytes,
        protocols,
        time_range: send_times.map(|(lo, hi)| [rfc3339(lo), rfc3339(hi)]),
        messages: (0..=255u8)
            .filter(|&kind| counts[usize::from(kind)] > 0)
            .map(|kind| (type_name(kind), counts[usize::from(kind)]))
            .collect(),
        messages_total: counts.iter().sum(),
        skipped_messages: skipped,
        records: records.len() as u64,
        warnings: scan.read.warnings,
        record_messages: reference.messages,
        seq_no_sum: reference.seq_no_sum,
        symbols: reference.symbols.clone(),
    };
    let dataset = Dataset::in_order(records, reference, source.name());
    Ok(Ingested { dataset, report })
}

/// Trades and price level updates become record messages; a TOPS quote becomes
/// a buy and a sell update, each only when its size is non-zero. The reference
/// aggregate is fed here, from the wire values, not from the records.
fn add_message(message: wire::Message<'_>, out: &mut Vec<Message>, reference: &mut Aggregator) {
    let mut push = |ts: i64, symbol: &[u8; 8], body: Body| {
        let symbol = String::from_utf8_lossy(wire::trim_symbol(symbol)).into_owned();
        match body {
            Body::Trade { price, size } => reference.trade(ts, symbol.as_bytes(), price, size),
            Body::LevelUpdate { price, size, flags, side } => {
                reference.level_update(ts, symbol.as_bytes(), side, flags, price, size)
            }
        }
        out.push(Message { ts, symbol, body });
    };
    // Prices travel as the wire's i64 reinterpreted as u64: lossless both ways.
    match message {
        wire::Message::Trade { ts, symbol, size, price, .. } => push(ts, symbol, Body::Trade { price: price as u64, size }),
        wire::Message::PriceLevelUpdate { side, flags, ts, symbol, size, price } => {
            let side = match side {
                wire::Side::Buy => Side::Buy,
                wire::Side::Sell => Side::Sell,
            };
            push(ts, symbol, Body::LevelUpdate { price: price as u64, size, flags, side });
        }
        wire::Message::QuoteUpdate { flags, ts, symbol, bid_size, bid_price, ask_price, ask_size } => {
            if bid_size != 0 {
                push(ts, symbol, Body::LevelUpdate { price: bid_price as u64, size: bid_size, flags, side: Side::Buy });
            }
            if ask_size != 0 {
                push(ts, symbol, Body::LevelUpdate { price: ask_price as u64, size: ask_size, flags, side: Side::Sell });
            }
        }
        wire::Message::Other => {}
    }
}

/// The type byte as its character when printable, else as hex (`0x99`).
fn type_name(kind: u8) -> String {
    if kind.is_ascii_graphic() { char::from(kind).to_string() } else { format!("0x{kind:02x}") }
}

fn rfc3339(ns: i64) -> String {
    match u64::try_from(ns) {
        Ok(ns) => humantime::format_rfc3339_nanos(UNIX_EPOCH + Duration::from_nanos(ns)).to_string(),
        Err(_) => format!("{ns} ns before the epoch"),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::capture::generate::{Options, generate};

    /// (record header, frame) pairs of a little-endian µs pcap as `generate` writes it.
    fn records(pcap: &[u8]) -> Vec<(&[u8], &[u8])> {
        let mut out = Vec::new();
        let mut at = 24;
        while at < pcap.len() {
            let len = u32::from_le_bytes(pcap[at + 8..at + 12].try_into().unwrap()) as usize;
            out.push((&pcap[at..at + 16], &pcap[at + 16..at + 16 + len]));
            at += 16 + len;
        }
        out
    }

    fn big_endian_nanosecond(pcap: &[u8]) -> Vec<u8> {
        let mut out = 0xa1b2_3c4du32.to_be_bytes().to_vec();
        out.extend_from_slice(&2u16.to_be_bytes());
        out.extend_from_slice(&4u16.to_be_bytes());
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&65_535u32.to_be_bytes());
        out.extend_from_slice(&1u32.to_be_bytes());
        for (header, frame) in records(pcap) {
            for field in header.chunks(4) {
                out.extend_from_slice(&u32::from_le_bytes(field.try_into().unwrap()).to_be_bytes());
            }
            out.extend_from_slice(frame);
        }
        out
    }

    /// The same frames as pcapng, each behind an 802.1Q VLAN tag.
    fn pcapng_with_vlan_tags(pcap: &[u8]) -> Vec<u8> {
        let block = |kind: u32, body: &[u8]| {
            let padded = body.len().div_ceil(4) * 4;
            let total = (12 + padded) as u32;
            let mut b = kind.to_le_bytes().to_vec();
            b.extend_from_slice(&total.to_le_bytes());
            b.extend_from_slice(body);
            b.resize(8 + padded, 0);
            b.extend_from_slice(&total.to_le_bytes());
            b
        };
        let mut shb = 0x1a2b_3c4du32.to_le_bytes().to_vec();
        shb.extend_from_slice(&[1, 0, 0, 0]);
        shb.extend_from_slice(&(-1i64).to_le_bytes());
        let mut out = block(0x0a0d_0d0a, &shb);
        let mut idb = 1u16.to_le_bytes().to_vec();
        idb.extend_from_slice(&[0, 0]);
        idb.extend_from_slice(&65_535u32.to_le_bytes());
        out.extend(block(1, &idb));
        for (_, frame) in records(pcap) {
            let mut tagged = frame[..12].to_vec();
            tagged.extend_from_slice(&[0x81, 0x00, 0x00, 0x2a]);
            tagged.extend_from_slice(&frame[12..]);
            let mut epb = vec![0; 12];
            epb.extend_from_slice(&(tagged.len() as u32).to_le_bytes());
            epb.extend_from_slice(&(tagged.len() as u32).to_le_bytes());
            epb.extend_from_slice(&tagged);
            out.extend(block(6, &epb));
        }
        out
    }

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
            ("vlan.pcapng", pcapng_with_vlan_tags(&pcap)),
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
    fn records_hold_only_trades_and_price_updates() {
        let ingested = load_bytes("g.pcap", generate(Options { packets: 300, seed: 2 }));
        let report = &ingested.report;
        let messages: u64 = ingested.dataset.records.iter().map(|r| r.messages.len() as u64).sum();
        let expected = report.messages["T"] + report.messages["8"] + report.messages["5"];
        assert_eq!(messages, expected);
        assert!(ingested.dataset.records.iter().all(|r| !r.messages.is_empty()));
        assert!(ingested.dataset.records.iter().flat_map(|r| &r.messages).all(|m| !m.symbol.ends_with(' ')));
    }
}
