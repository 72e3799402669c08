//! wincode, bincode's wire-compatible successor (RUSTSEC-2025-0141 flags
//! bincode unmaintained; bincode's final README names wincode its
//! bincode-compatible alternative), through its own derives (`SchemaWrite` on
//! the record, `SchemaRead` on the borrowed mirror), default configuration.
//!
//! wincode's default configuration is bincode 1's (and bincode 2's
//! `config::legacy()`): fixed-width little-endian integers, u64 lengths, u32
//! enum tags. That is the fast path its documentation recommends (varint
//! integers "will hurt serialization and deserialization performance
//! significantly"), so its bytes are not those of the `bincode` codec, which
//! writes bincode 2's `config::standard()` (varint integers): the wire is
//! `bincode-legacy`, and a test shows both equalities.
//!
//! The encoding is self-delimiting, so records are written back to back with
//! no length prefix; decoding reads through `SchemaRead::get` from a slice
//! that it advances, whose shrinkage is the record's length. Each symbol is
//! borrowed from the stream; the mirror's message list is a `Vec` built per
//! record: one allocation per non-empty record, as bincode's.

use anyhow::{Context, Result};
use wincode::config::DefaultConfig;
use wincode::{SchemaRead, SchemaWrite};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::view::BorrowedMultiMessage;
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

pub struct Wincode;

/// Appends `value` to `stream` through wincode's `Vec<u8>` writer, which grows
/// the vector as it writes; a failed write leaves a partial prefix (wincode
/// documents writes as not transactional), which is cut off.
fn append<T: SchemaWrite<DefaultConfig, Src = T>>(value: &T, stream: &mut Vec<u8>) -> Result<()> {
    let start = stream.len();
    wincode::serialize_into(&mut *stream, value)
        .inspect_err(|_| stream.truncate(start))
        .context("wincode: encode")
}

/// Reads one `T` from the start of `stream`; returns it and the bytes it took.
/// wincode's entry points that take a slice (`deserialize`) do not say how much
/// they read, so this is `SchemaRead::get` on a reader that advances. Lengths
/// are checked against the default configuration's preallocation limit (4
/// MiB), wincode's guard against hostile lengths.
fn read<'de, T: SchemaRead<'de, DefaultConfig>>(stream: &'de [u8]) -> Result<(T::Dst, usize)> {
    let mut rest = stream;
    let value = T::get(&mut rest).context("wincode: decode")?;
    Ok((value, stream.len() - rest.len()))
}

impl Format for Wincode {
    const INFO: FormatInfo = FormatInfo {
        name: "wincode",
        family: Family::Format(&features::BINCODE),
        library: "wincode",
        labels: Labels::OWNED_NATIVE,
        notes: "wincode (bincode's successor after RUSTSEC-2025-0141) native derives \
                (SchemaWrite; SchemaRead on a mirror whose symbol is a borrowed &str), default \
                configuration: bincode 1's layout (fixed-width LE integers, u64 lengths, u32 \
                enum tags), the fast path wincode recommends over varint integers, so the bytes \
                are bincode's config::legacy(), not the `bincode` codec's varint standard(). \
                Encode appends with serialize_into to the stream (wincode's Vec writer). \
                The encoding is self-delimiting, so records are back to back with no prefix; \
                decode is SchemaRead::get on an advancing slice (the bytes read are what it \
                advanced). Decode checks UTF-8 and allocates the message Vec once per non-empty \
                record; lengths are held to the default 4 MiB preallocation limit. \
                Record-shaped workloads: the derives on the record types themselves, same \
                config and framing; decode builds the owned record (one allocation per \
                String/Vec) and visits it.",
        wire: Some("bincode-legacy"),
        framing: Framing::None,
    };
}

impl Codec<Iex> for Wincode {
    fn new() -> Self {
        Wincode
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (record, used) = read::<BorrowedMultiMessage<'_>>(stream)?;
        record.aggregate_into(sink);
        Ok(used)
    }
}

/// The record-shaped workloads: the record's own derives, decoded owned
/// (strings copied) with the same configuration, then visited.
impl<R> Codec<Fields<R>> for Wincode
where
    R: FieldRecord
        + SchemaWrite<DefaultConfig, Src = R>
        + for<'de> SchemaRead<'de, DefaultConfig, Dst = R>,
{
    fn new() -> Self {
        Wincode
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (record, used) = read::<R>(stream)?;
        record.visit(sink);
        Ok(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::codec_tests::{decode_one, sample_stream};
    use crate::workload::iex::sample_dataset;
    use crate::workload::user::UserResponse;
    use bincode::config;

    crate::format::codec_tests::iex_codec_tests!(Wincode);

    /// wincode's default bytes are bincode's legacy configuration, record for
    /// record, and not its standard one (the `bincode` codec's); with varint
    /// integers wincode writes bincode's standard bytes too, the configuration
    /// not taken here for speed.
    #[test]
    fn bytes_are_bincode_legacy_and_varint_ones_bincode_standard() {
        let dataset = sample_dataset();
        let mut legacy = Vec::new();
        let mut standard = Vec::new();
        let mut varint = Vec::new();
        let wincode_varint = DefaultConfig::default().with_varint_encoding();
        for record in &dataset.records {
            legacy.extend(bincode::encode_to_vec(record, config::legacy()).unwrap());
            standard.extend(bincode::encode_to_vec(record, config::standard()).unwrap());
            varint.extend(wincode::config::serialize(record, wincode_varint).unwrap());
        }
        let stream = sample_stream::<Wincode>();
        assert_eq!(stream, legacy);
        assert_ne!(stream, standard);
        assert_eq!(varint, standard);
        // seq_no 1 as a fixed 8-byte integer, then the message count as a u64.
        assert_eq!(&stream[..16], &[1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);

        let user = &crate::workload::user::sample().records[0];
        let mut encoded = Vec::new();
        Codec::<Fields<UserResponse>>::encode(&mut Wincode, user, &mut encoded).unwrap();
        assert_eq!(encoded, bincode::encode_to_vec(user, config::legacy()).unwrap());
    }

    #[test]
    fn a_length_past_the_preallocation_limit_is_an_error() {
        // seq_no, then a message count of 2^40.
        let mut stream = vec![0; 8];
        stream.extend_from_slice(&(1u64 << 40).to_le_bytes());
        assert!(decode_one::<Wincode>(&stream).is_err());
    }
}
