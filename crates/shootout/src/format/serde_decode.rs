//! How the serde codecs hand one decoded record to a workload's sink.

use serde::Serialize;
use serde::de::{Deserialize, DeserializeSeed, Deserializer};

use crate::workload::iex::view::MultiMessageSeed;
use crate::workload::iex::{Aggregator, Iex};
use crate::workload::{SerdeWorkload, Workload};

/// A workload the serde codecs run: a record is serialized as it is, and
/// decoded from any serde `Deserializer` straight into the sink. The codecs
/// stay one generic impl each, and each workload decodes the cheapest way its
/// sink allows.
pub trait SerdeDecode: Workload<Record: Serialize> {
    fn deserialize_into<'de, D: Deserializer<'de>>(
        deserializer: D,
        sink: &mut Self::Sink,
    ) -> Result<(), D::Error>;
}

/// The record-shaped workloads: their view (the owned record), then visited.
impl<W: SerdeWorkload> SerdeDecode for W {
    fn deserialize_into<'de, D: Deserializer<'de>>(
        deserializer: D,
        sink: &mut W::Sink,
    ) -> Result<(), D::Error> {
        <W::View<'de> as Deserialize<'de>>::deserialize(deserializer)
            .map(|view| W::aggregate(&view, sink))
    }
}

/// iex: each message goes to the aggregator as it is read, with no message list,
/// as minicbor's and the zero-copy formats' readers do.
impl SerdeDecode for Iex {
    fn deserialize_into<'de, D: Deserializer<'de>>(
        deserializer: D,
        sink: &mut Aggregator,
    ) -> Result<(), D::Error> {
        MultiMessageSeed(sink).deserialize(deserializer)
    }
}
