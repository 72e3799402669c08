//! The schemaless formats used with named fields, through serde derive: each
//! record a map from field name to value, so a reader matches fields by name.

use super::versions::library;
use crate::format::features;

/// How every serde format here evolves: serde derive's documented attributes.
macro_rules! serde_rules {
    ($how:literal) => {
        concat!(
            $how,
            " Serde derive's evolution attributes: the added `email` is an Option with \
             #[serde(default)]; the renamed field carries #[serde(alias = \"total_login_num\")] \
             (new readers accept the old name; v2 writes the new one); a removed field needs \
             nothing (readers ignore unknown fields unless deny_unknown_fields). v1 is the \
             plain struct as first written, with no #[serde(default)], so an old reader \
             requires every v1 field."
        )
    };
}

library!(
    MSGPACK_MAP = MsgpackMap {
        name: "msgpack-map",
        family: features::MESSAGEPACK.family,
        rules: serde_rules!("rmp-serde with struct maps (to_vec_named), read with from_slice."),
        encode: |value| Ok(rmp_serde::to_vec_named(value)?),
        decode: |bytes| Ok(rmp_serde::from_slice(bytes)?),
    }
);

library!(
    CBOR_CIBORIUM = Ciborium {
        name: "cbor-ciborium",
        family: features::CBOR.family,
        rules: serde_rules!("ciborium: structs as CBOR maps keyed by field name."),
        encode: |value| {
            let mut bytes = Vec::new();
            ciborium::into_writer(value, &mut bytes)?;
            Ok(bytes)
        },
        decode: |bytes| Ok(ciborium::from_reader(bytes)?),
    }
);

library!(
    JSON_SERDE_JSON = SerdeJson {
        name: "json-serde_json",
        family: features::JSON.family,
        rules: serde_rules!("serde_json: objects keyed by field name."),
        encode: |value| Ok(serde_json::to_vec(value)?),
        decode: |bytes| Ok(serde_json::from_slice(bytes)?),
    }
);

library!(
    BSON = Bson {
        name: "bson",
        family: features::BSON.family,
        rules: serde_rules!(
            "bson: a document keyed by field name; an i32 is written as int32, an i64 as int64."
        ),
        encode: |value| Ok(bson::serialize_to_vec(value)?),
        decode: |bytes| Ok(bson::deserialize_from_slice(bytes)?),
    }
);

library!(
    UBJSON = Ubjson {
        name: "ubjson",
        family: features::UBJSON.family,
        rules: serde_rules!("This project's UBJSON crate: objects keyed by field name."),
        encode: |value| Ok(ubjson::to_vec(value)?),
        decode: |bytes| Ok(ubjson::from_slice(bytes)?),
    }
);

library!(
    FLEXBUFFERS = Flexbuffers {
        name: "flexbuffers",
        family: features::FLEXBUFFERS.family,
        rules: serde_rules!("flexbuffers' serde support: structs as maps keyed by field name."),
        encode: |value| Ok(flexbuffers::to_vec(value)?),
        decode: |bytes| Ok(flexbuffers::from_slice(bytes)?),
    }
);
