//! Apache Fory (`fory`) in its cross-language (xlang) mode, with the settings
//! of the JVM's `fory` codec (runners/jvm `ForyCodec.java`), so that each
//! reads the other's bytes: schema-consistent (`compatible(false)`, Fory's
//! fast path for peers with the same types), reference tracking off, every
//! type registered by name as `shootout.<the Java class's simple name>`.
//!
//! The record types derive `ForyStruct` (`field_record!`), whose field names
//! and types are those of the Java classes: Fory orders the fields and hashes
//! them into the struct version both sides check, so a difference is an error,
//! not a misread. iex has no Rust enum on this wire: the Java record is one flat
//! message class (no sum types there) with a `kind` byte, so the codec maps the
//! Rust record onto [`FlatMultiMessage`], kept in the codec and refilled per
//! record (symbols reused) before it is serialized.
//!
//! Each record is a 4-byte LE length, then Fory's bytes (the JVM's framing);
//! `serialize_to` appends them to the stream in place. Decode reads one root
//! object from a `Reader` over the framed body and requires it to end there.
//!
//! The mode is pinned in [`Codec::new`], not left to Fory's defaults: since
//! 1.0 its builder defaults to xlang and compatible mode, and compatible mode
//! writes each type's field meta (other bytes, other speed). The crate is
//! fory 1.7.7 while the JVM runner's fory-core is 1.6.0 (Maven Central here
//! serves no 1.7.x); `interop` checks that the two read each other's records.
//!
//! Facts the tests pin: fory writes every string as UTF-8 (Java writes Latin-1
//! where it fits, so the bytes differ while each reads the other's), and every
//! frame cut short is an error (1.6.0 read a string header cut off at the very
//! end as an empty string; 1.7 checks that bound). Its deserialize allocates
//! about 10 times per root object besides the values (conformance.rs lists the
//! exception).

use anyhow::{Context, Result, bail, ensure};
use fory::{ForyStruct, Reader, Serializer, StructSerializer};

use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::Workload;
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, Side};
use crate::workload::object::SmallObject;
use crate::workload::primitives::Primitives;
use crate::workload::sql::SqlRequest;
use crate::workload::tabular::{LongsRow, MixedRow, StringsRow};
use crate::workload::user::UserResponse;

/// The namespace of every registered type, as the JVM's codec registers them.
const NAMESPACE: &str = "shootout";

/// The `fory` format. `K` is what the codec keeps between records on one
/// workload: [`ForyWorkload::Kept`].
pub struct Fory<K = ()> {
    fory: ::fory::Fory,
    kept: K,
}

/// A workload on Fory's xlang wire: the types it registers, what the codec
/// keeps between records, and how a record goes through them.
pub trait ForyWorkload: Workload {
    type Kept: Default;
    fn register(fory: &mut ::fory::Fory) -> Result<(), ::fory::Error>;
    /// Appends the record's Fory bytes to `stream`.
    fn write(
        fory: &::fory::Fory,
        kept: &mut Self::Kept,
        record: &Self::Record,
        stream: &mut Vec<u8>,
    ) -> Result<()>;
    /// Reads one root object from `reader` into `sink`.
    fn read(fory: &::fory::Fory, reader: &mut Reader<'_>, sink: &mut Self::Sink) -> Result<()>;
}

impl<W: ForyWorkload> Codec<W> for Fory<W::Kept> {
    fn new() -> Self {
        let mut fory =
            ::fory::Fory::builder().xlang(true).compatible(false).track_ref(false).build();
        // Registration fails only on a conflict among this module's own types.
        W::register(&mut fory).expect("fory: registering the workload's types");
        Fory { fory, kept: W::Kept::default() }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        stream.extend_from_slice(&[0; 4]);
        W::write(&self.fory, &mut self.kept, record, stream)
            .and_then(|()| {
                let length =
                    u32::try_from(stream.len() - start - 4).context("fory: record over 4 GiB")?;
                stream[start..start + 4].copy_from_slice(&length.to_le_bytes());
                Ok(())
            })
            .inspect_err(|_| stream.truncate(start))
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let prefix: [u8; 4] = stream.get(..4).context("fory: no length")?.try_into()?;
        let end = 4 + u32::from_le_bytes(prefix) as usize;
        ensure!(end <= stream.len(), "fory: record cut short");
        let body = &stream[4..end];
        let mut reader = Reader::new(body);
        W::read(&self.fory, &mut reader, sink)?;
        ensure!(
            reader.get_cursor() == body.len(),
            "fory: {} bytes after the record",
            body.len() - reader.get_cursor()
        );
        Ok(end)
    }
}

impl<K> Format for Fory<K> {
    const INFO: FormatInfo = FormatInfo {
        name: "fory",
        family: Family::Format(&features::FORY),
        library: "fory",
        labels: Labels::OWNED_NATIVE,
        notes: "xlang (cross-language) mode, schema-consistent (both pinned, not Fory's \
                defaults (xlang and compatible mode)), as the JVM fory row: compatible(false), \
                the struct version hash checked; no reference tracking; fory 1.7.7 against the \
                JVM's fory-core 1.6.0 (Maven Central here serves no 1.7.x); serializers \
                from #[derive(ForyStruct)], types registered by name: shootout. and the Java \
                class's simple name (shootout.User, shootout.SqlRequest, shootout.Primitives, \
                shootout.SmallObject, shootout.MultiMessage, shootout.Message; the tabular \
                rows shootout.MixedRow, shootout.StringsRow, shootout.LongsRow, which the JVM \
                does not map). Field names and types are the Java classes' (u8/u32/u64 as \
                Fory's unsigned types, the JVM's @UInt*Type). iex as the JVM's flat message \
                (ts, symbol, kind, price, size, flags, side: kind 0 trade, 1 level update; a \
                trade's flags and side 0): encode refills a flat record kept in the codec \
                (symbol Strings reused) and serializes it; decode builds the flat record (one \
                String per message) and aggregates it. Record-shaped workloads: the record \
                itself, decoded owned. One reused Fory instance per codec; serialize_to appends \
                to the stream behind a 4-byte LE length; decode reads one root object from a \
                Reader over the framed body, which it must end. Strings are written as UTF-8 \
                (Java writes Latin-1 where it fits: bytes differ). A frame cut short is an \
                error; deserialize allocates about 10 times per root besides the values.",
        wire: Some("fory"),
        framing: Framing::U32le,
    };
}

/// The JVM's iex record (`MultiMessage.java`): the messages flat.
#[derive(ForyStruct, Default)]
pub struct FlatMultiMessage {
    seq_no: u64,
    messages: Vec<FlatMessage>,
}

/// Both bodies' fields in one message, as Java's `MultiMessage.Message`
/// holds them (the unused ones zero).
#[derive(ForyStruct, Default)]
struct FlatMessage {
    ts: i64,
    symbol: String,
    kind: u8,
    price: u64,
    size: u32,
    flags: u8,
    side: u8,
}

/// `MultiMessage.Message`'s `kind` and `side` values.
const TRADE: u8 = 0;
const LEVEL: u8 = 1;
const BUY: u8 = 0;
const SELL: u8 = 1;

/// What the codec keeps on iex: the flat record it refills and serializes,
/// and the messages (with their symbols' capacity) the current record does
/// not need, so that no String is allocated once a record as long was seen.
#[derive(Default)]
pub struct IexKept {
    flat: FlatMultiMessage,
    spare: Vec<FlatMessage>,
}

impl IexKept {
    /// Makes `self.flat` hold `record`.
    fn fill(&mut self, record: &MultiMessage) -> &FlatMultiMessage {
        let flat = &mut self.flat;
        flat.seq_no = record.seq_no;
        super::resize_from_spare(
            &mut flat.messages,
            &mut self.spare,
            record.messages.len(),
            FlatMessage::default,
        );
        for (out, message) in flat.messages.iter_mut().zip(&record.messages) {
            out.ts = message.ts;
            out.symbol.clone_from(&message.symbol);
            (out.kind, out.price, out.size, out.flags, out.side) = match message.body {
                Body::Trade { price, size } => (TRADE, price, size, 0, 0),
                Body::LevelUpdate { price, size, flags, side } => {
                    let side = match side {
                        Side::Buy => BUY,
                        Side::Sell => SELL,
                    };
                    (LEVEL, price, size, flags, side)
                }
            };
        }
        flat
    }
}

impl FlatMultiMessage {
    fn aggregate_into(&self, sink: &mut Aggregator) -> Result<()> {
        sink.packet(self.seq_no, self.messages.len());
        for m in &self.messages {
            let symbol = m.symbol.as_bytes();
            match (m.kind, m.side) {
                (TRADE, _) => sink.trade(m.ts, symbol, m.price, m.size),
                (LEVEL, BUY) => {
                    sink.level_update(m.ts, symbol, Side::Buy, m.flags, m.price, m.size)
                }
                (LEVEL, SELL) => {
                    sink.level_update(m.ts, symbol, Side::Sell, m.flags, m.price, m.size)
                }
                (LEVEL, side) => bail!("fory: side {side} is neither buy (0) nor sell (1)"),
                (kind, _) => bail!("fory: kind {kind} is neither trade (0) nor level update (1)"),
            }
        }
        Ok(())
    }
}

/// Registration and the flat mapping: Java registers `Message` on its own.
impl ForyWorkload for Iex {
    type Kept = IexKept;

    fn register(fory: &mut ::fory::Fory) -> Result<(), ::fory::Error> {
        fory.register_by_name::<FlatMultiMessage>(&format!("{NAMESPACE}.MultiMessage"))?;
        fory.register_by_name::<FlatMessage>(&format!("{NAMESPACE}.Message"))
    }

    fn write(
        fory: &::fory::Fory,
        kept: &mut IexKept,
        record: &MultiMessage,
        stream: &mut Vec<u8>,
    ) -> Result<()> {
        fory.serialize_to(stream, kept.fill(record)).context("fory: encode")?;
        Ok(())
    }

    fn read(fory: &::fory::Fory, reader: &mut Reader<'_>, sink: &mut Aggregator) -> Result<()> {
        let record: FlatMultiMessage = fory.deserialize_from(reader).context("fory: decode")?;
        record.aggregate_into(sink)
    }
}

/// A record type on Fory's wire: its derived serializer and the Java class's
/// simple name it is registered under.
pub trait ForyRecord: FieldRecord + Serializer<Target = Self> + StructSerializer {
    const JAVA_NAME: &'static str;
}

/// Implements [`ForyRecord`] for each record type with its Java class's name.
macro_rules! java_names {
    ($($record:ty = $name:literal),+ $(,)?) => {
        $(impl ForyRecord for $record {
            const JAVA_NAME: &'static str = $name;
        })+
    };
}

java_names! {
    UserResponse = "User",
    SqlRequest = "SqlRequest",
    Primitives = "Primitives",
    SmallObject = "SmallObject",
    MixedRow = "MixedRow",
    StringsRow = "StringsRow",
    LongsRow = "LongsRow",
}

/// The record-shaped workloads: the record itself, decoded owned and visited.
impl<R: ForyRecord> ForyWorkload for Fields<R> {
    type Kept = ();

    fn register(fory: &mut ::fory::Fory) -> Result<(), ::fory::Error> {
        fory.register_by_name::<R>(&format!("{NAMESPACE}.{}", R::JAVA_NAME))
    }

    fn write(fory: &::fory::Fory, (): &mut (), record: &R, stream: &mut Vec<u8>) -> Result<()> {
        fory.serialize_to(stream, record).context("fory: encode")?;
        Ok(())
    }

    fn read(fory: &::fory::Fory, reader: &mut Reader<'_>, sink: &mut FieldSink) -> Result<()> {
        let record: R = fory.deserialize_from(reader).context("fory: decode")?;
        record.visit(sink);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::codec_tests::{decode_one, first_u32le_len, sample_stream};

    crate::format::codec_tests::iex_codec_tests!(Fory<IexKept>);

    /// The JVM's framing and xlang header: a 4-byte LE length, then Fory's
    /// bitmap, its cross-language flag (bit 0) alone set.
    #[test]
    fn a_record_is_a_length_then_an_xlang_header() {
        let stream = sample_stream::<Fory<IexKept>>();
        assert!(first_u32le_len(&stream) <= stream.len());
        assert_eq!(stream[4], 1);
    }

    /// A level update whose side is neither 0 nor 1 is an error, not a sell.
    #[test]
    fn an_unknown_side_is_an_error() {
        let mut kept = IexKept::default();
        kept.fill(&crate::workload::iex::sample_dataset().records[0]);
        let mut record = kept.flat;
        let message = record.messages.iter_mut().find(|m| m.kind == LEVEL).unwrap();
        message.side = 2;
        let codec = <Fory<IexKept> as Codec<Iex>>::new();
        let mut stream = vec![0; 4];
        codec.fory.serialize_to(&mut stream, &record).unwrap();
        let length = (stream.len() - 4) as u32;
        stream[..4].copy_from_slice(&length.to_le_bytes());
        let error = decode_one::<Fory<IexKept>>(&stream).unwrap_err();
        assert!(format!("{error:#}").contains("side 2"), "{error:#}");
    }

    /// A byte after the root object inside its frame is an error.
    #[test]
    fn a_record_fills_its_frame() {
        let mut stream = sample_stream::<Fory<IexKept>>();
        let length = first_u32le_len(&stream);
        stream.truncate(length);
        stream.push(0);
        stream[..4].copy_from_slice(&(length as u32 - 3).to_le_bytes());
        let error = decode_one::<Fory<IexKept>>(&stream).unwrap_err();
        assert!(format!("{error:#}").contains("1 bytes after the record"), "{error:#}");
    }

    /// Every cut of a frame is an error, the cut just before its last string
    /// too: fory-core 1.6.0 read a string header at the very end of its input
    /// as 0 (`Reader::read_var_u36_small` stopped there without an error), so
    /// that cut decoded the string as empty; 1.7 checks the bound.
    #[test]
    fn every_cut_frame_is_an_error() {
        let stream = sample_stream::<Fory<IexKept>>();
        let length = first_u32le_len(&stream);
        // The last message's symbol, "MSFT": a 1-byte header (length 4 << 2, encoding
        // 2: UTF-8, as fory 1.7 still writes every string), then its 4 bytes.
        assert_eq!(&stream[length - 5..length], b"\x12MSFT");
        for cut in 0..length {
            let mut bad = stream[..cut].to_vec();
            if cut >= 4 {
                bad[..4].copy_from_slice(&(cut as u32 - 4).to_le_bytes());
            }
            let decoded = decode_one::<Fory<IexKept>>(&bad);
            assert!(decoded.is_err(), "cut at {cut}: {decoded:?}");
        }
    }
}
