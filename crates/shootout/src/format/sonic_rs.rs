//! JSON through serde with `sonic-rs`, as JSON Lines.
//!
//! The same JSON as `json-serde_json` (serde derive's data model, one compact
//! record per line), written by `sonic_rs::to_writer` straight into the stream.
//! Decode finds the end of the line (`memchr`: sonic-rs's stream deserializer
//! does not report where a value ended) and reads the borrowed
//! `MultiMessageView` with `sonic_rs::from_slice` (UTF-8 validated, trailing
//! bytes rejected): symbols are `&str` into the stream, and the message list is
//! the one allocation per non-empty record.

use anyhow::{Context, Result};

use super::{Access, Api, Codec, DecodeStyle, Format, FormatInfo, Labels};
use crate::workload::iex::view::MultiMessageView;
use crate::workload::iex::{Aggregator, Iex, MultiMessage};

pub struct JsonSonicRs;

impl Format for JsonSonicRs {
    const INFO: FormatInfo = FormatInfo {
        name: "json-sonic-rs",
        family: "JSON",
        library: "sonic-rs",
        labels: Labels {
            buffer_reuse: true,
            decode: DecodeStyle::Owned,
            access: Access::Validated,
            api: Api::Serde,
            lossy: None,
        },
        notes: "The same JSON Lines as json-serde_json (serde derive's data model, one compact \
                record per line ended by \\n). Encode: sonic_rs::to_writer straight into the \
                stream. Decode: memchr finds the line's end (sonic-rs's StreamDeserializer does \
                not report where a value ended), then sonic_rs::from_slice (the validating entry \
                point: UTF-8 checked, trailing bytes rejected; from_slice_unchecked is not used) \
                into the borrowed MultiMessageView: symbols are &str into the stream, the \
                message Vec is the one allocation per non-empty record (a record of more than 4 \
                messages reallocates it as it grows: the array length is not known before its \
                elements). A symbol needing a JSON escape could not be borrowed (IEX symbols \
                need none).",
    };
}

impl Codec<Iex> for JsonSonicRs {
    fn new() -> Self {
        JsonSonicRs
    }

    fn encode(&mut self, record: &MultiMessage, stream: &mut Vec<u8>) -> Result<()> {
        let start = stream.len();
        sonic_rs::to_writer(&mut *stream, record)
            .inspect_err(|_| stream.truncate(start))
            .context("json: encode")?;
        stream.push(b'\n');
        Ok(())
    }

    fn decode(&mut self, stream: &[u8], sink: &mut Aggregator) -> Result<usize> {
        let len = memchr::memchr(b'\n', stream).context("json: record does not end its line")?;
        let view: MultiMessageView<'_> =
            sonic_rs::from_slice(&stream[..len]).context("json: decode")?;
        view.aggregate_into(sink);
        Ok(len + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::assert_round_trip;
    use crate::format::codec_tests::{assert_garbage_is_an_error, assert_steady_state_allocations};
    use crate::workload::Workload;
    use crate::workload::iex::sample_dataset;

    #[test]
    fn round_trips() {
        assert_round_trip::<Iex, JsonSonicRs>(&sample_dataset());
    }

    /// sonic-rs writes what serde_json writes.
    #[test]
    fn stream_matches_serde_json() {
        for record in sample_dataset().records {
            let mut stream = Vec::new();
            JsonSonicRs.encode(&record, &mut stream).unwrap();
            let mut expected = serde_json::to_vec(&record).unwrap();
            expected.push(b'\n');
            assert_eq!(stream, expected);
        }
    }

    #[test]
    fn garbage_is_an_error() {
        assert_garbage_is_an_error::<JsonSonicRs>(&sample_dataset().records);
    }

    #[test]
    fn malformed_lines_are_errors() {
        let mut sink = Iex::new_sink(&Default::default());
        assert!(JsonSonicRs::new().decode(b"\n", &mut sink).is_err());
        assert!(JsonSonicRs::new().decode(b"{}\n", &mut sink).is_err());
        assert!(
            JsonSonicRs::new()
                .decode(b"{\"seq_no\":1,\"messages\":[]} x\n", &mut sink)
                .is_err()
        );
        assert!(
            JsonSonicRs::new()
                .decode(b"{\"seq_no\":1,\"messages\":[]}", &mut sink)
                .is_err()
        );
    }

    /// Steady state: encode allocates nothing; decode only the message Vec of each of the 2 non-
    /// empty records.
    #[test]
    fn allocations_per_record() {
        let records = sample_dataset().records;
        assert_steady_state_allocations::<JsonSonicRs>(&records, (0, 2));
    }
}
