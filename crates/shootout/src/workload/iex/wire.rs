//! IEX-TP v1 framing and the DEEP 1.0 / TOPS 1.5 / TOPS 1.6 message bodies.
//! All integers little-endian; prices i64 with 4 implied decimals; timestamps
//! i64 nanoseconds since the epoch; symbols 8 ASCII bytes padded with spaces.
//! Shared by the capture reader (`input`) and the `iex-tp` format, which read
//! the same bytes the same way.

use super::record::{self, Body};

pub const HEADER_LEN: usize = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Protocol {
    Tops15,
    Tops16,
    Deep10,
}

impl Protocol {
    fn from_id(id: u16) -> Option<Self> {
        match id {
            0x8002 => Some(Protocol::Tops15),
            0x8003 => Some(Protocol::Tops16),
            0x8004 => Some(Protocol::Deep10),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Tops15 => "TOPS 1.5",
            Protocol::Tops16 => "TOPS 1.6",
            Protocol::Deep10 => "DEEP 1.0",
        }
    }

    pub fn id(self) -> u16 {
        match self {
            Protocol::Tops15 => 0x8002,
            Protocol::Tops16 => 0x8003,
            Protocol::Deep10 => 0x8004,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub protocol: Protocol,
    pub channel: u32,
    pub session: u32,
    pub payload_len: u16,
    pub message_count: u16,
    pub stream_offset: u64,
    pub first_seq_no: u64,
    pub send_time: i64,
}

/// A UDP payload that claims to be IEX-TP but is not well formed. Offsets are
/// relative to the start of the UDP payload.
#[derive(Debug, PartialEq, Eq)]
pub struct Malformed {
    pub offset: usize,
    pub problem: String,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}
fn i64_at(b: &[u8], at: usize) -> i64 {
    u64_at(b, at) as i64
}
fn symbol_at(b: &[u8], at: usize) -> &[u8; 8] {
    b[at..at + 8].try_into().unwrap()
}

/// The four bytes every IEX-TP v1 packet starts with, if the payload has them.
fn looks_like_iex(payload: &[u8]) -> Option<Protocol> {
    if payload.len() < 4 || payload[0] != 1 {
        return None;
    }
    Protocol::from_id(u16_at(payload, 2))
}

/// A UDP payload: not IEX-TP at all (`Ok(None)`), a well-formed IEX-TP packet,
/// or an IEX-TP packet that is cut short or inconsistent (`Err`).
pub fn parse_packet(payload: &[u8]) -> Result<Option<Packet<'_>>, Malformed> {
    let Some(protocol) = looks_like_iex(payload) else {
        return Ok(None);
    };
    if payload.len() < HEADER_LEN {
        return Err(Malformed {
            offset: 0,
            problem: format!(
                "packet too short for the IEX-TP header: expected {HEADER_LEN} bytes, found {}",
                payload.len()
            ),
        });
    }
    let header = Header {
        protocol,
        channel: u32_at(payload, 4),
        session: u32_at(payload, 8),
        payload_len: u16_at(payload, 12),
        message_count: u16_at(payload, 14),
        stream_offset: u64_at(payload, 16),
        first_seq_no: u64_at(payload, 24),
        send_time: i64_at(payload, 32),
    };
    let body_end = HEADER_LEN + usize::from(header.payload_len);
    if body_end > payload.len() {
        return Err(Malformed {
            offset: 12,
            problem: format!(
                "IEX-TP payload length {} runs past the end of its packet ({} bytes after the header)",
                header.payload_len,
                payload.len() - HEADER_LEN
            ),
        });
    }
    // Check every message length up front, so iteration never meets a bad one.
    let mut at = HEADER_LEN;
    for index in 0..header.message_count {
        if at + 2 > body_end {
            return Err(Malformed {
                offset: at,
                problem: format!(
                    "message {index} of {}: length field runs past the end of its packet",
                    header.message_count
                ),
            });
        }
        let len = usize::from(u16_at(payload, at));
        if len == 0 {
            return Err(Malformed {
                offset: at,
                problem: format!(
                    "message {index} of {}: length 0, but a message holds at least its type byte",
                    header.message_count
                ),
            });
        }
        if at + 2 + len > body_end {
            return Err(Malformed {
                offset: at,
                problem: format!(
                    "message {index} of {}: length {len} runs past the end of its packet ({} bytes left)",
                    header.message_count,
                    body_end - at - 2
                ),
            });
        }
        at += 2 + len;
    }
    Ok(Some(Packet {
        header,
        messages: payload[HEADER_LEN..body_end].as_ref(),
        remaining: header.message_count,
        payload_offset: 0,
        next_at: HEADER_LEN as u64,
    }))
}

pub struct Packet<'a> {
    pub header: Header,
    messages: &'a [u8],
    remaining: u16,
    /// Where the packet's UDP payload starts in the capture (0 until the
    /// capture's reader sets it), so a message can be named by its offset.
    pub payload_offset: u64,
    /// The next message's length field, from the start of the payload.
    next_at: u64,
}

impl<'a> Packet<'a> {
    /// The message bodies, each with the offset of its length field in the
    /// capture, as errors name a message.
    pub fn located(mut self) -> impl Iterator<Item = (u64, &'a [u8])> {
        std::iter::from_fn(move || {
            let offset = self.payload_offset + self.next_at;
            self.next().map(|body| (offset, body))
        })
    }
}

impl<'a> Iterator for Packet<'a> {
    type Item = &'a [u8];

    /// Message bodies (type byte first), lengths already checked by `parse_packet`.
    fn next(&mut self) -> Option<&'a [u8]> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let len = usize::from(u16_at(self.messages, 0));
        let body = &self.messages[2..2 + len];
        self.messages = &self.messages[2 + len..];
        self.next_at += 2 + len as u64;
        Some(body)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Buy,
    Sell,
}

/// The messages the workloads read; every other known type is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message<'a> {
    Trade {
        flags: u8,
        ts: i64,
        symbol: &'a [u8; 8],
        size: u32,
        price: i64,
    },
    PriceLevelUpdate {
        side: Side,
        flags: u8,
        ts: i64,
        symbol: &'a [u8; 8],
        size: u32,
        price: i64,
    },
    QuoteUpdate {
        flags: u8,
        ts: i64,
        symbol: &'a [u8; 8],
        bid_size: u32,
        bid_price: i64,
        ask_price: i64,
        ask_size: u32,
    },
    Other,
}

/// How a message body compares with its type's length in the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoded<'a> {
    /// Body at least as long as the spec; bytes past it are ignored.
    Known { message: Message<'a>, longer_than_spec: bool },
    /// Body shorter than its type's spec length: skipped.
    ShorterThanSpec,
    /// A type byte the specs do not define: skipped.
    Unknown,
}

/// Body length of each message type in the spec, by protocol.
pub fn spec_len(protocol: Protocol, kind: u8) -> Option<usize> {
    Some(match kind {
        b'S' => 10,
        b'D' => 31,
        b'H' => 22,
        b'I' | b'O' | b'E' => 18,
        b'P' => 19,
        b'8' | b'5' => 30,
        b'Q' => 42,
        b'T' if protocol == Protocol::Tops15 => 42,
        b'T' | b'B' => 38,
        b'X' => 26,
        b'A' => 80,
        _ => return None,
    })
}

pub fn decode_message(protocol: Protocol, body: &[u8]) -> Decoded<'_> {
    let kind = body[0];
    let Some(len) = spec_len(protocol, kind) else {
        return Decoded::Unknown;
    };
    if body.len() < len {
        return Decoded::ShorterThanSpec;
    }
    let message = match kind {
        b'T' => Message::Trade {
            flags: body[1],
            ts: i64_at(body, 2),
            symbol: symbol_at(body, 10),
            size: u32_at(body, 18),
            price: i64_at(body, 22),
        },
        b'8' | b'5' => Message::PriceLevelUpdate {
            side: if kind == b'8' { Side::Buy } else { Side::Sell },
            flags: body[1],
            ts: i64_at(body, 2),
            symbol: symbol_at(body, 10),
            size: u32_at(body, 18),
            price: i64_at(body, 22),
        },
        b'Q' => Message::QuoteUpdate {
            flags: body[1],
            ts: i64_at(body, 2),
            symbol: symbol_at(body, 10),
            bid_size: u32_at(body, 18),
            bid_price: i64_at(body, 22),
            ask_price: i64_at(body, 30),
            ask_size: u32_at(body, 38),
        },
        _ => Message::Other,
    };
    Decoded::Known { message, longer_than_spec: body.len() > len }
}

/// The record messages a wire message becomes, each handed to `push` with its
/// timestamp and wire symbol: trades and price level updates one each; a TOPS
/// quote a buy and a sell update, each only when its size is non-zero; any
/// other message none. The capture reader and the `iex-tp` format share it.
pub fn record_messages(message: Message<'_>, mut push: impl FnMut(i64, &[u8; 8], Body)) {
    // Prices travel as the wire's i64 reinterpreted as u64: lossless both ways.
    match message {
        Message::Trade { ts, symbol, size, price, .. } => {
            push(ts, symbol, Body::Trade { price: price as u64, size })
        }
        Message::PriceLevelUpdate { side, flags, ts, symbol, size, price } => {
            let side = match side {
                Side::Buy => record::Side::Buy,
                Side::Sell => record::Side::Sell,
            };
            push(ts, symbol, Body::LevelUpdate { price: price as u64, size, flags, side });
        }
        Message::QuoteUpdate { flags, ts, symbol, bid_size, bid_price, ask_price, ask_size } => {
            if bid_size != 0 {
                push(
                    ts,
                    symbol,
                    Body::LevelUpdate {
                        price: bid_price as u64,
                        size: bid_size,
                        flags,
                        side: record::Side::Buy,
                    },
                );
            }
            if ask_size != 0 {
                push(
                    ts,
                    symbol,
                    Body::LevelUpdate {
                        price: ask_price as u64,
                        size: ask_size,
                        flags,
                        side: record::Side::Sell,
                    },
                );
            }
        }
        Message::Other => {}
    }
}

/// The symbol with its space padding removed.
pub fn trim_symbol(symbol: &[u8; 8]) -> &[u8] {
    let end = symbol.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    &symbol[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(protocol: u16, messages: &[&[u8]]) -> Vec<u8> {
        let body: Vec<u8> = messages
            .iter()
            .flat_map(|m| (m.len() as u16).to_le_bytes().into_iter().chain(m.iter().copied()))
            .collect();
        let mut p = vec![1, 0];
        p.extend_from_slice(&protocol.to_le_bytes());
        p.extend_from_slice(&7u32.to_le_bytes());
        p.extend_from_slice(&9u32.to_le_bytes());
        p.extend_from_slice(&(body.len() as u16).to_le_bytes());
        p.extend_from_slice(&(messages.len() as u16).to_le_bytes());
        p.extend_from_slice(&100u64.to_le_bytes());
        p.extend_from_slice(&42u64.to_le_bytes());
        p.extend_from_slice(&1_600_000_000_000_000_000i64.to_le_bytes());
        p.extend_from_slice(&body);
        p
    }

    fn trade(symbol: &[u8; 8], size: u32, price: i64, extra: usize) -> Vec<u8> {
        let mut m = vec![b'T', 0];
        m.extend_from_slice(&5i64.to_le_bytes());
        m.extend_from_slice(symbol);
        m.extend_from_slice(&size.to_le_bytes());
        m.extend_from_slice(&price.to_le_bytes());
        m.extend_from_slice(&77u64.to_le_bytes());
        m.resize(m.len() + extra, 0xee);
        m
    }

    #[test]
    fn parses_header_and_messages() {
        let t = trade(b"MSFT    ", 100, 2_500_000, 0);
        let p = packet(0x8004, &[&t, b"Zunknown"]);
        let packet = parse_packet(&p).unwrap().unwrap();
        assert_eq!(packet.header.protocol, Protocol::Deep10);
        assert_eq!((packet.header.channel, packet.header.session), (7, 9));
        assert_eq!(packet.header.first_seq_no, 42);
        let (offsets, bodies): (Vec<u64>, Vec<&[u8]>) = packet.located().unzip();
        assert_eq!(offsets, [40, 40 + 2 + t.len() as u64], "each message's length field");
        assert_eq!(
            decode_message(Protocol::Deep10, bodies[0]),
            Decoded::Known {
                message: Message::Trade {
                    flags: 0,
                    ts: 5,
                    symbol: b"MSFT    ",
                    size: 100,
                    price: 2_500_000
                },
                longer_than_spec: false
            }
        );
        assert_eq!(decode_message(Protocol::Deep10, bodies[1]), Decoded::Unknown);
    }

    #[test]
    fn longer_bodies_are_read_by_their_known_prefix_and_short_ones_skipped() {
        let long = trade(b"A       ", 1, 1, 6);
        assert!(matches!(
            decode_message(Protocol::Tops16, &long),
            Decoded::Known { message: Message::Trade { size: 1, .. }, longer_than_spec: true }
        ));
        // TOPS 1.5 trades are 42 bytes, so a 38-byte one is short there.
        let short = trade(b"A       ", 1, 1, 0);
        assert_eq!(decode_message(Protocol::Tops15, &short), Decoded::ShorterThanSpec);
    }

    #[test]
    fn non_iex_payloads_are_not_errors() {
        assert!(parse_packet(b"").unwrap().is_none());
        assert!(parse_packet(b"GET / HTTP/1.1").unwrap().is_none());
        assert!(parse_packet(&[1, 0, 0x04, 0x90]).unwrap().is_none());
    }

    #[test]
    fn malformed_packets_name_the_problem() {
        let short = &packet(0x8004, &[])[..30];
        assert!(
            parse_packet(short).err().unwrap().problem.contains("too short for the IEX-TP header")
        );

        let t = trade(b"MSFT    ", 1, 1, 0);
        let mut p = packet(0x8003, &[&t]);
        p[40] = 200; // message length past the end
        let err = parse_packet(&p).err().unwrap();
        assert_eq!(err.offset, 40);
        assert!(err.problem.contains("length 200 runs past the end"), "{}", err.problem);

        let mut p = packet(0x8003, &[&t, b"Zx"]);
        p[40 + 2 + t.len()..][..2].copy_from_slice(&0u16.to_le_bytes());
        let err = parse_packet(&p).err().unwrap();
        assert_eq!(err.offset, 40 + 2 + t.len());
        assert_eq!(
            err.problem,
            "message 1 of 2: length 0, but a message holds at least its type byte"
        );

        let mut p = packet(0x8003, &[&t]);
        p.truncate(p.len() - 1); // payload length past the end
        assert!(parse_packet(&p).err().unwrap().problem.contains("payload length"));
    }

    #[test]
    fn trims_symbol_padding() {
        assert_eq!(trim_symbol(b"MSFT    "), b"MSFT");
        assert_eq!(trim_symbol(b"ZZZZZZZZ"), b"ZZZZZZZZ");
        assert_eq!(trim_symbol(b"        "), b"");
    }
}
