//! The record-shaped workloads' protobuf messages (schemas/records/records.proto)
//! as both Rust protobuf libraries here generate them: prost's messages, and
//! buffa's messages and views, have the same field names and, but for a
//! view's borrowed strings and `RepeatedView` lists, the same field types. So
//! filling a message from a record, and feeding a decoded one to the sink, are
//! written once, here, for either (`format/prost/`, `format/buffa/`), and so
//! are the iex message's.

use anyhow::{Context, Result, bail};

use crate::workload::iex::{Aggregator, Side};

/// Statements that make generated message `$out` hold record `$record` of
/// record type `$shape` (`UserResponse`, `SqlRequest`, `Primitives`,
/// `SmallObject`), reusing its Strings and Vecs (`prost::Refill` must be in
/// scope).
macro_rules! fill_message {
    (UserResponse: $record:expr => $out:expr) => {
        $out.uid = $record.uid;
        $out.muid.refill(&$record.muid);
        $out.status.refill(&$record.status);
        $out.tutorial = $record.tutorial;
        $out.nickname.refill(&$record.nickname);
        $out.total_login_num = $record.total_login_num;
        $out.opened_at.refill(&$record.opened_at);
        $out.created_at.refill(&$record.created_at);
        $out.updated_at.refill(&$record.updated_at);
    };
    (SqlRequest: $record:expr => $out:expr) => {
        $out.query.refill(&$record.query);
        $out.args.refill(&$record.args);
    };
    (Primitives: $record:expr => $out:expr) => {
        $out.ints.refill(&$record.ints);
        $out.longs.refill(&$record.longs);
        $out.doubles.refill(&$record.doubles);
        $out.booleans.refill(&$record.booleans);
        $out.strings.refill(&$record.strings);
    };
    (SmallObject: $record:expr => $out:expr) => {
        $out.id = $record.id;
        $out.name.refill(&$record.name);
        $out.email.refill(&$record.email);
        $out.age = $record.age;
        $out.score = $record.score;
        $out.ratio = $record.ratio;
        $out.active = $record.active;
        $out.level = u32::from($record.level);
        $out.created_at = $record.created_at;
        $out.tags.refill(&$record.tags);
    };
}
pub(crate) use fill_message;

/// Statements that feed decoded message (or view) `$message` of record type
/// `$shape` to `$sink`, as `FieldRecord::visit` feeds the record; a `level`
/// over 255 returns an error naming `$format` (`anyhow::Context` must be in
/// scope, in a function returning `anyhow::Result`).
macro_rules! visit_message {
    (UserResponse: $message:expr => $sink:expr, $format:literal) => {
        let (message, sink) = ($message, $sink);
        $crate::workload::user::visit_user_fields!(message, sink);
    };
    (SqlRequest: $message:expr => $sink:expr, $format:literal) => {
        let (message, sink) = ($message, $sink);
        sink.record();
        sink.text(0, message.query.as_bytes());
        message.args.iter().for_each(|&v| sink.int(1, v));
    };
    (Primitives: $message:expr => $sink:expr, $format:literal) => {
        let (message, sink) = ($message, $sink);
        sink.record();
        message.ints.iter().for_each(|&v| sink.int(0, i64::from(v)));
        message.longs.iter().for_each(|&v| sink.int(1, v));
        message.doubles.iter().for_each(|&v| sink.float(2, v));
        message.booleans.iter().for_each(|&v| sink.bool(3, v));
        message.strings.iter().for_each(|v| sink.text(4, v.as_bytes()));
    };
    (SmallObject: $message:expr => $sink:expr, $format:literal) => {
        let (message, sink) = ($message, $sink);
        let level = u8::try_from(message.level)
            .with_context(|| format!(concat!($format, ": level {} out of range"), message.level))?;
        sink.record();
        sink.int(0, message.id);
        sink.text(1, message.name.as_bytes());
        sink.text(2, message.email.as_bytes());
        sink.int(3, i64::from(message.age));
        sink.float(4, message.score);
        sink.float(5, f64::from(message.ratio));
        sink.bool(6, message.active);
        sink.int(7, i64::from(level));
        sink.int(8, message.created_at);
        message.tags.iter().for_each(|t| sink.text(9, t.as_bytes()));
    };
}
pub(crate) use visit_message;

/// Statements that make generated iex message `$out` (a `MultiMessage`) hold
/// record `$record`: its messages refilled in place (Strings reused), those
/// past the record's count parked in `$spare` and taken back from there
/// first, each body made by `$body` from the record's (`prost::Refill` must
/// be in scope).
macro_rules! fill_multi_message {
    ($record:expr => $out:expr, $spare:expr, $body:expr) => {
        $out.seq_no = $record.seq_no;
        $crate::format::resize_from_spare(
            &mut $out.messages,
            $spare,
            $record.messages.len(),
            Default::default,
        );
        for (out, message) in $out.messages.iter_mut().zip(&$record.messages) {
            out.ts = message.ts;
            out.symbol.refill(&message.symbol);
            out.body = Some($body(message.body));
        }
    };
}
pub(crate) use fill_multi_message;

/// An iex level update as protobuf carries it: `flags` a uint32, `side` the
/// enum `Side` (`None` for a value the schema does not name, `raw_side`).
pub struct WireLevelUpdate {
    pub price: u64,
    pub size: u32,
    pub flags: u32,
    pub side: Option<Side>,
    pub raw_side: i32,
}

/// Feeds a decoded level update to the sink; flags over 255 and an unknown
/// side are errors naming `format`.
pub fn feed_level_update(
    sink: &mut Aggregator,
    format: &str,
    ts: i64,
    symbol: &[u8],
    update: WireLevelUpdate,
) -> Result<()> {
    let Some(side) = update.side else { bail!("{format}: unknown side {}", update.raw_side) };
    let flags = u8::try_from(update.flags)
        .with_context(|| format!("{format}: flags {} out of range", update.flags))?;
    sink.level_update(ts, symbol, side, flags, update.price, update.size);
    Ok(())
}
