//! postcard through serde: the record serializes with its serde derive, and
//! decodes through the iex `DeserializeSeed` straight into the aggregator, one
//! message at a time (symbols borrowed from the stream, no message list).
//!
//! postcard's encoding is self-delimiting: records are written back to back and
//! `Deserializer::finalize` returns the unread rest, which gives the bytes consumed.

use anyhow::{Context, Result};

use super::serde_decode::SerdeDecode;
use super::{Codec, Family, Format, FormatInfo, Framing, Labels, features};

pub struct Postcard;

/// Lets `postcard::to_extend` append to a borrowed stream (it takes its output
/// by value); `Vec::extend` from a slice iterator is a plain copy.
struct Append<'a>(&'a mut Vec<u8>);

impl Extend<u8> for Append<'_> {
    #[inline]
    fn extend<I: IntoIterator<Item = u8>>(&mut self, bytes: I) {
        self.0.extend(bytes);
    }
}

impl Format for Postcard {
    const INFO: FormatInfo = FormatInfo {
        name: "postcard",
        family: Family::Format(&features::POSTCARD),
        library: "postcard",
        labels: Labels::OWNED_SERDE,
        notes: "serde, postcard 1.x wire format (varint integers, zigzag for signed, enum \
                variants as varint indices). Encode appends straight to the stream \
                (postcard::to_extend). Self-delimiting: records are back to back with no \
                prefix; Deserializer::finalize returns the rest, which gives the bytes consumed. \
                Decode: a postcard::Deserializer over the stream feeds the record through a \
                DeserializeSeed straight into the aggregator, one message at a time, with no \
                message Vec (symbols borrowed, UTF-8 checked).",
        wire: Some("postcard"),
        framing: Framing::None,
    };
}

impl<W: SerdeDecode> Codec<W> for Postcard {
    fn new() -> Self {
        Postcard
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        postcard::to_extend(record, Append(stream)).context("postcard: encode")?;
        Ok(())
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let mut deserializer = postcard::Deserializer::from_bytes(stream);
        W::deserialize_into(&mut deserializer, sink).context("postcard: decode")?;
        let rest = deserializer.finalize().context("postcard: decode")?;
        Ok(stream.len() - rest.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::iex::Iex;

    use crate::workload::iex::sample_dataset;

    crate::format::codec_tests::iex_codec_tests!(Postcard);

    #[test]
    fn encoding_is_postcards_own() {
        let record = &sample_dataset().records[0];
        let mut stream = vec![0xaa];
        Codec::<Iex>::encode(&mut Postcard, record, &mut stream).unwrap();
        assert_eq!(stream[0], 0xaa, "appends");
        assert_eq!(&stream[1..], postcard::to_stdvec(record).unwrap());
    }
}
