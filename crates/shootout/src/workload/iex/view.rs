//! Feeding decoded records to the aggregator, for formats that decode into
//! Rust values (serde and derive-based libraries) rather than reading in place.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{Aggregator, Body, MultiMessage};

/// Deserializes one record in serde derive's data model of [`MultiMessage`]
/// (a struct read as a map or as a sequence, as the format lays it out),
/// feeding each message to the sink as soon as it is read: no message list is
/// built, as a reader that walks the input in place would not build one.
pub struct MultiMessageSeed<'s>(pub &'s mut Aggregator);

/// One message of the record; field names and the `Body` representation match
/// [`super::Message`]'s, so it reads what `Message` serializes. The symbol is
/// borrowed from the input when the input holds it verbatim, and copied only
/// when the format must unescape it (a JSON string with `"`, `\` or a control
/// character).
#[derive(Deserialize)]
struct MessageView<'a> {
    ts: i64,
    #[serde(borrow)]
    symbol: Cow<'a, str>,
    body: Body,
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Field {
    SeqNo,
    Messages,
    #[serde(other)]
    Unknown,
}

const EXPECTING: &str = "struct MultiMessage";

impl<'de> DeserializeSeed<'de> for MultiMessageSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_struct("MultiMessage", &["seq_no", "messages"], self)
    }
}

impl<'de> Visitor<'de> for MultiMessageSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(EXPECTING)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut fields: A) -> Result<(), A::Error> {
        let sink = self.0;
        let seq_no =
            fields.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &EXPECTING))?;
        let messages = fields
            .next_element_seed(Messages(&mut *sink))?
            .ok_or_else(|| de::Error::invalid_length(1, &EXPECTING))?;
        sink.packet(seq_no, messages);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut fields: A) -> Result<(), A::Error> {
        let sink = self.0;
        let (mut seq_no, mut messages) = (None, None);
        while let Some(field) = fields.next_key()? {
            match field {
                Field::SeqNo if seq_no.is_some() => {
                    return Err(de::Error::duplicate_field("seq_no"));
                }
                Field::SeqNo => seq_no = Some(fields.next_value()?),
                Field::Messages if messages.is_some() => {
                    return Err(de::Error::duplicate_field("messages"));
                }
                Field::Messages => messages = Some(fields.next_value_seed(Messages(&mut *sink))?),
                Field::Unknown => {
                    fields.next_value::<IgnoredAny>()?;
                }
            }
        }
        let seq_no = seq_no.ok_or_else(|| de::Error::missing_field("seq_no"))?;
        let messages = messages.ok_or_else(|| de::Error::missing_field("messages"))?;
        // Last, since a map may hold the messages before the seq_no; the fold
        // does not depend on the order.
        sink.packet(seq_no, messages);
        Ok(())
    }
}

/// The message list, fed to the sink one message at a time; its value is the count.
struct Messages<'s>(&'s mut Aggregator);

impl<'de> DeserializeSeed<'de> for Messages<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Messages<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence of messages")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut messages: A) -> Result<usize, A::Error> {
        let mut count = 0;
        while let Some(m) = messages.next_element::<MessageView<'de>>()? {
            self.0.message(m.ts, m.symbol.as_bytes(), &m.body);
            count += 1;
        }
        Ok(count)
    }
}

/// Derives on each (public) struct the decoders of the derive-based libraries that can
/// borrow from their input (bincode, bitcode, musli, speedy, wincode, zerompk).
/// Items as token trees, as in `derive_libraries!` (bincode's derive names
/// fields with the spans it is given).
macro_rules! borrowing_decoders {
    ($($(#[$($attr:tt)*])* pub struct $name:ident<$lifetime:tt> $body:tt)*) => {$(
        #[derive(
            bincode::BorrowDecode,
            bitcode::Decode,
            musli::Decode,
            speedy::Readable,
            wincode::SchemaRead,
            zerompk::FromMessagePack,
        )]
        $(#[$($attr)*])*
        pub struct $name<$lifetime> $body
    )*};
}

borrowing_decoders! {
    /// [`MultiMessage`] with each symbol borrowed from the input: the mirror
    /// the derive-based libraries that can borrow decode a record into, so
    /// that no symbol is copied. Its message list is still a `Vec` built per
    /// record.
    #[musli(packed)]
    pub struct BorrowedMultiMessage<'a> {
        seq_no: u64,
        messages: Vec<BorrowedMessage<'a>>,
    }

    /// One message of [`BorrowedMultiMessage`].
    #[musli(packed)]
    pub struct BorrowedMessage<'a> {
        ts: i64,
        symbol: &'a str,
        body: Body,
    }
}

impl BorrowedMultiMessage<'_> {
    #[inline]
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
