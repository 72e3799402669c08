//! Protocol Buffers with `buffa`, Anthropic's pure-Rust protobuf runtime
//! (editions-first), on the messages buffa-codegen generates from the same
//! schemas as `protobuf-prost` (schemas/iex/iex.proto,
//! schemas/records/records.proto): the same `protobuf` wire, one
//! varint-length-delimited message per record.
//!
//! Generation (scripts/regenerate/buffa.sh) keeps buffa-codegen's defaults
//! (views generated, unknown fields preserved) but two: one file per package,
//! and `unboxed_oneof_fields` for every oneof, so that the iex `body`'s
//! message variants sit inline in the enum (buffa boxes them by default, for
//! recursive types; none is recursive here), as prost's do.
//!
//! - Encode refills an owned message the codec keeps (Strings and Vecs
//!   reused, as `protobuf-prost` does) and writes it through buffa's two
//!   passes with a `SizeCache` the codec keeps too (`compute_size`, then
//!   `write_to`, behind `encode_varint` of the size checked by
//!   `checked_encode_size`): buffa's `Message::encode*` make a fresh cache
//!   per call, whose spill past 16 sub-messages would allocate.
//! - Decode reads the varint length, then the message as buffa's view
//!   (`MessageView::decode_view`), which its guide recommends for read-only
//!   use: strings are `&str` borrowed from the stream (UTF-8 checked), scalars
//!   decoded by value; each repeated field is a `RepeatedView`, a `Vec`
//!   built per record (one allocation per non-empty repeated field). So the
//!   label is `owned`: the list of messages is materialized, not read in place.

use ::buffa::MessageView as _;
use anyhow::{Context, Result, bail, ensure};

use super::prost::Refill;
use super::protobuf_records::{
    WireLevelUpdate, feed_level_update, fill_message, fill_multi_message, visit_message,
};
use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};
use crate::workload::Workload;
use crate::workload::fields::{FieldRecord, FieldSink, Fields};
use crate::workload::iex::{Aggregator, Body, Iex, MultiMessage, Side};
use crate::workload::object::SmallObject;
use crate::workload::primitives::Primitives;
use crate::workload::sql::SqlRequest;
use crate::workload::tabular::{LongsRow, MixedRow, StringsRow, TableCell, tabular_columns};
use crate::workload::user::UserResponse;

crate::format::generated_code! {
    /// What scripts/regenerate/buffa.sh generates from schemas/iex/iex.proto
    /// and schemas/records/records.proto; never edited by hand.
    mod generated {
        pub mod iex_buffa;
        pub mod records_buffa;
    }
}

use generated::{iex_buffa as pb, records_buffa};

/// The `protobuf-buffa` format. `K` is what the codec keeps between records
/// on one workload: [`BuffaWorkload::Kept`].
pub struct Buffa<K = ()> {
    kept: K,
}

impl<K> Format for Buffa<K> {
    const INFO: FormatInfo = FormatInfo {
        name: "protobuf-buffa",
        family: Family::Format(&features::PROTOBUF),
        library: "buffa",
        labels: Labels::OWNED_NATIVE,
        notes: "buffa 0.9.2 (Anthropic's pure-Rust protobuf, editions-first) on the messages \
                buffa-codegen 0.9.2 generates (driven by protox) from the proto3 schemas \
                protobuf-prost uses: the same protobuf wire, one varint-length-delimited \
                message per record. Codegen defaults (views, unknown fields kept) but one file \
                per package and unboxed_oneof_fields, so the iex oneof's messages sit inline \
                (buffa boxes them by default), as prost's do. Encode refills an owned message \
                kept in the codec (Strings and Vecs reused) and writes it with buffa's two \
                passes (compute_size, then write_to) through a SizeCache the codec keeps, \
                behind encode_varint of the checked size. Decode reads the varint length, then \
                the message as buffa's zero-copy view (MessageView::decode_view, which buffa's \
                guide recommends for reading): strings borrowed from the stream (UTF-8 checked), \
                scalars by value, but every non-empty repeated field a Vec built per record \
                (RepeatedView), so owned; flags and level over 255 and unknown sides are \
                decode errors, as in protobuf-prost.",
        wire: Some("protobuf"),
        framing: Framing::Varint,
    };
}

/// A workload mapped to buffa's generated messages: what the codec keeps
/// between records, and how a record goes through it.
pub trait BuffaWorkload: Workload {
    type Kept: Default;
    fn encode(kept: &mut Self::Kept, record: &Self::Record, stream: &mut Vec<u8>) -> Result<()>;
    fn decode(stream: &[u8], sink: &mut Self::Sink) -> Result<usize>;
}

impl<W: BuffaWorkload> Codec<W> for Buffa<W::Kept> {
    fn new() -> Self {
        Buffa { kept: W::Kept::default() }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        W::encode(&mut self.kept, record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        W::decode(stream, sink)
    }
}

/// Appends `message` behind its varint length, sized and written through
/// `cache`, which keeps its spill allocation from record to record.
fn encode_delimited<M: ::buffa::Message>(
    message: &M,
    cache: &mut ::buffa::SizeCache,
    stream: &mut Vec<u8>,
) -> Result<()> {
    cache.clear();
    let len = ::buffa::checked_encode_size(message.compute_size(cache))
        .context("protobuf-buffa: encode")?;
    ::buffa::encoding::encode_varint(u64::from(len), stream);
    message.write_to(cache, stream);
    Ok(())
}

/// The message at the start of `stream` behind its varint length, and the
/// bytes its length and body take.
fn delimited(stream: &[u8]) -> Result<(&[u8], usize)> {
    let mut rest = stream;
    let len = ::buffa::encoding::decode_varint(&mut rest).context("protobuf-buffa: length")?;
    let prefix = stream.len() - rest.len();
    ensure!(
        len <= rest.len() as u64,
        "protobuf-buffa: message of {len} bytes is truncated to {}",
        rest.len()
    );
    let len = len as usize;
    Ok((&rest[..len], prefix + len))
}

/// The iex messages the codec keeps to encode from.
#[derive(Default)]
pub struct IexKept {
    /// The message refilled for every record.
    encoding: pb::MultiMessage,
    /// Messages (with their String capacity) not needed by the current record.
    spare: Vec<pb::Message>,
    cache: ::buffa::SizeCache,
}

impl IexKept {
    /// Makes `self.encoding` hold `record`, reusing its messages' Strings.
    fn fill(&mut self, record: &MultiMessage) {
        fill_multi_message!(record => self.encoding, &mut self.spare, pb_body);
    }
}

/// A record's body as the generated oneof (its messages inline).
fn pb_body(body: Body) -> pb::__buffa::oneof::message::Body {
    use pb::__buffa::oneof::message::Body as PbBody;
    match body {
        Body::Trade { price, size } => {
            PbBody::Trade(pb::Trade { price, size, ..Default::default() })
        }
        Body::LevelUpdate { price, size, flags, side } => PbBody::LevelUpdate(pb::LevelUpdate {
            price,
            size,
            flags: u32::from(flags),
            side: ::buffa::EnumValue::Known(match side {
                Side::Buy => pb::Side::BUY,
                Side::Sell => pb::Side::SELL,
            }),
            ..Default::default()
        }),
    }
}

impl BuffaWorkload for Iex {
    type Kept = IexKept;

    fn encode(kept: &mut IexKept, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        kept.fill(record);
        encode_delimited(&kept.encoding, &mut kept.cache, stream)
    }

    fn decode(stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        use pb::__buffa::view::oneof::message::Body as ViewBody;
        let (body, used) = delimited(stream)?;
        let record = pb::__buffa::view::MultiMessageView::decode_view(body)
            .context("protobuf-buffa: invalid message")?;
        sink.packet(record.seq_no, record.messages.len());
        for message in record.messages.iter() {
            let (ts, symbol) = (message.ts, message.symbol.as_bytes());
            match &message.body {
                Some(ViewBody::Trade(trade)) => sink.trade(ts, symbol, trade.price, trade.size),
                Some(ViewBody::LevelUpdate(update)) => {
                    let side = match update.side {
                        ::buffa::EnumValue::Known(pb::Side::BUY) => Some(Side::Buy),
                        ::buffa::EnumValue::Known(pb::Side::SELL) => Some(Side::Sell),
                        _ => None,
                    };
                    let wire = WireLevelUpdate {
                        price: update.price,
                        size: update.size,
                        flags: update.flags,
                        side,
                        raw_side: update.side.to_i32(),
                    };
                    feed_level_update(sink, "protobuf-buffa", ts, symbol, wire)?;
                }
                None => bail!("protobuf-buffa: message without a body"),
            }
        }
        Ok(used)
    }
}

// --- record-shaped workloads ------------------------------------------------------

/// A record-shaped workload's record, its generated buffa message
/// (schemas/records/records.proto) and that message's view.
pub trait BuffaRecord: FieldRecord {
    type Pb: ::buffa::Message + Default;
    type View<'a>: ::buffa::MessageView<'a>;
    /// Makes `out` hold `self`, reusing `out`'s Strings and Vecs.
    fn fill(&self, out: &mut Self::Pb);
    /// Feeds a decoded view's values to the sink, as `FieldRecord::visit` does.
    fn visit_view(view: &Self::View<'_>, sink: &mut FieldSink) -> Result<()>;
}

use records_buffa::__buffa::view as records_view;

/// `BuffaRecord` for the always-present record shapes, each with its message
/// and its view.
macro_rules! buffa_records {
    ($($shape:ident => $view:ident),+ $(,)?) => {$(
        impl BuffaRecord for $shape {
            type Pb = records_buffa::$shape;
            type View<'a> = records_view::$view<'a>;
            fn fill(&self, out: &mut Self::Pb) {
                fill_message!($shape: self => out);
            }
            fn visit_view(view: &Self::View<'_>, sink: &mut FieldSink) -> Result<()> {
                visit_message!($shape: view => sink, "protobuf-buffa");
                Ok(())
            }
        }
    )+};
}

buffa_records!(
    UserResponse => UserResponseView,
    SqlRequest => SqlRequestView,
    Primitives => PrimitivesView,
    SmallObject => SmallObjectView,
);

/// `BuffaRecord` for a tabular row, from its columns (`tabular_columns!`):
/// the generated message has the row's own `Option<T>` fields, its view an
/// `Option<&str>` for each string cell.
macro_rules! buffa_tabular {
    ($row:ident, $view:ident { $($f:ident = $n:tt: $t:ty),+ $(,)? }) => {
        impl BuffaRecord for $row {
            type Pb = records_buffa::$row;
            type View<'a> = records_view::$view<'a>;
            fn fill(&self, out: &mut Self::Pb) {
                $(out.$f.refill(&self.$f);)+
            }
            fn visit_view(view: &Self::View<'_>, sink: &mut FieldSink) -> Result<()> {
                sink.record();
                $(TableCell::visit(view.$f, $n, sink);)+
                Ok(())
            }
        }
    };
}

tabular_columns!(MixedRow => buffa_tabular!(MixedRow, MixedRowView));
tabular_columns!(StringsRow => buffa_tabular!(StringsRow, StringsRowView));
tabular_columns!(LongsRow => buffa_tabular!(LongsRow, LongsRowView));

/// The generated message a record-shaped workload's codec refills, and its
/// size cache.
pub struct Scratch<P> {
    encoding: P,
    cache: ::buffa::SizeCache,
}

impl<P: Default> Default for Scratch<P> {
    fn default() -> Self {
        Scratch { encoding: P::default(), cache: ::buffa::SizeCache::default() }
    }
}

/// One length-delimited message per record, as for iex: encode refills a kept
/// message; decode reads the message's view and visits it.
impl<R: BuffaRecord> BuffaWorkload for Fields<R> {
    type Kept = Scratch<R::Pb>;

    fn encode(kept: &mut Self::Kept, record: &R, stream: &mut Vec<u8>) -> Result<()> {
        record.fill(&mut kept.encoding);
        encode_delimited(&kept.encoding, &mut kept.cache, stream)
    }

    fn decode(stream: &[u8], sink: &mut FieldSink) -> Result<usize> {
        let (body, used) = delimited(stream)?;
        let view: R::View<'_> =
            ::buffa::MessageView::decode_view(body).context("protobuf-buffa: invalid message")?;
        R::visit_view(&view, sink)?;
        Ok(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::codec_tests::{decode_one, sample_stream};
    use crate::format::prost::Prost;

    crate::format::codec_tests::iex_codec_tests!(Buffa<_>);

    /// buffa's bytes are prost's, record for record, on iex and on `object`.
    #[test]
    fn streams_are_protobuf_prosts() {
        assert_eq!(sample_stream::<Buffa<_>>(), sample_stream::<Prost<_>>());
        let objects = crate::workload::object::sample().records;
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let mut buffa_codec = <Buffa<_> as Codec<Fields<SmallObject>>>::new();
        let mut prost_codec = <Prost<_> as Codec<Fields<SmallObject>>>::new();
        for record in &objects {
            Codec::<Fields<SmallObject>>::encode(&mut buffa_codec, record, &mut ours).unwrap();
            Codec::<Fields<SmallObject>>::encode(&mut prost_codec, record, &mut theirs).unwrap();
        }
        assert_eq!(ours, theirs);
    }

    /// Shrinking and growing the message list must not leave stale messages behind.
    #[test]
    fn reused_codec_reencodes_identically() {
        let dataset = crate::workload::iex::sample_dataset();
        let mut codec = <Buffa<_> as Codec<Iex>>::new();
        let mut twice = Vec::new();
        for record in dataset.records.iter().rev().chain(&dataset.records) {
            Codec::<Iex>::encode(&mut codec, record, &mut twice).unwrap();
        }
        assert!(twice.ends_with(&sample_stream::<Buffa<_>>()));
    }

    #[test]
    fn out_of_range_values_are_errors() {
        use pb::__buffa::oneof::message::Body as PbBody;
        let mut cache = ::buffa::SizeCache::new();
        let encoded = |record: &pb::MultiMessage, cache: &mut ::buffa::SizeCache| {
            let mut stream = Vec::new();
            encode_delimited(record, cache, &mut stream).unwrap();
            stream
        };
        let update = pb::LevelUpdate {
            price: 1,
            size: 1,
            side: ::buffa::EnumValue::Unknown(7),
            ..Default::default()
        };
        let mut record = pb::MultiMessage {
            messages: vec![pb::Message {
                symbol: "X".into(),
                body: Some(PbBody::LevelUpdate(update.clone())),
                ..Default::default()
            }],
            ..Default::default()
        };
        let err = decode_one::<Buffa<_>>(&encoded(&record, &mut cache)).unwrap_err();
        assert!(err.to_string().contains("unknown side 7"), "{err}");

        let flags = pb::LevelUpdate {
            flags: 256,
            side: ::buffa::EnumValue::Known(pb::Side::BUY),
            ..update
        };
        record.messages[0].body = Some(PbBody::LevelUpdate(flags));
        let err = decode_one::<Buffa<_>>(&encoded(&record, &mut cache)).unwrap_err();
        assert!(err.to_string().contains("flags 256"), "{err}");

        record.messages[0].body = None;
        let err = decode_one::<Buffa<_>>(&encoded(&record, &mut cache)).unwrap_err();
        assert!(err.to_string().contains("without a body"), "{err}");

        let object = records_buffa::SmallObject { level: 256, ..Default::default() };
        let mut stream = Vec::new();
        encode_delimited(&object, &mut cache, &mut stream).unwrap();
        let mut codec = <Buffa<_> as Codec<Fields<SmallObject>>>::new();
        let mut sink = FieldSink::new(SmallObject::FIELDS.len());
        let err = Codec::<Fields<SmallObject>>::decode(&mut codec, &stream, &mut sink).unwrap_err();
        assert!(err.to_string().contains("level 256"), "{err}");
    }

    /// A length past the input, and invalid UTF-8 in a symbol, are errors.
    #[test]
    fn truncation_and_bad_utf8_are_errors() {
        let stream = sample_stream::<Buffa<_>>();
        let len = stream[0] as usize + 1; // the first record is under 128 bytes
        for cut in 0..len {
            assert!(decode_one::<Buffa<_>>(&stream[..cut]).is_err(), "cut at {cut}");
        }
        let mut bad = stream.clone();
        let at = bad.windows(4).position(|w| w == b"MSFT").unwrap();
        bad[at] = 0xff;
        assert!(decode_one::<Buffa<_>>(&bad).is_err());
    }
}
