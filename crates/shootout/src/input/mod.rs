//! Reading data, all of it in one place: files, pipes and gzip ([`source`]),
//! pcap and pcapng captures ([`capture`]) down through Ethernet, IPv4 and UDP
//! ([`net`]) to IEX-TP packets and messages (`iex`), the records a capture or
//! a CSV file holds ([`ingest`], [`csv`]), JSON Lines ([`jsonl`]), any CSV
//! ([`columns`]), generated captures ([`generate`]),
//! and the windows a pass reads them in ([`window`]), so memory stays bounded
//! whatever the input's size.
//!
//! Reading turns bytes into a workload's records, so this module sits above
//! `workload` (the record types and their aggregates) and below everything
//! that measures, reports or exports.

pub mod capture;
pub mod columns;
pub mod csv;
pub mod fuzz;
pub mod generate;
pub mod ingest;
pub mod jsonl;
pub mod net;
pub mod schema;
pub mod source;
pub mod window;

pub use capture::IexPackets;
pub use source::Source;
pub use window::{InMemory, Input, Limited, Reader, Scanned, Window, in_file_order};

/// Operations a pass reads at a time, unless `--window` says otherwise.
pub const DEFAULT_WINDOW: usize = 4096;
