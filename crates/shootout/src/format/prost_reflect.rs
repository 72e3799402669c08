//! Protocol Buffers through `prost-reflect`'s dynamic messages, over a schema
//! read at run time: the user's `.proto` (`--schema`) or the one a `csv`
//! run builds from its columns. No generated code: the descriptor drives
//! both directions, as it does for a service that loads schemas it was not
//! compiled with.

use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use prost::Message as _;
use prost_reflect::DynamicMessage;

use super::{Coding, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::jsonl::schema::{ProtobufSchema, protobuf};
use crate::workload::jsonl::{JsonValues, Origin, Value, ValueSink};

/// The `protobuf-dynamic` format: the run's schema and a message kept for decoding.
pub struct ProtobufDynamic {
    schema: Arc<ProtobufSchema>,
    decoded: DynamicMessage,
}

impl ProtobufDynamic {
    pub fn new(schema: Arc<ProtobufSchema>) -> ProtobufDynamic {
        let decoded = DynamicMessage::new(schema.message.clone());
        ProtobufDynamic { schema, decoded }
    }
}

impl Format for ProtobufDynamic {
    const INFO: FormatInfo = FormatInfo {
        name: "protobuf-dynamic",
        family: Family::Format(&features::PROTOBUF),
        library: "prost-reflect",
        labels: Labels::OWNED_DYNAMIC,
        notes: "The user's .proto compiled at run time (protox) into descriptors, or a csv run's \
                own (an optional field per column); records are prost-reflect DynamicMessages. \
                One length-delimited message per record (varint length, protobuf's stream \
                framing, as protobuf-prost). Encode builds the record's DynamicMessage from its \
                value and encodes it, as protobuf-prost's encode fills its generated message; the \
                Go and JVM runners build theirs before the timed loop, so their encode times the \
                encoding alone. Decode clears a kept DynamicMessage, merges the bytes into it \
                (owned values: every string, bytes and nested message allocated) and walks the \
                fields it has into the value sink (docs/dataset-format.md, the projection).",
        wire: Some("protobuf"),
        framing: Framing::Varint,
    };
}

impl<O: Origin> Coding<JsonValues<O>> for ProtobufDynamic {
    fn encode(&mut self, record: &Value, stream: &mut Vec<u8>) -> Result<()> {
        let message = self.schema.build(record).map_err(|violations| {
            anyhow!("protobuf-dynamic: the record does not fit the schema: {}", violations[0])
        })?;
        message.encode_length_delimited(stream).context("protobuf-dynamic: encode")
    }

    fn decode(&mut self, stream: &[u8], sink: &mut ValueSink) -> Result<usize> {
        let mut rest = stream;
        self.decoded.clear();
        self.decoded
            .merge_length_delimited(&mut rest)
            .context("protobuf-dynamic: invalid message")?;
        protobuf::walk(&self.decoded, sink);
        Ok(stream.len() - rest.len())
    }
}
