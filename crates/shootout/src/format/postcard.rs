//! postcard through serde: the record serializes with its serde derive, and
//! decodes into the shared borrowed view (`MultiMessageView`, symbols as `&str`
//! into the stream).
//!
//! postcard's encoding is self-delimiting: records are written back to back and
//! `take_from_bytes` returns the unread rest, which gives the bytes consumed.

use anyhow::{Context, Result};

use super::{Access, Api, Codec, DecodeStyle, Format, FormatInfo, Labels};
use crate::workload::SerdeWorkload;

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
        family: "postcard",
        library: "postcard",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::Owned,
            access: Access::Validated,
            api: Api::Serde,
            lossy: None,
        },
        notes: "serde, postcard 1.x wire format (varint integers, zigzag for signed, enum \
                variants as varint indices). Encode appends straight to the stream \
                (postcard::to_extend). Self-delimiting: records are back to back with no \
                prefix; take_from_bytes returns the rest, which gives the bytes consumed. \
                Decode into the shared serde view MultiMessageView (symbols borrowed as &str, \
                UTF-8 checked); its message Vec is allocated once per non-empty record.",
    };
}

impl<W: SerdeWorkload> Codec<W> for Postcard {
    fn new() -> Self {
        Postcard
    }

    fn encode(&mut self, record: &W::Record, stream: &mut Vec<u8>) -> Result<()> {
        postcard::to_extend(record, Append(stream)).context("postcard: encode")?;
        Ok(())
    }

    fn decode(&mut self, stream: &[u8], sink: &mut W::Sink) -> Result<usize> {
        let (view, rest) =
            postcard::take_from_bytes::<W::View<'_>>(stream).context("postcard: decode")?;
        W::aggregate(&view, sink);
        Ok(stream.len() - rest.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{assert_round_trip, assert_round_trips_every_record_shape};
    use crate::workload::iex::Iex;

    #[test]
    fn round_trips_every_record_shape() {
        assert_round_trips_every_record_shape::<Postcard>();
    }
    use crate::format::codec_tests::{
        assert_garbage_is_an_error, assert_round_trips_with_a_big_record, sample_with_big_record,
    };
    use crate::workload::iex::sample_dataset;

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, Postcard>(&sample_dataset());
        assert_round_trips_with_a_big_record::<Postcard>();
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<Postcard>(&sample_with_big_record());
    }

    #[test]
    fn encoding_is_postcards_own() {
        let record = &sample_dataset().records[0];
        let mut stream = vec![0xaa];
        Codec::<Iex>::encode(&mut Postcard, record, &mut stream).unwrap();
        assert_eq!(stream[0], 0xaa, "appends");
        assert_eq!(&stream[1..], postcard::to_stdvec(record).unwrap());
    }
}
