//! Which formats run on which workloads (one line per format), and the named
//! groups `--formats` accepts.

use anyhow::{Result, bail};

use super::Codec;
use super::features::{self, Schema};
use super::{
    DecodeStyle, FormatInfo, Labels, apache_avro, bincode, bitcode, borsh, bson, capnp, ciborium,
    flatbuffers, flexbuffers, minicbor, planus, postcard, prost, rkyv, rmp_serde, sbe, serde_json,
    simd_json, sonic_rs, speedy, thrift, ubjson,
};
use crate::benchmark::Registered;
use crate::workload::Workload;
use crate::workload::fields::{FieldRecord, Fields};
use crate::workload::iex::Iex;
use crate::workload::object::Object;
use crate::workload::primitives::PrimitivesWorkload;
use crate::workload::sql::Sql;
use crate::workload::tabular::{Longs, Mixed, Strings};
use crate::workload::user::User;

/// Expands the one list of formats into every workload's registry, so each
/// listed format must implement `Codec` for every workload. A format that cannot
/// express some workload belongs in that workload's function below instead, as
/// `Registered::unsupported::<F>("why")`, so the results say so.
macro_rules! registry {
    ($($codec:path),+ $(,)?) => {
        pub fn iex() -> Vec<Registered<Iex>> {
            vec![$(Registered::of::<$codec>()),+]
        }

        /// Every format on a record-shaped workload (user, sql, primitives,
        /// object, mixed, strings, longs).
        pub fn records<R: FieldRecord>() -> Vec<Registered<Fields<R>>>
        where
            $($codec: Codec<Fields<R>>),+
        {
            vec![$(Registered::of::<$codec>()),+]
        }
    };
}

// One line per format, in the order tables list them when they tie.
registry!(
    capnp::CapnpUnpacked,
    capnp::CapnpPacked,
    flatbuffers::Flatbuffers,
    flatbuffers::FlatbuffersUnchecked,
    sbe::Sbe,
    planus::Planus,
    prost::Prost,
    thrift::ThriftBinary,
    thrift::ThriftCompact,
    apache_avro::AvroDatum,
    rmp_serde::MsgpackArray,
    rmp_serde::MsgpackMap,
    ciborium::CborCiborium,
    minicbor::CborMinicbor,
    serde_json::JsonSerdeJson,
    simd_json::JsonSimdJson,
    simd_json::JsonSimdJsonSerde,
    sonic_rs::JsonSonicRs,
    bson::Bson,
    flexbuffers::Flexbuffers,
    ubjson::Ubjson,
    bincode::Bincode,
    postcard::Postcard,
    rkyv::Rkyv,
    rkyv::RkyvUnchecked,
    borsh::Borsh,
    speedy::Speedy,
    bitcode::Bitcode,
);

pub fn user() -> Vec<Registered<User>> {
    records()
}
pub fn sql() -> Vec<Registered<Sql>> {
    records()
}
pub fn primitives() -> Vec<Registered<PrimitivesWorkload>> {
    records()
}
pub fn object() -> Vec<Registered<Object>> {
    records()
}
pub fn mixed() -> Vec<Registered<Mixed>> {
    records()
}
pub fn strings() -> Vec<Registered<Strings>> {
    records()
}
pub fn longs() -> Vec<Registered<Longs>> {
    records()
}

/// Groups `--formats` accepts beside format names.
pub const GROUPS: &[(&str, &str)] = &[
    (
        "classic",
        "the 2019 IEX shootout's four: capnp-unpacked, capnp-packed, flatbuffers, sbe",
    ),
    ("zero-copy", "formats whose decoder reads fields in place"),
    ("schemaless", "self-describing formats with no schema"),
    (
        "schema",
        "formats with a schema (an IDL or derived from Rust types)",
    ),
    ("json", "the JSON libraries"),
];

/// Whether `info` (with `labels` on this workload) belongs to `group`, or
/// `None` when no group has that name.
fn in_group(info: &FormatInfo, labels: &Labels, group: &str) -> Option<bool> {
    let schema = || features::of_family(info.family).map(|f| f.schema);
    Some(match group {
        "classic" => ["capnp-unpacked", "capnp-packed", "flatbuffers", "sbe"].contains(&info.name),
        "zero-copy" => matches!(labels.decode, DecodeStyle::ZeroCopy),
        "schemaless" => schema() == Some(Schema::None),
        "schema" => matches!(schema(), Some(Schema::Idl | Schema::Derive)),
        "json" => info.family == "JSON",
        _ => return None,
    })
}

/// Keeps the formats named in `wanted`, by name or group (all when empty), in registry order.
pub fn select<W: Workload>(
    all: Vec<Registered<W>>,
    wanted: &[String],
) -> Result<Vec<Registered<W>>> {
    let Some(sample) = all.first() else {
        bail!("no formats are registered for workload {}", W::NAME)
    };
    for item in wanted {
        let is_name = all.iter().any(|f| f.info.name == item.as_str());
        if !is_name && in_group(sample.info, &sample.labels, item).is_none() {
            let names: Vec<&str> = all.iter().map(|f| f.info.name).collect();
            let groups: Vec<&str> = GROUPS.iter().map(|(g, _)| *g).collect();
            bail!(
                "unknown format '{item}' for workload {}; formats: {}; groups: {}",
                W::NAME,
                names.join(", "),
                groups.join(", ")
            );
        }
    }
    let chosen = |f: &Registered<W>| {
        wanted.is_empty()
            || wanted
                .iter()
                .any(|w| w == f.info.name || in_group(f.info, &f.labels, w) == Some(true))
    };
    let selected: Vec<Registered<W>> = all.into_iter().filter(|f| chosen(f)).collect();
    if selected.is_empty() {
        bail!(
            "--formats {} selects no format for workload {}",
            wanted.join(","),
            W::NAME
        );
    }
    Ok(selected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(wanted: &[&str]) -> Vec<&'static str> {
        let wanted: Vec<String> = wanted.iter().map(|s| s.to_string()).collect();
        select(iex(), &wanted)
            .unwrap()
            .iter()
            .map(|f| f.info.name)
            .collect()
    }

    #[test]
    fn names_and_groups_select_in_registry_order() {
        assert_eq!(
            names(&["classic"]),
            ["capnp-unpacked", "capnp-packed", "flatbuffers", "sbe"]
        );
        assert_eq!(names(&["sbe", "capnp-packed"]), ["capnp-packed", "sbe"]);
        assert_eq!(names(&[]).len(), iex().len());
        assert!(names(&["zero-copy"]).contains(&"flatbuffers-unchecked"));
    }

    #[test]
    fn unknown_names_list_formats_and_groups() {
        let error = select(iex(), &["morse".to_string()])
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("unknown format 'morse'") && error.contains("groups: classic"),
            "{error}"
        );
    }

    #[test]
    fn names_are_unique_and_every_family_has_a_feature_row() {
        let formats = iex();
        for (i, f) in formats.iter().enumerate() {
            assert!(
                formats[..i].iter().all(|g| g.info.name != f.info.name),
                "duplicate {}",
                f.info.name
            );
            assert!(
                features::of_family(f.info.family).is_some(),
                "no feature-matrix row for family {:?}",
                f.info.family
            );
            assert!(
                GROUPS.iter().all(|(g, _)| *g != f.info.name),
                "{} shadows a group",
                f.info.name
            );
        }
    }
}
