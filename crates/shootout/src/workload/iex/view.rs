//! Feeding decoded records to the aggregator, for formats that decode into
//! Rust values (serde and derive-based libraries) rather than reading in place.

use serde::Deserialize;

use super::{Aggregator, Body, MultiMessage};

/// A borrowed mirror of [`MultiMessage`] for serde's zero-copy deserialization:
/// the symbol points into the input, so only the message list is allocated.
/// Field names and the `Body` representation match `MultiMessage`'s, so it reads
/// what `MultiMessage` serializes.
#[derive(Debug, Deserialize)]
pub struct MultiMessageView<'a> {
    pub seq_no: u64,
    #[serde(borrow)]
    pub messages: Vec<MessageView<'a>>,
}

#[derive(Debug, Deserialize)]
pub struct MessageView<'a> {
    pub ts: i64,
    pub symbol: &'a str,
    pub body: Body,
}

impl MultiMessageView<'_> {
    pub fn aggregate_into(&self, sink: &mut Aggregator) {
        sink.packet(self.seq_no, self.messages.len());
        for m in &self.messages {
            sink.message(m.ts, m.symbol.as_bytes(), &m.body);
        }
    }
}

impl MultiMessage {
    pub fn aggregate_into(&self, sink: &mut Aggregator) {
        sink.packet(self.seq_no, self.messages.len());
        for m in &self.messages {
            sink.message(m.ts, m.symbol.as_bytes(), &m.body);
        }
    }
}
