//! A deterministic DEEP 1.0 capture, written as classic pcap: the embedded
//! default data. Real symbols and price scales, random-walk prices, a realistic
//! trade/update mix, heartbeats, system, status and security events, and
//! messages of a type no spec defines (as newer feeds send).

use std::io::{self, Write};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::workload::iex::wire::{HEADER_LEN, Protocol};

#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// IEX-TP packets to write (at least 2: the opening and closing ones).
    pub packets: u64,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options { packets: 50_000, seed: 1 }
    }
}

/// Symbols and opening prices (dollars); ZIEXT is IEX's test symbol.
const SYMBOLS: [(&[u8; 8], f64); 20] = [
    (b"SPY     ", 512.40),
    (b"AAPL    ", 172.50),
    (b"MSFT    ", 415.20),
    (b"NVDA    ", 880.00),
    (b"AMZN    ", 178.10),
    (b"TSLA    ", 163.40),
    (b"QQQ     ", 440.10),
    (b"META    ", 495.00),
    (b"AMD     ", 180.50),
    (b"GOOGL   ", 141.20),
    (b"JPM     ", 191.30),
    (b"BAC     ", 36.10),
    (b"XOM     ", 113.80),
    (b"INTC    ", 42.80),
    (b"IWM     ", 203.70),
    (b"KO      ", 59.90),
    (b"PEP     ", 165.70),
    (b"NFLX    ", 605.00),
    (b"DIS     ", 111.90),
    (b"ZIEXT   ", 10.00),
];
const TICK: i64 = 100; // one cent, with 4 implied decimals
/// 2024-03-15T13:30:00Z, the regular-session open, in ns since the epoch.
const OPEN_NS: i64 = 1_710_509_400_000_000_000;
/// A type byte absent from every IEX spec, standing in for types added later.
const UNKNOWN_TYPE: u8 = b'Z';
const MAX_MESSAGES_PER_PACKET: u64 = 5;

struct Book {
    symbol: &'static [u8; 8],
    mid: i64,
}

struct Generator {
    rng: ChaCha8Rng,
    books: Vec<Book>,
    now: i64,
    seq_no: u64,
    stream_offset: u64,
    ip_id: u16,
    /// What is generated and not yet written out: at most a packet.
    pcap: Vec<u8>,
}

/// The whole capture as pcap bytes.
pub fn generate(options: Options) -> Vec<u8> {
    let mut pcap = Vec::with_capacity(options.packets as usize * 160);
    write(options, &mut pcap).expect("writing to memory cannot fail");
    pcap
}

/// Writes the capture to `out` as it is generated, a packet at a time, so
/// memory stays bounded whatever its size; returns the bytes written.
pub fn write(options: Options, out: &mut dyn Write) -> io::Result<u64> {
    let mut g = Generator {
        rng: ChaCha8Rng::seed_from_u64(options.seed),
        books: SYMBOLS
            .iter()
            .map(|&(symbol, dollars)| Book { symbol, mid: (dollars * 10_000.0) as i64 })
            .collect(),
        now: OPEN_NS,
        seq_no: 1,
        stream_offset: 0,
        ip_id: 0,
        pcap: Vec::new(),
    };
    let mut written = 0;
    let mut drain = |g: &mut Generator| {
        out.write_all(&g.pcap)?;
        written += g.pcap.len() as u64;
        g.pcap.clear();
        io::Result::Ok(())
    };
    g.pcap_header();
    let packets = options.packets.max(2);
    g.opening();
    g.other_frame();
    drain(&mut g)?;
    for _ in 0..packets - 2 {
        g.now += g.rng.random_range(1_000..400_000);
        if g.rng.random_bool(0.04) {
            g.iex_packet(&[]);
        } else {
            let count = g.rng.random_range(1..=MAX_MESSAGES_PER_PACKET);
            let messages: Vec<Vec<u8>> = (0..count).map(|_| g.market_message()).collect();
            g.iex_packet(&messages);
        }
        drain(&mut g)?;
    }
    g.closing();
    drain(&mut g)?;
    Ok(written)
}

/// Each packet record of a capture `generate` wrote (little-endian classic
/// pcap): its offset, its 16-byte header and its frame.
pub fn records(pcap: &[u8]) -> impl Iterator<Item = (usize, &[u8], &[u8])> {
    let mut at = 24;
    std::iter::from_fn(move || {
        let header = pcap.get(at..at + 16)?;
        let len = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes")) as usize;
        let record = (at, header, pcap.get(at + 16..at + 16 + len)?);
        at += 16 + len;
        Some(record)
    })
}

/// A capture `generate` wrote, with big-endian headers and the nanosecond
/// magic: the same records in the other byte order, for the readers' checks.
pub fn big_endian_nanosecond(pcap: &[u8]) -> Vec<u8> {
    let mut out = 0xa1b2_3c4du32.to_be_bytes().to_vec();
    out.extend_from_slice(&2u16.to_be_bytes());
    out.extend_from_slice(&4u16.to_be_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&65_535u32.to_be_bytes());
    out.extend_from_slice(&1u32.to_be_bytes());
    for (_, header, frame) in records(pcap) {
        for field in header.chunks(4) {
            out.extend_from_slice(&u32::from_le_bytes(field.try_into().unwrap()).to_be_bytes());
        }
        out.extend_from_slice(frame);
    }
    out
}

/// The frames of a capture `generate` wrote, as a little-endian pcapng: a
/// section header, one Ethernet interface, an enhanced packet block per frame,
/// each frame behind the 802.1Q tag `vlan` when given. The same data in the
/// other layout, so both go through the same checks.
pub fn pcapng(pcap: &[u8], vlan: Option<u16>) -> Vec<u8> {
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
    for (_, _, frame) in records(pcap) {
        let mut tagged = frame[..12].to_vec();
        if let Some(vlan) = vlan {
            tagged.extend_from_slice(&0x8100u16.to_be_bytes());
            tagged.extend_from_slice(&vlan.to_be_bytes());
        }
        tagged.extend_from_slice(&frame[12..]);
        let mut epb = vec![0; 12];
        epb.extend_from_slice(&(tagged.len() as u32).to_le_bytes());
        epb.extend_from_slice(&(tagged.len() as u32).to_le_bytes());
        epb.extend_from_slice(&tagged);
        out.extend(block(6, &epb));
    }
    out
}

fn message(kind: u8, flag: u8, ts: i64) -> Vec<u8> {
    let mut m = vec![kind, flag];
    m.extend_from_slice(&ts.to_le_bytes());
    m
}

impl Generator {
    fn opening(&mut self) {
        let ts = self.now;
        let mut messages =
            vec![message(b'S', b'O', ts), message(b'S', b'S', ts), message(b'S', b'R', ts)];
        for book in &self.books {
            let mut status = message(b'H', b'T', ts);
            status.extend_from_slice(book.symbol);
            status.extend_from_slice(b"    ");
            let mut halt = message(b'O', b'N', ts);
            halt.extend_from_slice(book.symbol);
            let mut short_sale = message(b'P', 0, ts);
            short_sale.extend_from_slice(book.symbol);
            short_sale.push(b' ');
            messages.extend([status, halt, short_sale]);
        }
        let mut unknown = message(UNKNOWN_TYPE, 0, ts);
        unknown.extend_from_slice(b"from a newer spec");
        messages.push(unknown);
        self.iex_packet(&messages);
    }

    fn closing(&mut self) {
        self.now += 1_000_000;
        let ts = self.now;
        let mut messages = Vec::new();
        for book in &self.books {
            let mut event = message(b'E', b'C', ts);
            event.extend_from_slice(book.symbol);
            messages.push(event);
        }
        messages.extend([
            message(b'S', b'M', ts),
            message(b'S', b'E', ts),
            message(b'S', b'C', ts),
        ]);
        self.iex_packet(&messages);
    }

    /// Busy symbols first: the first few take most of the traffic.
    fn pick_book(&mut self) -> usize {
        let n = self.books.len();
        let r: f64 = self.rng.random();
        ((r * r * n as f64) as usize).min(n - 1)
    }

    fn market_message(&mut self) -> Vec<u8> {
        self.now += self.rng.random_range(0..2_000);
        let ts = self.now;
        let i = self.pick_book();
        if self.rng.random_bool(0.3) {
            let step = self.rng.random_range(-2..=2) * TICK;
            self.books[i].mid = (self.books[i].mid + step).max(TICK * 10);
        }
        let book = &self.books[i];
        let half_spread = self.rng.random_range(1..=5) * TICK;
        let roll: f64 = self.rng.random();
        if roll < 0.50 {
            // Price level update: size 0 deletes the level.
            let buy = self.rng.random_bool(0.5);
            let depth = self.rng.random_range(0..=3) * TICK;
            let price =
                if buy { book.mid - half_spread - depth } else { book.mid + half_spread + depth };
            let size: u32 =
                if self.rng.random_bool(0.15) { 0 } else { self.rng.random_range(1..=50) * 100 };
            let mut m = message(if buy { b'8' } else { b'5' }, 1, ts);
            m.extend_from_slice(book.symbol);
            m.extend_from_slice(&size.to_le_bytes());
            m.extend_from_slice(&price.to_le_bytes());
            m
        } else if roll < 0.88 {
            let price = if self.rng.random_bool(0.5) {
                book.mid - half_spread
            } else {
                book.mid + half_spread
            };
            let size: u32 = self.rng.random_range(1..=1_000);
            let flags = if self.rng.random_bool(0.2) { 0x80 } else { 0 }; // odd-lot / ISO style flag bits
            let trade_id: u64 = self.rng.random();
            let mut m = message(if self.rng.random_bool(0.002) { b'B' } else { b'T' }, flags, ts);
            m.extend_from_slice(book.symbol);
            m.extend_from_slice(&size.to_le_bytes());
            m.extend_from_slice(&price.to_le_bytes());
            m.extend_from_slice(&trade_id.to_le_bytes());
            m
        } else if roll < 0.995 {
            let mut m = message(b'H', b'T', ts);
            m.extend_from_slice(book.symbol);
            m.extend_from_slice(b"    ");
            m
        } else {
            let mut m = message(UNKNOWN_TYPE, 0, ts);
            m.extend_from_slice(book.symbol);
            m
        }
    }

    fn pcap_header(&mut self) {
        let p = &mut self.pcap;
        p.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
        p.extend_from_slice(&2u16.to_le_bytes());
        p.extend_from_slice(&4u16.to_le_bytes());
        p.extend_from_slice(&[0; 8]); // thiszone, sigfigs
        p.extend_from_slice(&65_535u32.to_le_bytes());
        p.extend_from_slice(&1u32.to_le_bytes()); // Ethernet
    }

    fn pcap_record(&mut self, frame: &[u8]) {
        let seconds = (self.now / 1_000_000_000) as u32;
        let micros = ((self.now % 1_000_000_000) / 1_000) as u32;
        let p = &mut self.pcap;
        p.extend_from_slice(&seconds.to_le_bytes());
        p.extend_from_slice(&micros.to_le_bytes());
        p.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        p.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        p.extend_from_slice(frame);
    }

    /// An ARP request: not IPv4, so counted and skipped by ingest.
    fn other_frame(&mut self) {
        let mut frame = vec![0xff; 6];
        frame.extend_from_slice(&[0x00, 0x1e, 0x67, 0x9f, 0xc8, 0xef, 0x08, 0x06]);
        frame.extend_from_slice(&[0, 1, 8, 0, 6, 4, 0, 1]);
        frame.resize(60, 0);
        self.pcap_record(&frame);
    }

    fn iex_packet(&mut self, messages: &[Vec<u8>]) {
        let payload_len: usize = messages.iter().map(|m| 2 + m.len()).sum();
        let mut udp_payload = Vec::with_capacity(HEADER_LEN + payload_len);
        udp_payload.extend_from_slice(&[1, 0]);
        udp_payload.extend_from_slice(&Protocol::Deep10.id().to_le_bytes());
        udp_payload.extend_from_slice(&1u32.to_le_bytes()); // channel
        udp_payload.extend_from_slice(&1_150_000_000u32.to_le_bytes()); // session
        udp_payload.extend_from_slice(&(payload_len as u16).to_le_bytes());
        udp_payload.extend_from_slice(&(messages.len() as u16).to_le_bytes());
        udp_payload.extend_from_slice(&self.stream_offset.to_le_bytes());
        udp_payload.extend_from_slice(&self.seq_no.to_le_bytes());
        udp_payload.extend_from_slice(&self.now.to_le_bytes());
        for m in messages {
            udp_payload.extend_from_slice(&(m.len() as u16).to_le_bytes());
            udp_payload.extend_from_slice(m);
        }
        self.seq_no += messages.len() as u64;
        self.stream_offset += payload_len as u64;
        let frame = self.udp_frame(&udp_payload);
        self.pcap_record(&frame);
    }

    /// Ethernet → IPv4 (233.215.21.4, IEX's DEEP multicast group) → UDP 10378.
    fn udp_frame(&mut self, payload: &[u8]) -> Vec<u8> {
        let mut f = Vec::with_capacity(42 + payload.len());
        f.extend_from_slice(&[0x01, 0x00, 0x5e, 0x57, 0x15, 0x04]);
        f.extend_from_slice(&[0x00, 0x1e, 0x67, 0x9f, 0xc8, 0xef]);
        f.extend_from_slice(&0x0800u16.to_be_bytes());
        let total_len = (20 + 8 + payload.len()) as u16;
        self.ip_id = self.ip_id.wrapping_add(1);
        let mut ip = [0u8; 20];
        ip[0] = 0x45;
        ip[2..4].copy_from_slice(&total_len.to_be_bytes());
        ip[4..6].copy_from_slice(&self.ip_id.to_be_bytes());
        ip[6] = 0x40; // don't fragment
        ip[8] = 64;
        ip[9] = 17;
        ip[12..16].copy_from_slice(&[23, 226, 155, 132]);
        ip[16..20].copy_from_slice(&[233, 215, 21, 4]);
        let checksum = ipv4_checksum(&ip);
        ip[10..12].copy_from_slice(&checksum.to_be_bytes());
        f.extend_from_slice(&ip);
        f.extend_from_slice(&10_378u16.to_be_bytes());
        f.extend_from_slice(&10_378u16.to_be_bytes());
        f.extend_from_slice(&((8 + payload.len()) as u16).to_be_bytes());
        f.extend_from_slice(&[0, 0]); // no UDP checksum, as IPv4 allows
        f.extend_from_slice(payload);
        f
    }
}

fn ipv4_checksum(header: &[u8; 20]) -> u16 {
    let mut sum: u32 = header.chunks(2).map(|w| u32::from(u16::from_be_bytes([w[0], w[1]]))).sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_bytes_other_seed_other_bytes() {
        let a = generate(Options { packets: 500, seed: 7 });
        assert_eq!(a, generate(Options { packets: 500, seed: 7 }));
        assert_ne!(a, generate(Options { packets: 500, seed: 8 }));
    }

    #[test]
    fn ipv4_checksum_verifies_to_zero() {
        let mut g = Generator {
            rng: ChaCha8Rng::seed_from_u64(0),
            books: Vec::new(),
            now: 0,
            seq_no: 1,
            stream_offset: 0,
            ip_id: 0,
            pcap: Vec::new(),
        };
        let frame = g.udp_frame(b"x");
        let ip: [u8; 20] = frame[14..34].try_into().unwrap();
        assert_eq!(ipv4_checksum(&ip), 0);
    }
}
