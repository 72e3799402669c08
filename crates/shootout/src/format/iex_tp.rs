//! IEX-TP: the feed's own bytes, a reference for the `iex` workload, not a
//! general format. Each record is one IEX-TP v1 segment carrying DEEP 1.0
//! messages, as IEX sends them: the 40-byte segment header (the record's
//! `seq_no` as its first sequence number), then each message behind its u16
//! LE length. A trade is DEEP's Trade Report ('T', 38 bytes), a level update
//! its Price Level Update ('8' buy, '5' sell, 30 bytes).
//!
//! Our record carries less than the feed, so what it lacks is written as
//! zero: in the header the channel, session id, stream offset and send time;
//! in a trade report the sale condition flags and the trade id. Symbols are
//! the wire's 8 bytes, padded with spaces, one byte per character: the
//! capture reader reads them as Latin-1, so a record's symbol is written back
//! that way. A symbol the wire cannot give back (over 8 characters, one past
//! U+00FF, or ending in a space, which the reader trims) is an encode error,
//! as is a segment over the header's u16 payload length or message count.
//!
//! Decoding is the capture reader's own (`workload::iex::wire`): `parse_packet` checks
//! the header and every message length, `decode_message` reads each body in
//! place, and `record_messages` maps it as a capture is read (longer bodies by
//! their known prefix; shorter, unknown and other message types skipped).
//! An ASCII symbol, as IEX's are, is handed to the sink in place; one with
//! other bytes is first read as Latin-1 into 16 bytes on the stack, since the
//! record's symbol (and so the aggregate) is that reading.

use anyhow::{Context, Result, bail, ensure};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::iex::wire::{self, Decoded, HEADER_LEN, Protocol, record_messages};
use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, Side};

/// DEEP 1.0's Trade Report and Price Level Update body lengths.
const TRADE_LEN: u16 = 38;
const LEVEL_UPDATE_LEN: u16 = 30;

pub struct IexTp;

impl Format for IexTp {
    const INFO: FormatInfo = FormatInfo {
        name: "iex-tp",
        family: Family::Format(&features::IEX_TP),
        library: "shootout",
        labels: Labels::ZERO_COPY_NATIVE,
        notes: "A reference, not a general format: the feed's own bytes, iex only. One IEX-TP \
                v1 segment per record (40-byte header, protocol DEEP 1.0, first sequence number \
                = seq_no), each message behind its u16 LE length: Trade Report ('T', 38 bytes), \
                Price Level Update ('8'/'5', 30 bytes). What the record does not carry is \
                written as zero (channel, session, stream offset, send time; trade sale \
                condition flags and trade id). Symbols: 8 space-padded Latin-1 bytes, as the \
                capture reader reads them; longer symbols, characters past U+00FF, a trailing \
                space, and segments over 65,535 payload bytes or messages are encode errors. \
                Decode is the capture reader's (parse_packet, decode_message, the same message \
                mapping), reading every field in place; a symbol with non-ASCII bytes is read \
                as Latin-1 into a stack buffer, as the capture reader reads it.",
        wire: Some("iex-tp"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for IexTp {
    fn new() -> Self {
        IexTp
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        write_segment(record, stream).inspect_err(|_| stream.truncate(start))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let packet = match wire::parse_packet(stream) {
            Ok(Some(packet)) => packet,
            Ok(None) => bail!("iex-tp: not an IEX-TP v1 segment of a known protocol"),
            Err(malformed) => bail!("iex-tp: byte {}: {}", malformed.offset, malformed.problem),
        };
        let header = packet.header;
        let mut messages = 0;
        for body in packet {
            let Decoded::Known { message, .. } = wire::decode_message(header.protocol, body) else {
                continue;
            };
            record_messages(message, |ts, symbol, body| {
                let mut utf8 = [0; 16];
                messages += 1;
                sink.message(ts, latin1(wire::trim_symbol(symbol), &mut utf8), &body);
            });
        }
        sink.packet(header.first_seq_no, messages);
        Ok(HEADER_LEN + usize::from(header.payload_len))
    }
}

/// Appends `record` as one IEX-TP segment; on an error, `stream` may hold part of it.
fn write_segment(record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
    let payload: usize = record.messages.iter().map(|m| 2 + usize::from(body_len(&m.body))).sum();
    let payload = u16::try_from(payload)
        .with_context(|| format!("iex-tp: {payload} message bytes, over a segment's 65,535"))?;
    let count = u16::try_from(record.messages.len()).with_context(|| {
        format!("iex-tp: {} messages, over a segment's 65,535", record.messages.len())
    })?;
    stream.reserve(HEADER_LEN + usize::from(payload));
    // Version 1, a reserved byte, the protocol id, channel and session (0).
    stream.extend_from_slice(&[1, 0]);
    stream.extend_from_slice(&Protocol::Deep10.id().to_le_bytes());
    stream.extend_from_slice(&[0; 8]);
    stream.extend_from_slice(&payload.to_le_bytes());
    stream.extend_from_slice(&count.to_le_bytes());
    // Stream offset (0), first sequence number, send time (0).
    stream.extend_from_slice(&[0; 8]);
    stream.extend_from_slice(&record.seq_no.to_le_bytes());
    stream.extend_from_slice(&[0; 8]);
    for (index, message) in record.messages.iter().enumerate() {
        let symbol =
            wire_symbol(&message.symbol).with_context(|| format!("iex-tp: message {index}"))?;
        stream.extend_from_slice(&body_len(&message.body).to_le_bytes());
        // Prices travel as the wire's i64, which the record holds as its bits in a u64.
        match message.body {
            Body::Trade { price, size } => {
                stream.extend_from_slice(&[b'T', 0]);
                stream.extend_from_slice(&message.ts.to_le_bytes());
                stream.extend_from_slice(&symbol);
                stream.extend_from_slice(&size.to_le_bytes());
                stream.extend_from_slice(&price.to_le_bytes());
                // The trade id, which the record does not carry.
                stream.extend_from_slice(&[0; 8]);
            }
            Body::LevelUpdate { price, size, flags, side } => {
                let kind = match side {
                    Side::Buy => b'8',
                    Side::Sell => b'5',
                };
                stream.extend_from_slice(&[kind, flags]);
                stream.extend_from_slice(&message.ts.to_le_bytes());
                stream.extend_from_slice(&symbol);
                stream.extend_from_slice(&size.to_le_bytes());
                stream.extend_from_slice(&price.to_le_bytes());
            }
        }
    }
    Ok(())
}

fn body_len(body: &Body) -> u16 {
    match body {
        Body::Trade { .. } => TRADE_LEN,
        Body::LevelUpdate { .. } => LEVEL_UPDATE_LEN,
    }
}

/// `symbol` as the wire's 8 bytes, one Latin-1 byte per character, padded
/// with spaces, if the capture reader gives it back (`trim_symbol`, then Latin-1).
fn wire_symbol(symbol: &str) -> Result<[u8; 8]> {
    ensure!(!symbol.ends_with(' '), "symbol {symbol:?} ends in a space, which the wire pads with");
    let mut wire = [b' '; 8];
    let mut chars = symbol.chars();
    for (byte, c) in wire.iter_mut().zip(&mut chars) {
        *byte = u8::try_from(c)
            .map_err(|_| anyhow::anyhow!("symbol {symbol:?}: {c:?} is past Latin-1"))?;
    }
    ensure!(chars.next().is_none(), "symbol {symbol:?} is over the wire's 8 characters");
    Ok(wire)
}

/// A wire symbol as the record holds it: ASCII as it is (in place), other
/// bytes read as Latin-1 (each byte b the character U+00b, as the capture
/// reader reads it) into `out`, which holds the 2 UTF-8 bytes each can take.
fn latin1<'a>(symbol: &'a [u8], out: &'a mut [u8; 16]) -> &'a [u8] {
    if symbol.is_ascii() {
        return symbol;
    }
    let mut len = 0;
    for &b in symbol {
        len += char::from(b).encode_utf8(&mut out[len..]).len();
    }
    &out[..len]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{
        assert_garbage_is_an_error, big_record, decode_one, sample_stream,
    };
    use crate::workload::iex::{Message, sample_dataset};

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, IexTp>(&sample_dataset());
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<IexTp>(&sample_dataset().records);
    }

    /// The capture reader reads the stream as a capture's packets: the same
    /// header, lengths and message layouts.
    #[test]
    fn records_are_deep_segments_the_capture_reader_parses() {
        let stream = sample_stream::<IexTp>();
        let packet = wire::parse_packet(&stream).unwrap().unwrap();
        assert_eq!(packet.header.protocol, Protocol::Deep10);
        assert_eq!(packet.header.first_seq_no, 1);
        assert_eq!(packet.header.message_count, 2);
        assert_eq!(packet.header.payload_len, 2 + TRADE_LEN + 2 + LEVEL_UPDATE_LEN);
        let bodies: Vec<&[u8]> = packet.collect();
        let trade = wire::decode_message(Protocol::Deep10, bodies[0]);
        let Decoded::Known { message, longer_than_spec: false } = trade else {
            panic!("{trade:?}")
        };
        assert_eq!(
            message,
            wire::Message::Trade {
                flags: 0,
                ts: 1_500_000_000_000_000_000,
                symbol: b"MSFT    ",
                size: 100,
                price: 650_100,
            }
        );
        assert_eq!(bodies[1][0], b'8');
        assert_eq!(decode_one::<IexTp>(&stream).unwrap(), HEADER_LEN + 72);
    }

    #[test]
    fn what_the_wire_cannot_carry_is_an_encode_error() {
        let record = |symbol: &str| MultiMessage {
            seq_no: 1,
            messages: vec![Message {
                ts: 0,
                symbol: symbol.into(),
                body: Body::Trade { price: 1, size: 1 },
            }],
        };
        for symbol in ["NINECHARS", "\u{100}", "AB "] {
            let mut stream = vec![7];
            let error = IexTp.encode(&record(symbol), &mut stream).unwrap_err();
            assert!(format!("{error:#}").contains("symbol"), "{error:#}");
            assert_eq!(stream, [7], "a failed record leaves the stream as it was");
        }
        let error = IexTp.encode(&big_record(), &mut Vec::new()).unwrap_err();
        assert!(format!("{error:#}").contains("65,535"), "{error:#}");
    }

    /// The sample's Latin-1 symbols go on the wire one byte per character, as a
    /// capture holds them.
    #[test]
    fn symbols_are_latin1_bytes() {
        assert_eq!(&wire_symbol("\u{e9}T\u{e9}\u{80}").unwrap(), b"\xe9T\xe9\x80    ");
        assert_eq!(&wire_symbol(&"\u{ff}".repeat(8)).unwrap(), &[0xff; 8]);
        let mut out = [0; 16];
        assert_eq!(latin1(b"\xe9T", &mut out), "\u{e9}T".as_bytes());
        assert_eq!(latin1(b"MSFT", &mut out), b"MSFT");
    }
}
