//! Capture ingest: pcap or pcapng (optionally gzipped) → Ethernet/IPv4/UDP →
//! IEX-TP packets. Streams the file; never needs the whole capture in memory.


pub mod generate;
pub mod iex;
pub mod net;
pub mod source;

use std::sync::atomic::Ordering;

use anyhow::{Result, anyhow, bail};
use pcap_parser::pcapng::Block;
use pcap_parser::{Linktype, PcapBlockOwned, PcapError, create_reader};

pub use source::Source;

/// The parser's buffer: far above any real snap length, so one record always fits.
const PARSE_BUFFER: usize = 1 << 20;
/// Snap length assumed when a capture declares none (0), as libpcap does.
const DEFAULT_SNAPLEN: u32 = 262_144;
const LEGACY_RECORD_HEADER: usize = 16;
const PCAPNG_BLOCK_HEADER: usize = 12;
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

/// Calls `on_frame` for every packet record of the capture, in order.
pub fn read_frames(
    source: &Source,
    mut on_frame: impl FnMut(Frame<'_>) -> std::result::Result<(), Located>,
) -> Result<ReadSummary> {
    let name = source.name();
    let opened = source::open(source)?;
    let where_ = |offset: u64| {
        if opened.gzip { format!("{name}: decompressed byte {offset}") } else { format!("{name}: byte {offset}") }
    };
    let io_failure = || {
        let compressed = opened.progress.compressed.load(Ordering::Relaxed);
        match opened.progress.io_error.lock().unwrap().take() {
            Some(e) if opened.gzip => anyhow!("{name}: compressed byte {compressed}: corrupt gzip stream: {e}"),
            Some(e) => anyhow!("{name}: read failed: {e}"),
            None => anyhow!("{name}: read failed"),
        }
    };

    let mut reader = match create_reader(PARSE_BUFFER, opened.reader) {
        Ok(reader) => reader,
        Err(PcapError::ReadError) => return Err(io_failure()),
        Err(PcapError::Incomplete(_)) | Err(PcapError::Eof) => {
            let have = opened.progress.delivered.load(Ordering::Relaxed);
            bail!("{}: truncated capture header ({have} bytes in the whole file)", where_(0));
        }
        Err(_) => {
            let head = source::bytes_at(source, 0, 4);
            bail!(
                "{}: not a pcap or pcapng capture: starts with {} (expected magic a1b2c3d4, a1b23c4d or their byte swaps, or pcapng 0a0d0d0a)",
                where_(0),
                hex(&head)
            );
        }
    };

    let mut summary = ReadSummary::default();
    let mut legacy_linktype = Linktype::ETHERNET;
    let mut legacy_snaplen = DEFAULT_SNAPLEN;
    let mut interfaces: Vec<(Linktype, u32)> = Vec::new();
    let mut is_pcapng = false;
    let mut big_endian = false;
    loop {
        let start = reader.consumed() as u64;
        match reader.next() {
            Ok((len, block)) => {
                let frame = match block {
                    PcapBlockOwned::LegacyHeader(header) => {
                        legacy_linktype = header.network;
                        legacy_snaplen = header.snaplen;
                        big_endian = header.is_bigendian();
                        None
                    }
                    PcapBlockOwned::Legacy(record) => Some(Frame {
                        data: record.data,
                        linktype: legacy_linktype,
                        offset: start + LEGACY_RECORD_HEADER as u64,
                    }),
                    PcapBlockOwned::NG(Block::SectionHeader(shb)) => {
                        is_pcapng = true;
                        big_endian = shb.big_endian();
                        interfaces.clear();
                        None
                    }
                    PcapBlockOwned::NG(Block::InterfaceDescription(idb)) => {
                        interfaces.push((idb.linktype, idb.snaplen));
                        None
                    }
                    PcapBlockOwned::NG(Block::EnhancedPacket(epb)) => {
                        let Some(&(linktype, _)) = interfaces.get(epb.if_id as usize) else {
                            bail!("{}: packet names interface {} but the capture declares {}", where_(start), epb.if_id, interfaces.len());
                        };
                        let data = &epb.data[..(epb.caplen as usize).min(epb.data.len())];
                        Some(Frame { data, linktype, offset: start + EPB_DATA_OFFSET })
                    }
                    PcapBlockOwned::NG(Block::SimplePacket(spb)) => {
                        let Some(&(linktype, _)) = interfaces.first() else {
                            bail!("{}: simple packet block before any interface description", where_(start));
                        };
                        let data = &spb.data[..(spb.origlen as usize).min(spb.data.len())];
                        Some(Frame { data, linktype, offset: start + SPB_DATA_OFFSET })
                    }
                    PcapBlockOwned::NG(_) => None,
                };
                if let Some(frame) = frame {
                    summary.records += 1;
                    on_frame(frame).map_err(|e| anyhow!("{}: {}", where_(e.offset), e.problem))?;
                }
                reader.consume(len);
            }
            Err(PcapError::Eof) => break,
            Err(PcapError::Incomplete(_)) => reader.refill().map_err(|_| io_failure())?,
            Err(PcapError::ReadError) => return Err(io_failure()),
            Err(PcapError::UnexpectedEof) | Err(PcapError::BufferTooSmall) => {
                let left = opened.progress.delivered.load(Ordering::Relaxed) - start;
                let snaplen = if is_pcapng {
                    interfaces.iter().map(|&(_, s)| s).max().unwrap_or(0)
                } else {
                    legacy_snaplen
                };
                match damaged_final_record(source, start, left, is_pcapng, big_endian, snaplen) {
                    Ok(warning) => {
                        summary.warnings.push(format!("{}: {warning}", where_(start)));
                        break;
                    }
                    Err(problem) => bail!("{}: {problem}", where_(start)),
                }
            }
            Err(e) => bail!("{}: malformed capture record: {e:?}", where_(start)),
        }
    }
    summary.bytes = reader.consumed() as u64;
    Ok(summary)
}

/// A file that ends inside a record. A record whose length fits the snap
/// length was cut short with the file (captures written to a size limit end
/// this way): a warning. A cut header, or a length no snap length allows, is a
/// corrupt file: an error.
fn damaged_final_record(
    source: &Source,
    start: u64,
    left: u64,
    is_pcapng: bool,
    big_endian: bool,
    snaplen: u32,
) -> std::result::Result<String, String> {
    let header_len = if is_pcapng { PCAPNG_BLOCK_HEADER } else { LEGACY_RECORD_HEADER };
    if left < header_len as u64 {
        return Err(format!("truncated record header: expected {header_len} bytes, found {left}"));
    }
    let header = source::bytes_at(source, start, header_len);
    let field = |at: usize| {
        let bytes = header.get(at..at + 4).and_then(|b| b.try_into().ok()).unwrap_or([0; 4]);
        if big_endian { u32::from_be_bytes(bytes) } else { u32::from_le_bytes(bytes) }
    };
    // Record length: caplen at +8 (pcap), block total length at +4 (pcapng).
    let (claimed, overhead) = if is_pcapng { (field(4), EPB_DATA_OFFSET as u32 + 4) } else { (field(8), 0) };
    let snaplen = if snaplen == 0 { DEFAULT_SNAPLEN } else { snaplen };
    let body_left = left - if is_pcapng { 0 } else { header_len as u64 };
    if u64::from(claimed) > u64::from(snaplen) + u64::from(overhead) + 64 {
        return Err(format!(
            "record length {claimed} runs past the end of the file ({body_left} bytes left) and exceeds the snap length {snaplen}"
        ));
    }
    Ok(format!("final record cut short ({body_left} of its {claimed} bytes present); ignored"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a pass over an IEX capture saw besides the IEX-TP packets themselves.
#[derive(Debug, Default, Clone)]
pub struct IexScan {
    pub read: ReadSummary,
    pub iex_packets: u64,
    /// Non-Ethernet, non-IPv4-UDP, or UDP that is not IEX-TP: counted and skipped.
    pub other_packets: u64,
}

/// Calls `on_packet` for every IEX-TP packet of the capture.
pub fn read_iex(source: &Source, mut on_packet: impl FnMut(iex::Packet<'_>)) -> Result<IexScan> {
    let mut scan = IexScan::default();
    scan.read = read_frames(source, |frame| {
        let net::Udp::Payload(range) = (if frame.linktype == Linktype::ETHERNET {
            net::udp_payload(frame.data)
        } else {
            net::Udp::NotUdp
        }) else {
            scan.other_packets += 1;
            return Ok(());
        };
        let payload_offset = frame.offset + range.start as u64;
        match iex::parse_packet(&frame.data[range]) {
            Ok(Some(packet)) => {
                scan.iex_packets += 1;
                on_packet(packet);
            }
            Ok(None) => scan.other_packets += 1,
            Err(e) => return Err(Located { offset: payload_offset + e.offset as u64, problem: e.problem }),
        }
        Ok(())
    })?;
    if scan.iex_packets == 0 {
        bail!("no IEX-TP packets in {} — is this an IEX HIST capture?", source.name());
    }
    Ok(scan)
}
