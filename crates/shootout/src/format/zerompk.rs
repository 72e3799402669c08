//! MessagePack with `zerompk`, through its own derives (no serde):
//! `ToMessagePack` on the record types, `FromMessagePack` on the record-shaped
//! types and on the iex mirror whose symbols are borrowed `&str`s
//! (`view::BorrowedMultiMessage`).
//!
//! Layout: zerompk's default, structs as arrays of their fields, which is
//! rmp-serde's default too (`msgpack-array`). The iex `Body` is
//! `#[msgpack(map)]`: a map of one entry from the variant's name to its fields
//! (an array), and `Side` a unit variant written as its name: serde's
//! externally tagged enum as rmp-serde writes it. Without the attribute
//! zerompk writes an enum as a two-element array `[name, fields]`.
//!
//! What keeps the bytes from being msgpack-array's: zerompk writes a signed
//! integer of 128 or more with the int family's markers (int 16/32/64, as its
//! README's type table says), where rmp-serde, Go's and Jackson's writers use
//! the uint family (uint 8/16/32/64), and its reader takes only the int family
//! (and fixints) for a signed field: the `ts` and `uid` fields of the other
//! msgpack-array writers are `InvalidMarker(0xcf)` (uint 64) to it. The
//! MessagePack specification has one Integer type for both families; the
//! others read zerompk's bytes (a test below shows both directions). So its
//! wire is its own, `msgpack-zerompk`.
//!
//! Encode: zerompk has no writer that appends to a `Vec` (its `VecWriter` is
//! private, `to_msgpack_vec` returns a new `Vec` per call, `write_msgpack`
//! goes through `io::Write` call by call); its documented entry point into a
//! caller's buffer is `to_msgpack(value, &mut [u8])`, which reports the bytes
//! written or `BufferTooSmall`, the way its own benchmarks reuse a buffer. The
//! codec gives it room reserved at the end of the stream, behind a 4-byte
//! little-endian length, and cuts the stream to what it wrote (the room
//! doubles and the write is retried when a record does not fit), as the
//! `bincode` codec does with `encode_into_slice`. zerompk's reader does not
//! say how far it read (`SliceReader` keeps its position private), hence the
//! prefix; bytes after the value inside its frame are not noticed.

use anyhow::{Context, Result};
use zerompk::{FromMessagePack, ToMessagePack};

use super::rmp_serde::{PREFIX, framed};
use super::{Codec, Family, Format, FormatInfo, Framing, Labels, SliceRoom, features};
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::view::BorrowedMultiMessage;
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

/// The `msgpack-zerompk` format: the room it reserves for a record.
pub struct MsgpackZerompk {
    room: SliceRoom,
}

impl Format for MsgpackZerompk {
    const INFO: FormatInfo = FormatInfo {
        name: "msgpack-zerompk",
        family: Family::Format(&features::MESSAGEPACK),
        library: "zerompk",
        labels: Labels::OWNED_NATIVE,
        notes: "zerompk 0.8.0's own derives (ToMessagePack on the records; FromMessagePack on \
                the record types and on an iex mirror whose symbol is a borrowed &str), no \
                serde. Structs as arrays (zerompk's default, as rmp-serde's msgpack-array); \
                the iex Body #[msgpack(map)], a one-entry map from variant name to its fields, \
                Side by name: serde's externally tagged enum as rmp-serde writes it. A wire of \
                its own: zerompk writes a signed integer of 128 or more with the int family's \
                markers (int 16/32/64) where rmp-serde, Go and Jackson write uint, and reads \
                only the int family into a signed field, so it cannot read their timestamps \
                and ids (they read its bytes). Encode: zerompk has no Vec-appending writer; \
                to_msgpack writes into room reserved at the stream's end behind a u32 \
                little-endian length (128 bytes, doubled and retried on BufferTooSmall), then \
                the stream is cut to the bytes written (zerompk's reader does not report how \
                far it read, hence the frame; bytes after the value inside it go unnoticed). \
                Decode: from_msgpack on the frame; iex \
                into the borrowing mirror (symbols borrowed, the message Vec allocated per \
                non-empty record), fed to the aggregator; record-shaped workloads into the \
                owned record (strings copied), then visited.",
        wire: Some("msgpack-zerompk"),
        framing: Framing::U32le,
    };
}

impl MsgpackZerompk {
    /// Appends `value`'s MessagePack behind its u32 little-endian length:
    /// `to_msgpack` writes into room reserved at the end of the stream.
    fn append<T: ToMessagePack>(&mut self, value: &T, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        stream.extend_from_slice(&[0; PREFIX]);
        let written = self
            .room
            .append(
                stream,
                |room| zerompk::to_msgpack(value, room),
                |error| matches!(error, zerompk::Error::BufferTooSmall),
            )
            .inspect_err(|_| stream.truncate(start))
            .context("msgpack-zerompk: encode")?;
        let length = u32::try_from(written)
            .inspect_err(|_| stream.truncate(start))
            .context("msgpack-zerompk: record longer than the u32 length prefix")?;
        stream[start..start + PREFIX].copy_from_slice(&length.to_le_bytes());
        Ok(())
    }
}

impl Codec<Iex> for MsgpackZerompk {
    fn new() -> Self {
        MsgpackZerompk { room: SliceRoom::default() }
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        self.append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let (body, used) = framed(stream)?;
        let record: BorrowedMultiMessage<'_> =
            zerompk::from_msgpack(body).context("msgpack-zerompk: decode")?;
        record.aggregate_into(sink);
        Ok(used)
    }
}

/// The record-shaped workloads: the record's own derives, decoded owned
/// (strings copied), then visited.
impl<R> Codec<Fields<R>> for MsgpackZerompk
where
    R: FieldRecord + ToMessagePack + for<'de> FromMessagePack<'de>,
{
    fn new() -> Self {
        MsgpackZerompk { room: SliceRoom::default() }
    }

    fn encode(&mut self, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        self.append(record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (body, used) = framed(stream)?;
        let record: R = zerompk::from_msgpack(body).context("msgpack-zerompk: decode")?;
        record.visit(sink);
        Ok(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::codec_tests::{big_record, first_u32le_len};
    use crate::workload::iex::sample_dataset;
    use crate::workload::user::UserResponse;

    crate::format::codec_tests::iex_codec_tests!(MsgpackZerompk);

    /// The frame `msgpack-zerompk` writes for each of `records`, without its prefix.
    fn frames<W, R>(records: &[R]) -> Vec<Vec<u8>>
    where
        MsgpackZerompk: Codec<W>,
        W: crate::workload::Workload<Record = R>,
    {
        let mut codec = <MsgpackZerompk as Codec<W>>::new();
        records
            .iter()
            .map(|record| {
                let mut stream = Vec::new();
                Codec::<W>::encode(&mut codec, record, &mut stream).unwrap();
                assert_eq!(first_u32le_len(&stream), stream.len());
                stream[4..].to_vec()
            })
            .collect()
    }

    /// With every signed integer under 128, each frame is rmp-serde's
    /// `to_vec` (msgpack-array) byte for byte: the same struct arrays, the
    /// same enum layout, the same smallest unsigned forms.
    #[test]
    fn small_signed_integers_give_msgpack_array_bytes() {
        let mut records = sample_dataset().records;
        for record in &mut records {
            for (i, message) in record.messages.iter_mut().enumerate() {
                message.ts = i as i64;
            }
        }
        for (record, frame) in records.iter().zip(frames::<Iex, _>(&records)) {
            assert_eq!(frame, rmp_serde::to_vec(record).unwrap());
        }
    }

    /// A timestamp of 128 or more: zerompk writes int 64 where rmp-serde
    /// writes uint 64. rmp-serde reads zerompk's record; zerompk refuses
    /// rmp-serde's at the uint 64 marker, which is why the wire is its own.
    /// The same on `user`, whose ids are uint 16 in rmp-serde's bytes.
    #[test]
    fn signed_integers_take_the_int_markers_and_uint_ones_are_refused() {
        let records = sample_dataset().records;
        let record = &records[0];
        let ts = record.messages[0].ts;
        assert!(ts > i64::from(u32::MAX), "a timestamp in nanoseconds");
        let ours = &frames::<Iex, _>(&records)[0];
        let theirs = rmp_serde::to_vec(record).unwrap();
        // [seq_no, [[ts, …: the first message's ts follows three headers and seq_no 1.
        let at = 4;
        assert_eq!(ours[at], 0xd3, "int 64");
        assert_eq!(theirs[at], 0xcf, "uint 64");
        assert_eq!(ours[at + 1..at + 9], ts.to_be_bytes());
        assert_eq!(rmp_serde::from_slice::<MultiMessage>(ours).unwrap(), *record);
        let Err(refused) = zerompk::from_msgpack::<BorrowedMultiMessage<'_>>(&theirs) else {
            panic!("zerompk read rmp-serde's uint 64 timestamp")
        };
        assert!(matches!(refused, zerompk::Error::InvalidMarker(0xcf)), "{refused}");

        let mut user = crate::workload::user::sample().records[0].clone();
        user.uid = 1_000;
        let theirs = rmp_serde::to_vec(&user).unwrap();
        let refused = zerompk::from_msgpack::<UserResponse>(&theirs).unwrap_err();
        assert!(matches!(refused, zerompk::Error::InvalidMarker(0xcd)), "{refused}");
        let ours = &frames::<Fields<UserResponse>, _>(std::slice::from_ref(&user))[0];
        assert_eq!(rmp_serde::from_slice::<UserResponse>(ours).unwrap(), user);
    }

    /// A record bigger than the room doubles it until it fits; the grown room
    /// is kept for the records after it, and nothing is left past a record.
    #[test]
    fn the_room_grows_to_fit_and_is_kept() {
        let big = big_record();
        let expected = zerompk::to_msgpack_vec(&big).unwrap();
        assert!(expected.len() > SliceRoom::FIRST);
        let mut codec = <MsgpackZerompk as Codec<Iex>>::new();
        let mut stream = Vec::new();
        Codec::<Iex>::encode(&mut codec, &big, &mut stream).unwrap();
        assert_eq!(stream.len(), PREFIX + expected.len());
        assert_eq!(stream[PREFIX..], expected[..]);
        let grown = codec.room.bytes;
        assert!(grown >= expected.len());
        Codec::<Iex>::encode(&mut codec, &sample_dataset().records[0], &mut stream).unwrap();
        Codec::<Iex>::encode(&mut codec, &big, &mut stream).unwrap();
        assert_eq!(codec.room.bytes, grown);
        assert!(stream.ends_with(&expected));
    }
}
