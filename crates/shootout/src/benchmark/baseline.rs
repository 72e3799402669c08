//! The floor under every format: the same loops with no format at all. Encode
//! copies the record into a reused buffer of plain structs and appends its
//! slot number to the stream; decode feeds that copy to the sink. What a format
//! costs is its distance from this row.

use anyhow::{Context, Result};

use crate::format::{Codec, Family, Format, FormatInfo, Framing, Labels};
use crate::workload::Workload;

/// The family every table and export recognises the baseline by.
pub const FAMILY: &str = "baseline (no format)";

pub struct Baseline<W: Workload> {
    copies: Vec<W::Record>,
}

const SLOT: usize = size_of::<u32>();

impl<W: Workload> Format for Baseline<W> {
    const INFO: FormatInfo = FormatInfo {
        name: "baseline",
        family: Family::NotAFormat(FAMILY),
        // The harness itself: no format library is involved.
        library: "shootout",
        labels: Labels::OWNED_NATIVE,
        notes: "No format: encode clones the record into a reused slot (clone_from keeps its allocations) and appends the \
                slot's 4-byte index to the stream; decode feeds the copy to the aggregate. Its bytes are not a size.",
        wire: None,
        // Each record is its slot's 4-byte index.
        framing: Framing::None,
    };
}

impl<W: Workload> Codec<W> for Baseline<W>
where
    W::Record: Clone,
{
    fn new() -> Self {
        Baseline { copies: Vec::new() }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        // One slot per record of the current stream: the stream restarts every window.
        let slot = stream.len() / SLOT;
        match self.copies.get_mut(slot) {
            Some(copy) => copy.clone_from(record),
            None => self.copies.push(record.clone()),
        }
        stream.extend_from_slice(&(slot as u32).to_le_bytes());
        Ok(())
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let slot = stream.get(..SLOT).context("baseline: stream ends inside a slot number")?;
        let slot = u32::from_le_bytes(slot.try_into().expect("4 bytes")) as usize;
        let copy =
            self.copies.get(slot).with_context(|| format!("baseline: no record in slot {slot}"))?;
        W::feed(copy, sink);
        Ok(SLOT)
    }
}
