//! FlatBuffers (the official `flatbuffers` crate) with flatc-generated code.
//!
//! Each record is one size-prefixed FlatBuffer (`finish_size_prefixed`), the
//! format's documented framing for a stream of buffers. Decoding verifies the
//! buffer with `size_prefixed_root` (the safe default) and then reads it in place.

use ::flatbuffers::{FlatBufferBuilder, WIPOffset};
use anyhow::{Context, Result, bail};

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
    /// The code the pinned compiler generates from schemas/iex/iex.fbs and
    /// schemas/records/records.fbs (scripts/regenerate.sh); never edited by hand.
    mod generated {
        pub mod iex_generated;
        pub mod records_generated;
    }
}

use generated::{iex_generated, records_generated};

use iex_generated::shootout::iex as fb;

/// Starting capacity of the builder's buffer; it doubles when a packet needs more.
const INITIAL_CAPACITY: usize = 1024;

pub struct Flatbuffers {
    builder: FlatBufferBuilder<'static>,
    /// Offsets of the current record's messages, kept between records for reuse.
    messages: Vec<WIPOffset<fb::Message<'static>>>,
    /// Offsets of a string vector's strings (record-shaped workloads), reused.
    strings: Vec<WIPOffset<&'static str>>,
    /// Symbols through `create_shared_string` (`flatbuffers-shared`): a
    /// packet's repeated symbols are written once.
    share_symbols: bool,
}

impl Format for Flatbuffers {
    const INFO: FormatInfo = FormatInfo {
        name: "flatbuffers",
        family: Family::Format(&features::FLATBUFFERS),
        library: "flatbuffers",
        labels: Labels::ZERO_COPY_NATIVE,
        notes: "One size-prefixed buffer per record (finish_size_prefixed), the documented \
                framing for a stream of FlatBuffers. Reads are verified: size_prefixed_root \
                runs the Verifier over every record before it is read in place. Body is a union \
                of two tables, each holding one struct with all of its scalars. Symbols are \
                plain strings (create_string, no deduplication). Record-shaped workloads: one \
                table per record type (schemas/records/records.fbs), always-present strings and \
                vectors (required); a tabular row's scalar cells are optional scalars (= null) \
                and absent string cells are missing fields; string vectors go through a reused \
                offset Vec. Strings are read in place as bytes.",
        wire: Some("flatbuffers"),
        framing: Framing::U32le,
    };
}

/// A workload mapped to FlatBuffers tables: how to build a record's root table,
/// and how to read it back into the sink.
pub trait FlatbuffersWorkload: Workload {
    type Table<'a>: ::flatbuffers::Follow<'a, Inner = Self::Table<'a>>
        + ::flatbuffers::Verifiable
        + 'a;
    /// Builds `record` in the codec's reset builder; returns its root, which
    /// `encode` finishes as one size-prefixed buffer.
    fn build(record: &Self::Record, codec: &mut Flatbuffers) -> WIPOffset<Self::Table<'static>>;
    fn read(table: Self::Table<'_>, sink: &mut Self::Sink) -> Result<()>;
}

impl<W: FlatbuffersWorkload> Codec<W> for Flatbuffers {
    fn new() -> Self {
        Flatbuffers {
            builder: FlatBufferBuilder::with_capacity(INITIAL_CAPACITY),
            messages: Vec::new(),
            strings: Vec::new(),
            share_symbols: false,
        }
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        self.builder.reset();
        let root = W::build(record, self);
        self.builder.finish_size_prefixed(root, None);
        stream.extend_from_slice(self.builder.finished_data());
        Ok(())
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let buffer = framed(stream)?;
        let table = ::flatbuffers::size_prefixed_root::<W::Table<'_>>(buffer)
            .context("flatbuffers: invalid buffer")?;
        W::read(table, sink)?;
        Ok(buffer.len())
    }
}

impl FlatbuffersWorkload for Iex {
    type Table<'a> = fb::MultiMessage<'a>;

    fn build(
        record: &MultiMessage,
        codec: &mut Flatbuffers,
    ) -> WIPOffset<fb::MultiMessage<'static>> {
        let fbb = &mut codec.builder;
        codec.messages.clear();
        for message in &record.messages {
            let (body_type, body) = match message.body {
                Body::Trade { price, size } => {
                    let data = fb::TradeData::new(price, size);
                    let trade = fb::Trade::create(fbb, &fb::TradeArgs { data: Some(&data) });
                    (fb::Body::Trade, trade.as_union_value())
                }
                Body::LevelUpdate { price, size, flags, side } => {
                    let side = match side {
                        Side::Buy => fb::Side::Buy,
                        Side::Sell => fb::Side::Sell,
                    };
                    let data = fb::LevelUpdateData::new(price, size, flags, side);
                    let update =
                        fb::LevelUpdate::create(fbb, &fb::LevelUpdateArgs { data: Some(&data) });
                    (fb::Body::LevelUpdate, update.as_union_value())
                }
            };
            let symbol = match codec.share_symbols {
                true => fbb.create_shared_string(&message.symbol),
                false => fbb.create_string(&message.symbol),
            };
            let message = fb::Message::create(
                fbb,
                &fb::MessageArgs {
                    ts: message.ts,
                    symbol: Some(symbol),
                    body_type,
                    body: Some(body),
                },
            );
            codec.messages.push(message);
        }
        let messages = fbb.create_vector(&codec.messages);
        fb::MultiMessage::create(
            fbb,
            &fb::MultiMessageArgs { seq_no: record.seq_no, messages: Some(messages) },
        )
    }

    fn read(table: fb::MultiMessage<'_>, sink: &mut Aggregator) -> Result<()> {
        aggregate(table, sink)
    }
}

/// The size-prefixed buffer at the start of `stream`, prefix included.
fn framed(stream: &[u8]) -> Result<&[u8]> {
    let Some(prefix) = stream.first_chunk::<4>() else {
        bail!("flatbuffers: truncated size prefix ({} bytes left)", stream.len());
    };
    let len = 4 + u32::from_le_bytes(*prefix) as usize;
    stream.get(..len).with_context(|| {
        format!("flatbuffers: buffer of {len} bytes but only {} left", stream.len())
    })
}

fn aggregate(record: fb::MultiMessage<'_>, sink: &mut Aggregator) -> Result<()> {
    let messages = record.messages().context("flatbuffers: missing messages")?;
    sink.packet(record.seq_no(), messages.len());
    for message in messages {
        let ts = message.ts();
        let symbol = message.symbol().context("flatbuffers: missing symbol")?.as_bytes();
        match message.body_type() {
            fb::Body::Trade => {
                let trade = message
                    .body_as_trade()
                    .context("flatbuffers: missing trade")?
                    .data()
                    .context("flatbuffers: missing body data")?;
                sink.trade(ts, symbol, trade.price(), trade.size());
            }
            fb::Body::LevelUpdate => {
                let update = message
                    .body_as_level_update()
                    .context("flatbuffers: missing level update")?
                    .data()
                    .context("flatbuffers: missing body data")?;
                let side = match update.side() {
                    fb::Side::Buy => Side::Buy,
                    fb::Side::Sell => Side::Sell,
                    other => bail!("flatbuffers: unknown side {}", other.0),
                };
                sink.level_update(ts, symbol, side, update.flags(), update.price(), update.size());
            }
            other => bail!("flatbuffers: unknown body type {}", other.0),
        }
    }
    Ok(())
}

/// The same buffers read without the Verifier: what the 2019 harness measured
/// (the crate had no verifier then), and what a user does only with trusted bytes.
pub struct FlatbuffersUnchecked(Flatbuffers);

impl Format for FlatbuffersUnchecked {
    const INFO: FormatInfo = FormatInfo {
        name: "flatbuffers-unchecked",
        family: Family::Format(&features::FLATBUFFERS),
        library: "flatbuffers",
        labels: Labels::ZERO_COPY_UNCHECKED,
        notes: "Encoding identical to `flatbuffers`. Decoding skips the Verifier \
                (unsafe size_prefixed_root_unchecked): sound only for bytes known to be \
                well-formed, such as a stream this process just encoded. Not what a default \
                user should do with untrusted input; shown for comparison with verifier-less \
                FlatBuffers benchmarks. Same for the record-shaped workloads.",
        wire: Some("flatbuffers"),
        framing: Framing::U32le,
    };
}

impl<W: FlatbuffersWorkload> Codec<W> for FlatbuffersUnchecked {
    fn new() -> Self {
        FlatbuffersUnchecked(<Flatbuffers as Codec<W>>::new())
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        Codec::<W>::encode(&mut self.0, record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let buffer = framed(stream)?;
        // SAFETY: the harness decodes only the stream `encode` wrote in this
        // process, so every buffer is a complete, well-formed root table of W.
        let table = unsafe { ::flatbuffers::size_prefixed_root_unchecked::<W::Table<'_>>(buffer) };
        W::read(table, sink)?;
        Ok(buffer.len())
    }
}

/// Symbols deduplicated within each buffer: the documented
/// `create_shared_string`, which changes the bytes (a packet's repeated
/// symbol is one string, its messages point at it), so it is a variant of its
/// own. Any FlatBuffers reader reads it: the same schema and wire.
pub struct FlatbuffersShared(Flatbuffers);

impl Format for FlatbuffersShared {
    const INFO: FormatInfo = FormatInfo {
        name: "flatbuffers-shared",
        family: Family::Format(&features::FLATBUFFERS),
        library: "flatbuffers",
        labels: Labels::ZERO_COPY_NATIVE,
        notes: "As `flatbuffers` (verified reads), but each symbol goes through \
                create_shared_string, so a symbol repeated within a packet is stored once and \
                its messages share the offset; the builder's string pool is cleared by reset \
                with the buffer. iex only: the record-shaped workloads repeat no string \
                within a record, so there it would be `flatbuffers` itself.",
        wire: Some("flatbuffers"),
        framing: Framing::U32le,
    };
}

impl Codec<Iex> for FlatbuffersShared {
    fn new() -> Self {
        FlatbuffersShared(Flatbuffers { share_symbols: true, ..<Flatbuffers as Codec<Iex>>::new() })
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        Codec::<Iex>::encode(&mut self.0, record, stream)
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        Codec::<Iex>::decode(&mut self.0, stream, sink)
    }
}

// --- record-shaped workloads ----------------------------------------------------

use records_generated::shootout::records as rt;

/// A record type with a table in schemas/records/records.fbs: how to build it,
/// and how to read that table back into the sink.
pub trait FlatbuffersRecord: FieldRecord {
    type Table<'a>: ::flatbuffers::Follow<'a, Inner = Self::Table<'a>>
        + ::flatbuffers::Verifiable
        + 'a;
    /// Builds the record in the reset `fbb` and returns its root table;
    /// `strings` is scratch for the offsets of a string vector.
    fn build(
        &self,
        fbb: &mut FlatBufferBuilder<'static>,
        strings: &mut Vec<WIPOffset<&'static str>>,
    ) -> WIPOffset<Self::Table<'static>>;
    fn read(table: Self::Table<'_>, sink: &mut FieldSink);
}

impl<R: FlatbuffersRecord> FlatbuffersWorkload for Fields<R> {
    type Table<'a> = R::Table<'a>;

    fn build(record: &R, codec: &mut Flatbuffers) -> WIPOffset<R::Table<'static>> {
        record.build(&mut codec.builder, &mut codec.strings)
    }

    fn read(table: R::Table<'_>, sink: &mut FieldSink) -> Result<()> {
        R::read(table, sink);
        Ok(())
    }
}

/// A vector of `values` as strings, through the reused offset scratch.
fn string_vector(
    fbb: &mut FlatBufferBuilder<'static>,
    strings: &mut Vec<WIPOffset<&'static str>>,
    values: &[String],
) -> WIPOffset<::flatbuffers::Vector<'static, ::flatbuffers::ForwardsUOffset<&'static str>>> {
    strings.clear();
    for value in values {
        strings.push(fbb.create_string(value));
    }
    fbb.create_vector(strings)
}

impl FlatbuffersRecord for UserResponse {
    type Table<'a> = rt::UserResponse<'a>;

    fn build(
        &self,
        fbb: &mut FlatBufferBuilder<'static>,
        _: &mut Vec<WIPOffset<&'static str>>,
    ) -> WIPOffset<rt::UserResponse<'static>> {
        let args = rt::UserResponseArgs {
            uid: self.uid,
            muid: Some(fbb.create_string(&self.muid)),
            status: Some(fbb.create_string(&self.status)),
            tutorial: self.tutorial,
            nickname: Some(fbb.create_string(&self.nickname)),
            total_login_num: self.total_login_num,
            opened_at: Some(fbb.create_string(&self.opened_at)),
            created_at: Some(fbb.create_string(&self.created_at)),
            updated_at: Some(fbb.create_string(&self.updated_at)),
        };
        rt::UserResponse::create(fbb, &args)
    }

    fn read(t: rt::UserResponse<'_>, sink: &mut FieldSink) {
        sink.record();
        sink.int(0, t.uid());
        sink.text(1, t.muid().as_bytes());
        sink.text(2, t.status().as_bytes());
        sink.int(3, t.tutorial());
        sink.text(4, t.nickname().as_bytes());
        sink.int(5, t.total_login_num());
        sink.text(6, t.opened_at().as_bytes());
        sink.text(7, t.created_at().as_bytes());
        sink.text(8, t.updated_at().as_bytes());
    }
}

impl FlatbuffersRecord for SqlRequest {
    type Table<'a> = rt::SqlRequest<'a>;

    fn build(
        &self,
        fbb: &mut FlatBufferBuilder<'static>,
        _: &mut Vec<WIPOffset<&'static str>>,
    ) -> WIPOffset<rt::SqlRequest<'static>> {
        let args = rt::SqlRequestArgs {
            query: Some(fbb.create_string(&self.query)),
            args: Some(fbb.create_vector(&self.args)),
        };
        rt::SqlRequest::create(fbb, &args)
    }

    fn read(t: rt::SqlRequest<'_>, sink: &mut FieldSink) {
        sink.record();
        sink.text(0, t.query().as_bytes());
        t.args().iter().for_each(|v| sink.int(1, v));
    }
}

impl FlatbuffersRecord for Primitives {
    type Table<'a> = rt::Primitives<'a>;

    fn build(
        &self,
        fbb: &mut FlatBufferBuilder<'static>,
        strings: &mut Vec<WIPOffset<&'static str>>,
    ) -> WIPOffset<rt::Primitives<'static>> {
        let args = rt::PrimitivesArgs {
            ints: Some(fbb.create_vector(&self.ints)),
            longs: Some(fbb.create_vector(&self.longs)),
            doubles: Some(fbb.create_vector(&self.doubles)),
            booleans: Some(fbb.create_vector(&self.booleans)),
            strings: Some(string_vector(fbb, strings, &self.strings)),
        };
        rt::Primitives::create(fbb, &args)
    }

    fn read(t: rt::Primitives<'_>, sink: &mut FieldSink) {
        sink.record();
        t.ints().iter().for_each(|v| sink.int(0, i64::from(v)));
        t.longs().iter().for_each(|v| sink.int(1, v));
        t.doubles().iter().for_each(|v| sink.float(2, v));
        t.booleans().iter().for_each(|v| sink.bool(3, v));
        t.strings().iter().for_each(|v| sink.text(4, v.as_bytes()));
    }
}

impl FlatbuffersRecord for SmallObject {
    type Table<'a> = rt::SmallObject<'a>;

    fn build(
        &self,
        fbb: &mut FlatBufferBuilder<'static>,
        strings: &mut Vec<WIPOffset<&'static str>>,
    ) -> WIPOffset<rt::SmallObject<'static>> {
        let args = rt::SmallObjectArgs {
            id: self.id,
            name: Some(fbb.create_string(&self.name)),
            email: Some(fbb.create_string(&self.email)),
            age: self.age,
            score: Some(self.score),
            ratio: Some(self.ratio),
            active: self.active,
            level: self.level,
            created_at: self.created_at,
            tags: Some(string_vector(fbb, strings, &self.tags)),
        };
        rt::SmallObject::create(fbb, &args)
    }

    fn read(t: rt::SmallObject<'_>, sink: &mut FieldSink) {
        sink.record();
        sink.int(0, t.id());
        sink.text(1, t.name().as_bytes());
        sink.text(2, t.email().as_bytes());
        sink.int(3, i64::from(t.age()));
        sink.float(4, t.score().unwrap_or_default());
        sink.float(5, f64::from(t.ratio().unwrap_or_default()));
        sink.bool(6, t.active());
        sink.int(7, i64::from(t.level()));
        sink.int(8, t.created_at());
        t.tags().iter().for_each(|v| sink.text(9, v.as_bytes()));
    }
}

/// One optional cell's argument: a string (`String` column) written only when
/// present, or an optional scalar (`= null` in the schema, so written only when
/// `Some`).
macro_rules! flatbuffers_cell {
    (String, $fbb:ident, $value:expr) => {
        $value.as_deref().map(|text| $fbb.create_string(text))
    };
    ($number:ident, $fbb:ident, $value:expr) => {
        $value
    };
}

/// `FlatbuffersRecord` for a tabular row, from its columns (`tabular_columns!`).
macro_rules! flatbuffers_row {
    ($record:ident, $args:ident { $($field:ident = $n:tt: $t:ident),+ $(,)? }) => {
        impl FlatbuffersRecord for $record {
            type Table<'a> = rt::$record<'a>;

            fn build(
                &self,
                fbb: &mut FlatBufferBuilder<'static>,
                _: &mut Vec<WIPOffset<&'static str>>,
            ) -> WIPOffset<rt::$record<'static>> {
                let args = rt::$args { $($field: flatbuffers_cell!($t, fbb, self.$field)),+ };
                rt::$record::create(fbb, &args)
            }

            fn read(t: rt::$record<'_>, sink: &mut FieldSink) {
                sink.record();
                $(TableCell::visit(t.$field(), $n, sink);)+
            }
        }
    };
}

tabular_columns!(MixedRow => flatbuffers_row!(MixedRow, MixedRowArgs));
tabular_columns!(StringsRow => flatbuffers_row!(StringsRow, StringsRowArgs));
tabular_columns!(LongsRow => flatbuffers_row!(LongsRow, LongsRowArgs));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{
        assert_mixed_row_garbage_is_an_error, assert_u32le_buffer_garbage_is_an_error, decode_all,
        encoded_sparse_row, sample_stream,
    };
    use crate::workload::Workload;
    use crate::workload::iex::sample_dataset;

    #[test]
    fn record_garbage_is_an_error() {
        assert_mixed_row_garbage_is_an_error::<Flatbuffers>();
        // A table of another type: its required fields are missing.
        let mut other = Vec::new();
        let mut sql = <Flatbuffers as Codec<crate::workload::sql::Sql>>::new();
        let request = crate::workload::sql::sample().records[0].clone();
        Codec::<crate::workload::sql::Sql>::encode(&mut sql, &request, &mut other).unwrap();
        let mut sink =
            crate::workload::user::User::new_sink(&crate::workload::user::sample().reference);
        assert!(
            Codec::<crate::workload::user::User>::decode(
                &mut <Flatbuffers as Codec<crate::workload::user::User>>::new(),
                &other,
                &mut sink
            )
            .is_err()
        );
    }

    #[test]
    fn negative_zero_floats_stay_negative() {
        let mut object = crate::workload::object::sample().records[0].clone();
        (object.score, object.ratio) = (-0.0, -0.0);
        let mut stream = Vec::new();
        let mut codec = <Flatbuffers as Codec<crate::workload::object::Object>>::new();
        Codec::<crate::workload::object::Object>::encode(&mut codec, &object, &mut stream).unwrap();
        let table = ::flatbuffers::size_prefixed_root::<rt::SmallObject>(&stream).unwrap();
        assert_eq!(table.score().map(f64::to_bits), Some((-0.0f64).to_bits()));
        assert_eq!(table.ratio().map(f32::to_bits), Some((-0.0f32).to_bits()));
    }

    #[test]
    fn absent_cells_are_missing_fields() {
        let stream = encoded_sparse_row::<Flatbuffers>();
        let table = ::flatbuffers::size_prefixed_root::<rt::MixedRow>(&stream).unwrap();
        assert_eq!(
            (table.f1(), table.f3(), table.f2(), table.f5()),
            (Some(""), Some(0), None, None)
        );
    }

    #[test]
    fn round_trip() {
        assert_round_trip::<Iex, Flatbuffers>(&sample_dataset());
        assert_round_trip::<Iex, FlatbuffersUnchecked>(&sample_dataset());
        assert_round_trip::<Iex, FlatbuffersShared>(&sample_dataset());
    }

    #[test]
    fn shared_symbols_are_written_once_per_buffer() {
        let message = |ts| crate::workload::iex::Message {
            ts,
            symbol: "ZIEXT".into(),
            body: Body::Trade { price: 1, size: 1 },
        };
        let packet = MultiMessage { seq_no: 1, messages: vec![message(1), message(2), message(3)] };
        let (mut plain, mut shared) = (Vec::new(), Vec::new());
        Codec::<Iex>::encode(&mut <Flatbuffers as Codec<Iex>>::new(), &packet, &mut plain).unwrap();
        let mut codec = <FlatbuffersShared as Codec<Iex>>::new();
        // Twice: the pool is cleared with the builder, so the second buffer
        // holds its own copy of the symbol rather than an offset into the first.
        Codec::<Iex>::encode(&mut codec, &packet, &mut shared).unwrap();
        shared.clear();
        Codec::<Iex>::encode(&mut codec, &packet, &mut shared).unwrap();
        let count = |bytes: &[u8]| bytes.windows(5).filter(|w| w == b"ZIEXT").count();
        assert_eq!((count(&plain), count(&shared)), (3, 1));
        let table = ::flatbuffers::size_prefixed_root::<fb::MultiMessage>(&shared).unwrap();
        let symbols: Vec<&str> =
            table.messages().unwrap().iter().map(|m| m.symbol().unwrap()).collect();
        assert_eq!(symbols, ["ZIEXT"; 3]);
    }

    #[test]
    fn records_are_size_prefixed_buffers() {
        let stream = sample_stream::<Flatbuffers>();
        let len = u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize;
        let first =
            ::flatbuffers::size_prefixed_root::<fb::MultiMessage>(&stream[..4 + len]).unwrap();
        assert_eq!(first.seq_no(), 1);
        assert_eq!(first.messages().unwrap().len(), 2);
        assert_eq!(first.messages().unwrap().get(0).symbol().unwrap(), "MSFT");
        assert_eq!(
            decode_all(&mut <Flatbuffers as Codec<Iex>>::new(), &stream).unwrap(),
            sample_dataset().records.len()
        );
    }

    #[test]
    fn garbage_is_an_error() {
        assert_u32le_buffer_garbage_is_an_error::<Flatbuffers>();
    }

    #[test]
    fn missing_messages_is_an_error() {
        let mut fbb = FlatBufferBuilder::new();
        let root =
            fb::MultiMessage::create(&mut fbb, &fb::MultiMessageArgs { seq_no: 1, messages: None });
        fbb.finish_size_prefixed(root, None);
        let mut codec = <Flatbuffers as Codec<Iex>>::new();
        let mut sink = Iex::new_sink(&sample_dataset().reference);
        assert!(Codec::<Iex>::decode(&mut codec, fbb.finished_data(), &mut sink).is_err());
    }

    #[test]
    fn unknown_side_is_an_error() {
        let mut fbb = FlatBufferBuilder::new();
        let data = fb::LevelUpdateData::new(1, 1, 0, fb::Side(7));
        let update = fb::LevelUpdate::create(&mut fbb, &fb::LevelUpdateArgs { data: Some(&data) });
        let symbol = fbb.create_string("X");
        let message = fb::Message::create(
            &mut fbb,
            &fb::MessageArgs {
                ts: 0,
                symbol: Some(symbol),
                body_type: fb::Body::LevelUpdate,
                body: Some(update.as_union_value()),
            },
        );
        let messages = fbb.create_vector(&[message]);
        let root = fb::MultiMessage::create(
            &mut fbb,
            &fb::MultiMessageArgs { seq_no: 0, messages: Some(messages) },
        );
        fbb.finish_size_prefixed(root, None);
        let mut codec = <Flatbuffers as Codec<Iex>>::new();
        let mut sink = Iex::new_sink(&sample_dataset().reference);
        let err = Codec::<Iex>::decode(&mut codec, fbb.finished_data(), &mut sink).unwrap_err();
        assert!(err.to_string().contains("unknown side"), "{err}");
    }
}
