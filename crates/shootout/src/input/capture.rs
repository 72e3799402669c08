//! Captures: pcap or pcapng (optionally gzipped) → Ethernet/IPv4/UDP →
//! IEX-TP packets. Streams the input; never needs the whole capture in memory.
//!
//! pcap-parser parses the records; before each one, the framing is checked
//! here against what the formats allow, because the parser's streaming
//! errors cannot tell a record cut short by the end of the input from one
//! whose length is wrong.

use std::collections::BTreeMap;
use std::io::{Cursor, Read};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Result, anyhow, bail};
use pcap_parser::pcapng::Block;
use pcap_parser::traits::PcapReaderIterator;
use pcap_parser::{Linktype, PcapBlockOwned, PcapError, create_reader};

use super::net;
use super::source::{Filling, Source, Tap};
use crate::workload::iex::wire as iex;

/// The parser's buffer: large reads, and room for any record a snap length allows.
const PARSE_BUFFER: usize = 4 << 20;
const MIN_PARSE_BUFFER: usize = 64 << 10;
/// Snap length assumed when a capture declares none (0), as libpcap does.
const DEFAULT_SNAPLEN: u32 = 262_144;
/// Beyond this a record or block length is taken for corruption, whatever the snap length says.
const MAX_RECORD: u32 = 64 << 20;
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const PCAPNG_MAGIC: [u8; 4] = [0x0a, 0x0d, 0x0d, 0x0a];
/// Enough of the stream to name what it is, or to show that it is too short for any capture header.
const HEAD: usize = 32;
const SHB: u32 = 0x0a0d_0d0a;
const IDB: u32 = 1;
const SPB: u32 = 3;
const EPB: u32 = 6;
const EPB_DATA_OFFSET: u64 = 28;
const SPB_DATA_OFFSET: u64 = 12;

/// A problem inside a frame, at an absolute offset of the capture stream.
#[derive(Debug)]
pub struct Located {
    pub offset: u64,
    pub problem: String,
}

/// One captured link-layer frame.
pub struct Frame<'a> {
    pub data: &'a [u8],
    pub linktype: Linktype,
    /// Offset of `data` in the (decompressed) capture stream.
    pub offset: u64,
}

#[derive(Debug, Default, Clone)]
pub struct ReadSummary {
    /// Complete packet records read.
    pub records: u64,
    /// Capture bytes read (decompressed).
    pub bytes: u64,
    pub warnings: Vec<String>,
}

/// Names places in the input: the file, and the byte offset in the capture stream.
#[derive(Debug, Clone)]
struct Place {
    name: String,
    gzip: bool,
}

impl Place {
    fn at(&self, offset: u64) -> String {
        if self.gzip {
            format!("{}: decompressed byte {offset}", self.name)
        } else {
            format!("{}: byte {offset}", self.name)
        }
    }
}

enum Layout {
    /// Classic pcap; the fields come from its file header, the parser's first block.
    Legacy {
        big_endian: bool,
        nanoseconds: bool,
        record_header: usize,
        snaplen: u32,
        linktype: Linktype,
    },
    Ng {
        big_endian: bool,
        interfaces: Vec<(Linktype, u32)>,
    },
}

/// What the bytes ahead of the parser hold.
enum Ahead {
    /// A whole record whose framing is consistent: the parser may take it.
    Record,
    /// More bytes are needed, and the buffer must hold at least this many.
    More(usize),
    End,
}

/// The link-layer frames of a capture, read in order.
pub struct Frames {
    place: Place,
    reader: Box<dyn PcapReaderIterator + Send>,
    capacity: usize,
    layout: Layout,
    /// Start and captured length of the last classic pcap record: a record
    /// header that makes no sense is most likely that length's fault.
    previous: Option<(u64, usize)>,
    tap: Arc<Tap>,
    read_error: Arc<Mutex<Option<std::io::Error>>>,
    summary: ReadSummary,
    done: bool,
}

impl Frames {
    pub fn open(source: &Source) -> Result<Frames> {
        let name = source.name();
        let mut raw = source.open()?;
        let tap = raw.tap();
        let mut magic = Vec::with_capacity(GZIP_MAGIC.len());
        (&mut raw)
            .take(GZIP_MAGIC.len() as u64)
            .read_to_end(&mut magic)
            .map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
        if magic.is_empty() {
            bail!("{name}: empty file (0 bytes), expected a pcap or pcapng capture");
        }
        let gzip = magic == GZIP_MAGIC;
        let raw = Cursor::new(magic).chain(raw);
        let mut stream: Box<dyn Read + Send> =
            if gzip { Box::new(flate2::read::MultiGzDecoder::new(raw)) } else { Box::new(raw) };
        let place = Place { name, gzip };

        let mut head = Vec::with_capacity(HEAD);
        (&mut stream)
            .take(HEAD as u64)
            .read_to_end(&mut head)
            .map_err(|e| read_failure(&place, &tap, e))?;
        let stream = Filling::new(Cursor::new(head.clone()).chain(stream));
        let read_error = stream.error.clone();
        // A small input needs no more buffer than its size (unknown behind gzip).
        let capacity = match tap.progress() {
            (_, Some(size)) if !gzip => {
                (size.min(PARSE_BUFFER as u64) as usize).next_power_of_two().max(MIN_PARSE_BUFFER)
            }
            _ => PARSE_BUFFER,
        };
        let reader = match create_reader(capacity, stream) {
            Ok(reader) => reader,
            Err(PcapError::ReadError) => return Err(io_failure(&place, &tap, &read_error)),
            Err(PcapError::Incomplete(_) | PcapError::Eof) if head.len() < HEAD => {
                bail!(
                    "{}: truncated capture header ({} bytes in the whole capture)",
                    place.at(0),
                    head.len()
                );
            }
            Err(PcapError::Incomplete(_) | PcapError::Eof) => {
                bail!("{}: truncated capture header", place.at(0))
            }
            Err(_) => bail!(
                "{}: not a pcap or pcapng capture: starts with {} (expected magic a1b2c3d4, a1b23c4d or their byte swaps, or pcapng 0a0d0d0a)",
                place.at(0),
                hex(&head[..head.len().min(4)])
            ),
        };
        let layout = if head.starts_with(&PCAPNG_MAGIC) {
            Layout::Ng { big_endian: false, interfaces: Vec::new() }
        } else {
            Layout::Legacy {
                big_endian: false,
                nanoseconds: false,
                record_header: 16,
                snaplen: 0,
                linktype: Linktype::ETHERNET,
            }
        };
        Ok(Frames {
            place,
            reader,
            capacity,
            layout,
            previous: None,
            tap,
            read_error,
            summary: ReadSummary::default(),
            done: false,
        })
    }

    /// Calls `on_frame` for each packet record, in order, until it returns
    /// `Ok(false)`. Returns whether frames may remain (false at the end).
    pub fn next_frames(
        &mut self,
        mut on_frame: impl FnMut(Frame<'_>) -> std::result::Result<bool, Located>,
    ) -> Result<bool> {
        while !self.done {
            let start = self.reader.consumed() as u64;
            match self.ahead(start)? {
                Ahead::Record => {}
                Ahead::More(needed) => {
                    if needed > self.capacity {
                        // Doubling rather than straight to `needed`: a corrupt
                        // length in a small input must not cost a buffer that large.
                        self.capacity = needed.next_power_of_two().min(self.capacity * 2);
                        self.reader.grow(self.capacity);
                    }
                    if self.reader.refill().is_err() {
                        return Err(io_failure(&self.place, &self.tap, &self.read_error));
                    }
                    continue;
                }
                Ahead::End => {
                    self.done = true;
                    break;
                }
            }
            let (len, block) = self.reader.next().map_err(|e| malformed(&self.place, start, &e))?;
            let frame = frame_of(block, start, &mut self.layout)
                .map_err(|problem| anyhow!("{}: {problem}", self.place.at(start)))?;
            let mut more = true;
            if let Some(frame) = frame {
                self.summary.records += 1;
                more = on_frame(frame)
                    .map_err(|e| anyhow!("{}: {}", self.place.at(e.offset), e.problem))?;
            }
            if let Layout::Legacy { record_header, .. } = self.layout
                && start > 0
            {
                self.previous = Some((start, len - record_header));
            }
            // Without the shift `consume` makes past half the buffer, only the
            // part of a record left at a refill is ever moved.
            self.reader.consume_noshift(len);
            if !more {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Raw input bytes read so far (compressed bytes for gzip), and the total when known.
    pub fn progress(&self) -> (u64, Option<u64>) {
        self.tap.progress()
    }

    /// The summary of the pass, and the raw input's size and SHA-256.
    pub fn finish(mut self) -> (ReadSummary, u64, String) {
        self.summary.bytes = self.reader.consumed() as u64;
        let (size, sha256) = self.tap.digest();
        (self.summary, size, sha256)
    }

    /// Checks the framing of the record ahead, before the parser sees it.
    fn ahead(&mut self, start: u64) -> Result<Ahead> {
        let data = self.reader.data();
        let exhausted = self.reader.reader_exhausted();
        if data.is_empty() && exhausted {
            return Ok(Ahead::End);
        }
        let ahead = match &self.layout {
            // The parser hands out the file header before anything else.
            Layout::Legacy { .. } if start == 0 => Ok(Ahead::Record),
            Layout::Legacy { big_endian, nanoseconds, record_header, snaplen, .. } => {
                let header = LegacyHeader {
                    big_endian: *big_endian,
                    nanoseconds: *nanoseconds,
                    len: *record_header,
                    snaplen: *snaplen,
                };
                legacy_ahead(data, exhausted, self.capacity, &header)
            }
            Layout::Ng { big_endian, interfaces } => {
                ng_ahead(data, exhausted, *big_endian, interfaces)
            }
        };
        match ahead {
            Ok(ahead) => Ok(ahead),
            Err(Damage::CutShort(warning)) => {
                self.summary.warnings.push(format!("{}: {warning}", self.place.at(start)));
                Ok(Ahead::End)
            }
            Err(Damage::Corrupt(problem)) => bail!("{}: {problem}", self.place.at(start)),
            Err(Damage::BadHeader(problem)) => match self.previous {
                Some((previous, caplen)) => bail!(
                    "{}: record length {caplen} does not fit what follows: the record header after it, at byte {start}, says {problem}",
                    self.place.at(previous)
                ),
                None => bail!("{}: {problem}", self.place.at(start)),
            },
        }
    }
}

/// How the bytes ahead are damaged.
enum Damage {
    /// The final record, cut short by the end of the input: a warning.
    CutShort(String),
    /// A record that contradicts its format: an error at its own offset.
    Corrupt(String),
    /// A classic pcap record header no capture holds: the previous record's
    /// length led here, or this header itself is damaged.
    BadHeader(String),
}

fn u32_at(data: &[u8], at: usize, big_endian: bool) -> u32 {
    let bytes = data[at..at + 4].try_into().expect("4 bytes");
    if big_endian { u32::from_be_bytes(bytes) } else { u32::from_le_bytes(bytes) }
}

struct LegacyHeader {
    big_endian: bool,
    nanoseconds: bool,
    /// Record header length: 24 in the "modified" format, else 16.
    len: usize,
    snaplen: u32,
}

/// `data`, shorter than the `len`-byte header of a `what` (record or block):
/// the file is cut inside it when the input is exhausted, else more must be read.
fn short_header(
    what: &str,
    len: usize,
    data: &[u8],
    exhausted: bool,
) -> std::result::Result<Ahead, Damage> {
    if exhausted {
        Err(Damage::Corrupt(format!(
            "truncated {what} header: expected {len} bytes, found {}",
            data.len()
        )))
    } else {
        Ok(Ahead::More(len))
    }
}

fn legacy_ahead(
    data: &[u8],
    exhausted: bool,
    capacity: usize,
    header: &LegacyHeader,
) -> std::result::Result<Ahead, Damage> {
    let header_len = header.len;
    if data.len() < header_len {
        return short_header("record", header_len, data, exhausted);
    }
    let fraction = u32_at(data, 4, header.big_endian);
    let caplen = u32_at(data, 8, header.big_endian);
    let origlen = u32_at(data, 12, header.big_endian);
    let limit = if header.snaplen == 0 { DEFAULT_SNAPLEN } else { header.snaplen.min(MAX_RECORD) };
    let (unit, per_second) =
        if header.nanoseconds { ("ns", 1_000_000_000) } else { ("µs", 1_000_000) };
    let problem = if caplen > limit {
        Some(format!("exceeds the snap length {limit}"))
    } else if caplen > origlen {
        Some(format!("exceeds the packet's original length {origlen}"))
    } else if origlen > MAX_RECORD {
        Some(format!(
            "comes with an original length of {origlen}, above the {MAX_RECORD} bytes any link carries"
        ))
    } else if fraction >= per_second {
        Some(format!(
            "comes with a timestamp fraction of {fraction} {unit} (at most {} {unit})",
            per_second - 1
        ))
    } else {
        None
    };
    let whole = header_len + caplen as usize;
    let left = data.len() - header_len;
    match problem {
        Some(problem) if data.len() >= whole => {
            Err(Damage::BadHeader(format!("record length {caplen} {problem}")))
        }
        Some(problem) if exhausted => Err(Damage::BadHeader(format!(
            "record length {caplen} runs past the end of the file ({left} bytes left) and {problem}"
        ))),
        // A fuller buffer may show that the record runs past the end of the file.
        Some(_) if data.len() < capacity => Ok(Ahead::More(capacity)),
        Some(problem) => Err(Damage::BadHeader(format!("record length {caplen} {problem}"))),
        None if data.len() >= whole => Ok(Ahead::Record),
        None if exhausted => Err(Damage::CutShort(format!(
            "final record cut short ({left} of its {caplen} bytes present); ignored"
        ))),
        None => Ok(Ahead::More(whole)),
    }
}

fn ng_ahead(
    data: &[u8],
    exhausted: bool,
    big_endian: bool,
    interfaces: &[(Linktype, u32)],
) -> std::result::Result<Ahead, Damage> {
    const HEADER: usize = 12;
    if data.len() < HEADER {
        return short_header("block", HEADER, data, exhausted);
    }
    let kind = u32::from_le_bytes(data[..4].try_into().expect("4 bytes"));
    let big_endian = if kind == SHB {
        match &data[8..12] {
            [0x1a, 0x2b, 0x3c, 0x4d] => true,
            [0x4d, 0x3c, 0x2b, 0x1a] => false,
            other => {
                return Err(Damage::Corrupt(format!(
                    "section header block with unknown byte-order magic {}",
                    hex(other)
                )));
            }
        }
    } else {
        big_endian
    };
    let kind = if big_endian { kind.swap_bytes() } else { kind };
    let len = u32_at(data, 4, big_endian);
    let (name, minimum) = match kind {
        SHB => ("section header block", 28),
        IDB => ("interface description block", 20),
        EPB => ("enhanced packet block", 32),
        SPB => ("simple packet block", 16),
        _ => ("block", 12),
    };
    let problem = if !len.is_multiple_of(4) {
        Some(format!("{name} length {len} is not a multiple of 4"))
    } else if len < minimum {
        Some(format!("{name} length {len} is below the minimum of {minimum}"))
    } else if len > MAX_RECORD {
        Some(format!("{name} length {len} exceeds {MAX_RECORD} bytes"))
    } else {
        None
    };
    if let Some(problem) = problem {
        return Err(Damage::Corrupt(problem));
    }
    let len = len as usize;
    if data.len() >= len {
        let trailing = u32_at(data, len - 4, big_endian);
        if trailing as usize != len {
            return Err(Damage::Corrupt(format!(
                "{name} length {len} does not match its trailing length {trailing}"
            )));
        }
        return Ok(Ahead::Record);
    }
    if !exhausted {
        return Ok(Ahead::More(len));
    }
    let snaplen = interfaces
        .iter()
        .map(|&(_, s)| if s == 0 { DEFAULT_SNAPLEN } else { s })
        .max()
        .unwrap_or(DEFAULT_SNAPLEN);
    // A packet block holds at most a snap length of data, its fixed fields and some options.
    if matches!(kind, EPB | SPB) && len > snaplen as usize + 64 * 1024 {
        return Err(Damage::Corrupt(format!(
            "{name} length {len} runs past the end of the file ({} bytes left) and exceeds the snap length {snaplen}",
            data.len()
        )));
    }
    Err(Damage::CutShort(format!(
        "final {name} cut short ({} of its {len} bytes present); ignored",
        data.len()
    )))
}

/// Records the header blocks, and returns the frame of a packet block.
fn frame_of<'a>(
    block: PcapBlockOwned<'a>,
    start: u64,
    layout: &mut Layout,
) -> std::result::Result<Option<Frame<'a>>, String> {
    Ok(match (block, layout) {
        (PcapBlockOwned::LegacyHeader(header), layout) => {
            *layout = Layout::Legacy {
                big_endian: header.is_bigendian(),
                nanoseconds: header.is_nanosecond_precision(),
                record_header: if header.is_modified_format() { 24 } else { 16 },
                snaplen: header.snaplen,
                linktype: header.network,
            };
            None
        }
        (PcapBlockOwned::Legacy(record), Layout::Legacy { linktype, record_header, .. }) => {
            Some(Frame {
                data: record.data,
                linktype: *linktype,
                offset: start + *record_header as u64,
            })
        }
        (PcapBlockOwned::NG(Block::SectionHeader(shb)), Layout::Ng { big_endian, interfaces }) => {
            *big_endian = shb.big_endian();
            interfaces.clear();
            None
        }
        (PcapBlockOwned::NG(Block::InterfaceDescription(idb)), Layout::Ng { interfaces, .. }) => {
            interfaces.push((idb.linktype, idb.snaplen));
            None
        }
        (PcapBlockOwned::NG(Block::EnhancedPacket(epb)), Layout::Ng { interfaces, .. }) => {
            let Some(&(linktype, _)) = interfaces.get(epb.if_id as usize) else {
                return Err(format!(
                    "packet names interface {} but the capture declares {}",
                    epb.if_id,
                    interfaces.len()
                ));
            };
            let data = &epb.data[..(epb.caplen as usize).min(epb.data.len())];
            Some(Frame { data, linktype, offset: start + EPB_DATA_OFFSET })
        }
        (PcapBlockOwned::NG(Block::SimplePacket(spb)), Layout::Ng { interfaces, .. }) => {
            let Some(&(linktype, _)) = interfaces.first() else {
                return Err("simple packet block before any interface description".to_owned());
            };
            let data = &spb.data[..(spb.origlen as usize).min(spb.data.len())];
            Some(Frame { data, linktype, offset: start + SPB_DATA_OFFSET })
        }
        _ => None,
    })
}

/// A record whose framing was consistent but which the parser still refused.
/// The parser's error carries its input buffer: never printed.
fn malformed(place: &Place, start: u64, error: &PcapError<&[u8]>) -> anyhow::Error {
    let why = match error {
        PcapError::NomError(_, kind) | PcapError::OwnedNomError(_, kind) => format!("{kind:?}"),
        PcapError::Incomplete(n) => format!("{n} more bytes expected inside the record"),
        _ => "unreadable".to_owned(),
    };
    anyhow!("{}: malformed record ({why})", place.at(start))
}

/// The parser reduces I/O errors to "read error"; `Filling` kept the error itself.
fn io_failure(
    place: &Place,
    tap: &Tap,
    read_error: &Mutex<Option<std::io::Error>>,
) -> anyhow::Error {
    match read_error.lock().unwrap_or_else(PoisonError::into_inner).take() {
        Some(e) => read_failure(place, tap, e),
        None => anyhow!("{}: read failed", place.name),
    }
}

fn read_failure(place: &Place, tap: &Tap, e: std::io::Error) -> anyhow::Error {
    let (raw, _) = tap.progress();
    if place.gzip {
        anyhow!("{}: compressed byte {raw}: corrupt gzip stream: {e}", place.name)
    } else {
        anyhow!("{}: read failed: {e}", place.name)
    }
}

/// Bytes as lowercase hexadecimal (a SHA-256 as files and results print it).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a pass over an IEX capture saw besides the IEX-TP packets themselves.
#[derive(Debug, Default, Clone)]
pub struct IexScan {
    pub read: ReadSummary,
    pub iex_packets: u64,
    /// Non-Ethernet, non-IPv4-UDP, or UDP that is not IEX-TP: counted and skipped.
    pub other_packets: u64,
    /// Frames of link types other than Ethernet, by link type.
    pub other_linktypes: BTreeMap<i32, u64>,
    /// Raw input bytes (compressed, for gzip) and their SHA-256.
    pub input_bytes: u64,
    pub sha256: String,
}

/// The IEX-TP packets of a capture, read in order.
pub struct IexPackets {
    frames: Frames,
    name: String,
    iex_packets: u64,
    other_packets: u64,
    other_linktypes: BTreeMap<i32, u64>,
}

impl IexPackets {
    pub fn open(source: &Source) -> Result<IexPackets> {
        Ok(IexPackets {
            frames: Frames::open(source)?,
            name: source.name(),
            iex_packets: 0,
            other_packets: 0,
            other_linktypes: BTreeMap::new(),
        })
    }

    /// Calls `on_packet` for each IEX-TP packet until it returns false.
    /// Returns whether packets may remain (false at the end).
    pub fn next_packets(
        &mut self,
        mut on_packet: impl FnMut(iex::Packet<'_>) -> bool,
    ) -> Result<bool> {
        let IexPackets { frames, iex_packets, other_packets, other_linktypes, .. } = self;
        frames.next_frames(|frame| {
            if frame.linktype != Linktype::ETHERNET {
                *other_linktypes.entry(frame.linktype.0).or_default() += 1;
                *other_packets += 1;
                return Ok(true);
            }
            let net::Udp::Payload(range) = net::udp_payload(frame.data) else {
                *other_packets += 1;
                return Ok(true);
            };
            let payload_offset = frame.offset + range.start as u64;
            match iex::parse_packet(&frame.data[range]) {
                Ok(Some(mut packet)) => {
                    *iex_packets += 1;
                    packet.payload_offset = payload_offset;
                    Ok(on_packet(packet))
                }
                Ok(None) => {
                    *other_packets += 1;
                    Ok(true)
                }
                Err(e) => {
                    Err(Located { offset: payload_offset + e.offset as u64, problem: e.problem })
                }
            }
        })
    }

    pub fn progress(&self) -> (u64, Option<u64>) {
        self.frames.progress()
    }

    /// After the last packet: what the pass saw. A capture without IEX-TP packets is an error.
    pub fn finish(self) -> Result<IexScan> {
        if self.iex_packets == 0 {
            let name = &self.name;
            let Some((&linktype, &n)) = self.other_linktypes.iter().max_by_key(|(_, n)| **n) else {
                bail!("no IEX-TP packets in {name} — is this an IEX HIST capture?");
            };
            let linktype = Linktype(linktype);
            let hint = if [Linktype::LINUX_SLL, Linktype::LINUX_SLL2].contains(&linktype) {
                " (Linux cooked capture, as `tcpdump -i any` writes: capture on the feed's interface instead)"
            } else {
                ""
            };
            bail!(
                "no IEX-TP packets in {name}: {n} of its packets are of link type {linktype} ({}){hint}, and IEX-TP is read from Ethernet (1) frames only",
                linktype.0
            );
        }
        let (read, input_bytes, sha256) = self.frames.finish();
        Ok(IexScan {
            read,
            iex_packets: self.iex_packets,
            other_packets: self.other_packets,
            other_linktypes: self.other_linktypes,
            input_bytes,
            sha256,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::generate::{Options, generate, records};

    fn read_all(bytes: Vec<u8>) -> Result<ReadSummary> {
        let mut frames =
            Frames::open(&Source::Memory { name: "t.pcap".into(), bytes: Arc::from(bytes) })?;
        while frames.next_frames(|_| Ok(true))? {}
        Ok(frames.finish().0)
    }

    #[test]
    fn a_record_length_wrong_by_any_amount_mid_file_is_an_error() {
        let pcap = generate(Options { packets: 300, seed: 4 });
        let (bad, _, _) = records(&pcap).nth(250).unwrap();
        for delta in (-40i32..=40).filter(|&d| d != 0) {
            let mut bytes = pcap.clone();
            for field in [bad + 8, bad + 12] {
                let length = u32_at(&bytes, field, false).wrapping_add_signed(delta);
                bytes[field..field + 4].copy_from_slice(&length.to_le_bytes());
            }
            match read_all(bytes) {
                Ok(summary) => panic!(
                    "length off by {delta} read as {} records, warnings {:?}",
                    summary.records, summary.warnings
                ),
                Err(e) => {
                    assert!(e.to_string().contains(&format!("byte {bad}")), "off by {delta}: {e}")
                }
            }
        }
    }

    #[test]
    fn only_the_final_record_may_be_cut_short() {
        let pcap = generate(Options { packets: 50, seed: 4 });
        let (last, _, _) = records(&pcap).last().unwrap();
        for cut in [1, 10, pcap.len() - last - 17] {
            let summary = read_all(pcap[..pcap.len() - cut].to_vec()).unwrap();
            assert_eq!(summary.records, records(&pcap).count() as u64 - 1);
            assert_eq!(summary.warnings.len(), 1, "{:?}", summary.warnings);
            assert!(
                summary.warnings[0]
                    .starts_with(&format!("t.pcap: byte {last}: final record cut short")),
                "{:?}",
                summary.warnings
            );
        }
    }
}
