//! Which formats run on which workloads (one line per format), and the named
//! groups `--formats` accepts.

use anyhow::{Result, bail};

use crate::benchmark::Registered;
use crate::format::apache_avro::AvroGeneric;
use crate::format::features::Schema;
use crate::format::prost_reflect::ProtobufDynamic;
use crate::format::{DecodeStyle, Format, FormatInfo, Labels};
use crate::workload::Workload;
use crate::workload::iex::Iex;
use crate::workload::jsonl::schema::RecordSchemas;
use crate::workload::jsonl::{Csv, JsonValues, Jsonl, Origin};
use crate::workload::object::Object;
use crate::workload::primitives::PrimitivesWorkload;
use crate::workload::sql::Sql;
use crate::workload::tabular::{Longs, Mixed, Strings};
#[cfg(test)]
use crate::workload::tabular::{LongsRow, MixedRow, StringsRow};
use crate::workload::user::User;

/// What a format shows on a workload its row does not name.
pub const NO_MAPPING: &str = "no mapping yet";

/// Why a format cannot run workload `W`, when its feature row and the
/// workload's typing decide it: a format reading a user's schema at run time
/// runs only workloads typed at run time; one whose code is generated from a
/// schema before the build, or whose decoder needs a Rust type, runs none of
/// them. `typed_at_run_time` names those workloads.
fn cannot_run<W: Workload>(info: &FormatInfo, typed_at_run_time: &[&str]) -> Option<String> {
    let dynamic = info.labels.api.is_dynamic();
    match W::TYPED_AT_RUN_TIME {
        None if dynamic => Some(format!(
            "dynamic: runs only the workloads typed at run time ({}), with a schema",
            typed_at_run_time.join(", ")
        )),
        Some(why) if !dynamic => {
            let features = info.family.features()?;
            if matches!(features.schema, Schema::Idl) {
                Some(format!("a schema format: its code is generated before the build, and {why}"))
            } else if !features.self_describing {
                Some(format!("not self-describing: its decoder needs a Rust type, and {why}"))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The format × workload matrix.
///
/// A row names its format by its module in `format/` and its type
/// (`postcard::Postcard`), so adding a format here is its row and nothing else.
/// `workloads` names every workload (the registry function that lists its
/// formats, and its type). Each format row names the workloads the format runs
/// on; a workload can carry a reason instead (`mixed("why")`), and one the row
/// does not name shows as not run with [`NO_MAPPING`], so a new workload lands
/// with the formats that map it and the rest say so. A workload a row does
/// not name gets the row's own reason (`| "why"` after its cells), else the
/// one its format's feature row and the workload's typing give ([`cannot_run`]),
/// else [`NO_MAPPING`]: a reason is written once, where it is decided. A row may list, in
/// brackets after the format, the [`GROUPS`] it joins by name (`["classic"]`). A format whose codec keeps
/// per-workload state is generic over that state: its row ends in `<_>`, the
/// state is inferred from the workload, and the bare name (its default
/// parameter) stands for the format where no codec is built.
macro_rules! registry {
    (
        workloads { $($workload:ident: $ty:ty = $sample:expr),+ $(,)? }
        formats { $($module:ident::$format:ident $(<$state:tt>)? $([$($group:literal),+])? : $($cell:ident $(($reason:literal))?),* $(| $otherwise:literal)? ;)+ }
    ) => {
        /// Every format's identity, in row order.
        pub fn formats() -> Vec<&'static FormatInfo> {
            vec![$(&<crate::format::$module::$format as crate::format::Format>::INFO,)+]
        }

        /// Each format's name and the groups its row lists.
        fn listed_groups() -> Vec<(&'static str, &'static [&'static str])> {
            vec![$((
                <crate::format::$module::$format as crate::format::Format>::INFO.name,
                &[$($($group),+)?],
            ),)+]
        }

        /// The workloads whose records are typed at run time.
        fn typed_at_run_time() -> Vec<&'static str> {
            [$((<$ty as Workload>::NAME, <$ty as Workload>::TYPED_AT_RUN_TIME.is_some()),)+]
                .into_iter()
                .filter_map(|(name, at_run_time)| at_run_time.then_some(name))
                .collect()
        }

        /// One list of formats per workload, in row order.
        struct Matrix {
            $($workload: Vec<Registered<$ty>>,)+
        }

        impl Matrix {
            /// Marks, for format `F`, every workload its row did not name, with
            /// the row's reason for them when it gives one.
            fn fill<F: crate::format::Format>(&mut self, rows: usize, otherwise: Option<&str>) {
                $(
                    if self.$workload.len() < rows {
                        let reason = otherwise
                            .map(str::to_owned)
                            .or_else(|| cannot_run::<$ty>(&F::INFO, &typed_at_run_time()))
                            .unwrap_or_else(|| NO_MAPPING.to_owned());
                        self.$workload.push(Registered::unsupported::<F>(reason));
                    }
                )+
            }
        }

        fn matrix() -> Matrix {
            let mut matrix = Matrix { $($workload: Vec::new(),)+ };
            let mut rows = 0;
            $(
                rows += 1;
                row!(matrix, (crate::format::$module::$format $(<$state>)?), (crate::format::$module::$format), $($cell $(($reason))?),*);
                matrix.fill::<crate::format::$module::$format>(rows, None $(.or(Some($otherwise)))?);
            )+
            matrix
        }

        $(
            pub fn $workload() -> Vec<Registered<$ty>> {
                matrix().$workload
            }
        )+

        /// Each workload's sample, which the conformance test runs every measured cell on.
        #[cfg(test)]
        struct Samples {
            $($workload: fn() -> crate::workload::Dataset<$ty>,)+
        }

        #[cfg(test)]
        const SAMPLES: Samples = Samples { $($workload: $sample,)+ };

        /// Every measured cell of the matrix as a check of its codec on its
        /// workload's sample, with the workload's name.
        #[cfg(test)]
        fn conformance() -> Vec<$crate::catalog::registry::CellCheck> {
            let mut checks: Vec<$crate::catalog::registry::CellCheck> = Vec::new();
            $(
                row!(@checks checks, (crate::format::$module::$format $(<$state>)?), $($cell $(($reason))?),*);
            )+
            checks
        }

        /// One test per workload, so the test harness spreads the cells over its threads.
        #[cfg(test)]
        mod conformance_on {
            $(
                #[test]
                fn $workload() {
                    super::cells_conform(super::conformance(), stringify!($workload));
                }
            )+
        }

        /// Every workload's format names with, per format, whether it runs.
        #[cfg(test)]
        fn runs() -> Vec<(&'static str, Vec<(&'static str, bool)>)> {
            let matrix = matrix();
            vec![$((
                <$ty as Workload>::NAME,
                matrix
                    .$workload
                    .iter()
                    .map(|f| (f.info.name, f.unsupported_reason().is_none()))
                    .collect(),
            ),)+]
        }
    };
}

/// The cells one format row names: measured, or not run for a stated reason.
macro_rules! row {
    ($matrix:ident, ($codec:ty), ($format:ty), $($workload:ident $(($reason:literal))?),*) => {
        $($matrix.$workload.push(row!(@cell $codec, $format $(, $reason)?));)*
    };
    (@checks $checks:ident, ($codec:ty), $($workload:ident $(($reason:literal))?),*) => {
        $(row!(@check $checks, $codec, $workload $(, $reason)?);)*
    };
    (@check $checks:ident, $codec:ty, $workload:ident) => {
        $checks.push((stringify!($workload), Box::new(|| {
            crate::format::conformance::check::<_, $codec>((SAMPLES.$workload)())
        })));
    };
    (@check $checks:ident, $codec:ty, $workload:ident, $reason:literal) => {};
    (@cell $codec:ty, $format:ty) => {
        Registered::of::<$codec>()
    };
    // By the bare format name: a codec's state cannot be inferred where no codec is built.
    (@cell $codec:ty, $format:ty, $reason:literal) => {
        Registered::unsupported::<$format>($reason)
    };
}

registry! {
    workloads {
        iex: Iex = crate::workload::iex::sample_dataset,
        user: User = crate::workload::user::sample,
        sql: Sql = crate::workload::sql::sample,
        primitives: PrimitivesWorkload = crate::workload::primitives::sample,
        object: Object = crate::workload::object::sample,
        mixed: Mixed = crate::workload::tabular::sample::<MixedRow>,
        strings: Strings = crate::workload::tabular::sample::<StringsRow>,
        longs: Longs = crate::workload::tabular::sample::<LongsRow>,
        jsonl: Jsonl = crate::workload::jsonl::sample,
        csv: Csv = crate::input::columns::sample,
    }
    // One row per format, in the order tables list them when they tie.
    formats {
        capnp::CapnpUnpacked ["classic"]: iex, user, sql, primitives, object, mixed, strings, longs;
        capnp::CapnpPacked ["classic"]: iex, user, sql, primitives, object, mixed, strings, longs;
        flatbuffers::Flatbuffers ["classic"]: iex, user, sql, primitives, object, mixed, strings, longs;
        flatbuffers::FlatbuffersUnchecked: iex, user, sql, primitives, object, mixed, strings, longs;
        flatbuffers::FlatbuffersShared: iex;
        sbe::Sbe ["classic"]: iex, user, sql, primitives, object, mixed, strings, longs;
        planus::Planus: iex, user, sql, primitives, object, mixed, strings, longs;
        prost::Prost<_>: iex, user, sql, primitives, object, mixed, strings, longs;
        buffa::Buffa<_>: iex, user, sql, primitives, object, mixed, strings, longs;
        upb::Upb: iex, user, sql, primitives, object, mixed, strings, longs;
        bebop::Bebop<_>: iex, user, sql, primitives, object, mixed, strings, longs;
        thrift::ThriftBinary<_>: iex, user, sql, primitives, object, mixed, strings, longs;
        thrift::ThriftCompact<_>: iex, user, sql, primitives, object, mixed, strings, longs;
        apache_avro::AvroDatum: iex, user, sql, primitives, object, mixed, strings, longs;
        prost_reflect::ProtobufDynamic: jsonl("no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)"), csv("no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)");
        apache_avro::AvroGeneric: jsonl("no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)"), csv("no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)");
        rmp_serde::MsgpackArray: iex, user, sql, primitives, object, mixed, strings, longs, jsonl("writes structs as arrays: a JSON value has no structs, so its bytes would be msgpack-map's"), csv("writes structs as arrays: a row read as an object has no struct, so its bytes would be msgpack-map's");
        rmp_serde::MsgpackMap: iex, user, sql, primitives, object, mixed, strings, longs, jsonl, csv;
        zerompk::MsgpackZerompk: iex, user, sql, primitives, object, mixed, strings, longs, jsonl("zerompk's dynamic model (zerompk::Value) is not mapped yet"), csv("zerompk's dynamic model (zerompk::Value) is not mapped yet");
        ciborium::CborCiborium: iex, user, sql, primitives, object, mixed, strings, longs, jsonl, csv;
        minicbor::CborMinicbor: iex, user, sql, primitives, object, mixed, strings, longs, jsonl("minicbor has no value type; a walk of its Tokenizer is not written yet"), csv("minicbor has no value type; a walk of its Tokenizer is not written yet");
        serde_json::JsonSerdeJson ["json"]: iex, user, sql, primitives, object, mixed, strings, longs, jsonl, csv;
        simd_json::JsonSimdJson ["json"]: iex, user, sql, primitives, object, mixed, strings, longs, jsonl("simd-json-derive reads into Rust types; simd-json's own value model runs as json-simd-json-serde"), csv("simd-json-derive reads into Rust types; simd-json's own value model runs as json-simd-json-serde");
        simd_json::JsonSimdJsonSerde ["json"]: iex, user, sql, primitives, object, mixed, strings, longs, jsonl, csv;
        sonic_rs::JsonSonicRs ["json"]: iex, user, sql, primitives, object, mixed, strings, longs, jsonl, csv;
        bson::Bson: iex, user, sql, primitives, object, mixed, strings, longs, jsonl, csv;
        flexbuffers::Flexbuffers: iex, user, sql, primitives, object, mixed, strings, longs, jsonl, csv;
        ubjson::Ubjson: iex, user, sql, primitives, object, mixed, strings, longs, jsonl, csv;
        bincode::Bincode: iex, user, sql, primitives, object, mixed, strings, longs;
        wincode::Wincode: iex, user, sql, primitives, object, mixed, strings, longs;
        musli::Musli: iex, user, sql, primitives, object, mixed, strings, longs;
        fory::Fory<_>: iex, user, sql, primitives, object, mixed, strings, longs, jsonl("Fory's dynamic (any-typed) mode is not mapped yet"), csv("Fory's dynamic (any-typed) mode is not mapped yet");
        iex_tp::IexTp: iex | "IEX-TP carries only IEX market data";
        dbn::Dbn: iex | "DBN has only its fixed market-data record types";
        postcard::Postcard: iex, user, sql, primitives, object, mixed, strings, longs;
        rkyv::Rkyv: iex, user, sql, primitives, object, mixed, strings, longs;
        rkyv::RkyvUnchecked: iex, user, sql, primitives, object, mixed, strings, longs;
        borsh::Borsh: iex, user, sql, primitives, object, mixed, strings, longs;
        speedy::Speedy: iex, user, sql, primitives, object, mixed, strings, longs;
        bitcode::Bitcode: iex, user, sql, primitives, object, mixed, strings, longs;
    }
}

/// The formats that need a schema built at run time, given the run's: each
/// measured with its schema, or not run with the reason the run has none.
pub fn with_schemas<O: Origin>(
    formats: Vec<Registered<JsonValues<O>>>,
    schemas: &RecordSchemas,
) -> Vec<Registered<JsonValues<O>>> {
    let protobuf = <ProtobufDynamic as Format>::INFO.name;
    let avro = <AvroGeneric as Format>::INFO.name;
    formats
        .into_iter()
        .map(|format| match (format.info.name, &schemas.protobuf, &schemas.avro) {
            (name, Ok(schema), _) if name == protobuf => {
                let schema = schema.clone();
                Registered::made_by(move || ProtobufDynamic::new(schema.clone()))
            }
            (name, Err(reason), _) if name == protobuf => {
                Registered::unsupported::<ProtobufDynamic>(reason.clone())
            }
            (name, _, Ok(schema)) if name == avro => {
                let schema = schema.clone();
                Registered::made_by(move || AvroGeneric::new(schema.clone()))
            }
            (name, _, Err(reason)) if name == avro => {
                Registered::unsupported::<AvroGeneric>(reason.clone())
            }
            _ => format,
        })
        .collect()
}

/// A group `--formats` accepts beside format names.
pub struct Group {
    pub name: &'static str,
    pub summary: &'static str,
    members: Members,
}

/// Who belongs to a group: data about each format, never a list of names here.
enum Members {
    /// The formats whose registry row lists the group.
    Listed,
    /// The formats whose labels (on the workload) or feature-matrix row say so.
    Where(fn(&FormatInfo, &Labels) -> bool),
}

fn schema(info: &FormatInfo) -> Option<Schema> {
    info.family.features().map(|f| f.schema)
}

pub const GROUPS: &[Group] = &[
    Group {
        name: "classic",
        summary: "the 2019 IEX shootout's four: capnp-unpacked, capnp-packed, flatbuffers, sbe",
        members: Members::Listed,
    },
    Group {
        name: "zero-copy",
        summary: "formats whose decoder reads fields in place",
        members: Members::Where(|_, labels| matches!(labels.decode, DecodeStyle::ZeroCopy)),
    },
    Group {
        name: "schemaless",
        summary: "self-describing formats with no schema",
        members: Members::Where(|info, _| schema(info) == Some(Schema::None)),
    },
    Group {
        name: "schema",
        summary: "formats with a schema (an IDL or derived from Rust types)",
        members: Members::Where(|info, _| {
            matches!(schema(info), Some(Schema::Idl | Schema::Derive))
        }),
    },
    Group { name: "json", summary: "the JSON libraries", members: Members::Listed },
];

/// Whether `info` (with `labels` on this workload) belongs to `group`, or
/// `None` when no group has that name.
fn in_group(info: &FormatInfo, labels: &Labels, group: &str) -> Option<bool> {
    let group = GROUPS.iter().find(|g| g.name == group)?;
    Some(match group.members {
        Members::Listed => listed_groups()
            .iter()
            .any(|(name, groups)| *name == info.name && groups.contains(&group.name)),
        Members::Where(joins) => joins(info, labels),
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
            let groups: Vec<&str> = GROUPS.iter().map(|g| g.name).collect();
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
        bail!("--formats {} selects no format for workload {}", wanted.join(","), W::NAME);
    }
    Ok(selected)
}

/// One measured cell's conformance check, with its workload's name.
#[cfg(test)]
pub(crate) type CellCheck = (&'static str, Box<dyn Fn() + std::panic::UnwindSafe>);

/// Runs `workload`'s checks of `checks` (each cell's panic caught, so one
/// failing cell does not hide the others) and fails with every failure.
#[cfg(test)]
fn cells_conform(checks: Vec<CellCheck>, workload: &str) {
    let failed: Vec<String> = checks
        .into_iter()
        .filter(|(on, _)| *on == workload)
        .filter_map(|(_, check)| std::panic::catch_unwind(check).err())
        .map(|panic| {
            panic.downcast_ref::<String>().cloned().unwrap_or_else(|| "a panic".to_string())
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} cells failed on {workload}:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::spec::{Row, check_rust_rows};

    fn names(wanted: &[&str]) -> Vec<&'static str> {
        let wanted: Vec<String> = wanted.iter().map(|s| s.to_string()).collect();
        select(iex(), &wanted).unwrap().iter().map(|f| f.info.name).collect()
    }

    #[test]
    fn every_workload_lists_every_format_in_row_order() {
        let runs = runs();
        let names = |formats: &[(&'static str, bool)]| -> Vec<&'static str> {
            formats.iter().map(|(name, _)| *name).collect()
        };
        for (workload, formats) in &runs {
            assert_eq!(names(formats), names(&runs[0].1), "{workload}");
        }
    }

    /// Every measured (format, workload) cell: its sample round-trips, and
    /// truncated, noisy or bit-flipped input is an error or a clean decode, never a panic.
    #[test]
    fn every_measured_cell_is_checked() {
        let measured =
            runs().iter().flat_map(|(_, formats)| formats.iter().filter(|f| f.1)).count();
        assert_eq!(conformance().len(), measured);
    }

    /// Every Rust format as spec/formats.json lists it: the registry's rows
    /// and, per format, the workloads it runs on, so a cell that stops
    /// running (or starts) is a reviewed change of that file.
    #[test]
    fn spec_lists_every_rust_format() {
        let runs = runs();
        let rows: Vec<Row> = formats()
            .into_iter()
            .map(|info| Row {
                language: "rust".to_owned(),
                name: info.name.to_owned(),
                family: info.family.name().to_owned(),
                wire: info.wire.map(str::to_owned),
                framing: info.framing,
                labels: ::serde_json::to_value(info.labels).expect("labels serialize"),
                // A format made from a run's schema runs every jsonl or csv
                // dataset that carries one (`with_schemas`), as the Go and JVM
                // rows say; its registry cells give the reason for the others.
                workloads: if info.labels.api.is_dynamic() {
                    vec![Jsonl::NAME.to_owned(), Csv::NAME.to_owned()]
                } else {
                    runs.iter()
                        .filter(|(_, formats)| formats.contains(&(info.name, true)))
                        .map(|(workload, _)| (*workload).to_owned())
                        .collect()
                },
            })
            .collect();
        check_rust_rows(&rows);
    }

    /// A reason not written in a row comes from the format's feature row and
    /// the workload's typing.
    #[test]
    fn reasons_follow_from_the_feature_row_and_the_workload() {
        let reason = |formats: Vec<Registered<Jsonl>>, name: &str| {
            formats
                .into_iter()
                .find(|f| f.info.name == name)
                .unwrap()
                .unsupported_reason()
                .map(str::to_owned)
        };
        let on_iex = |name: &str| {
            iex()
                .into_iter()
                .find(|f| f.info.name == name)
                .unwrap()
                .unsupported_reason()
                .map(str::to_owned)
        };
        assert_eq!(
            reason(jsonl(), "capnp-packed").as_deref(),
            Some(
                "a schema format: its code is generated before the build, and JSON Lines records come with no schema"
            )
        );
        assert_eq!(
            reason(jsonl(), "postcard").as_deref(),
            Some(
                "not self-describing: its decoder needs a Rust type, and JSON Lines records come with no schema"
            )
        );
        assert_eq!(reason(jsonl(), "msgpack-map"), None, "a self-describing serde format runs");
        assert_eq!(
            on_iex("protobuf-dynamic").as_deref(),
            Some("dynamic: runs only the workloads typed at run time (jsonl, csv), with a schema")
        );
        assert_eq!(on_iex("iex-tp"), None);
    }

    /// A row that leaves out a workload, or gives a reason instead.
    mod partial {
        use super::super::{
            FormatInfo, NO_MAPPING, Registered, Workload, cannot_run, cells_conform,
        };
        use crate::workload::iex::Iex;
        use crate::workload::tabular::Mixed;
        use crate::workload::user::User;

        registry! {
            workloads {
                iex: Iex = crate::workload::iex::sample_dataset,
                user: User = crate::workload::user::sample,
                mixed: Mixed = crate::workload::tabular::sample::<crate::workload::tabular::MixedRow>,
            }
            formats {
                bincode::Bincode: iex, user, mixed;
                sbe::Sbe ["classic", "json"]: iex, mixed("cannot say");
                dbn::Dbn: iex | "only market data";
            }
        }

        fn cells<W: Workload>(formats: Vec<Registered<W>>) -> Vec<(&'static str, Option<String>)> {
            formats
                .iter()
                .map(|f| (f.info.name, f.unsupported_reason().map(str::to_owned)))
                .collect()
        }

        #[test]
        fn unnamed_workloads_show_no_mapping_and_reasons_show() {
            let reason = |why: &str| Some(why.to_owned());
            assert_eq!(cells(iex()), [("bincode", None), ("sbe", None), ("dbn", None)]);
            assert_eq!(
                cells(user()),
                [
                    ("bincode", None),
                    ("sbe", reason(NO_MAPPING)),
                    ("dbn", reason("only market data"))
                ]
            );
            assert_eq!(
                cells(mixed()),
                [
                    ("bincode", None),
                    ("sbe", reason("cannot say")),
                    ("dbn", reason("only market data"))
                ]
            );
            assert_eq!(runs().len(), 3);
            // The measured cells: bincode's three, sbe's iex, dbn's iex.
            assert_eq!(conformance().len(), 5);
        }

        #[test]
        fn formats_are_listed_in_row_order() {
            let names: Vec<&str> = formats().iter().map(|f| f.name).collect();
            assert_eq!(names, ["bincode", "sbe", "dbn"]);
        }

        #[test]
        fn rows_list_their_groups() {
            let expected: [(&str, &[&str]); 3] =
                [("bincode", &[]), ("sbe", &["classic", "json"]), ("dbn", &[])];
            assert_eq!(listed_groups(), expected);
        }
    }

    #[test]
    fn names_and_groups_select_in_registry_order() {
        assert_eq!(names(&["classic"]), ["capnp-unpacked", "capnp-packed", "flatbuffers", "sbe"]);
        assert_eq!(names(&["sbe", "capnp-packed"]), ["capnp-packed", "sbe"]);
        assert_eq!(names(&[]).len(), iex().len());
        assert!(names(&["zero-copy"]).contains(&"flatbuffers-unchecked"));
    }

    #[test]
    fn unknown_names_list_formats_and_groups() {
        let error = select(iex(), &["morse".to_string()]).err().unwrap().to_string();
        assert!(
            error.contains("unknown format 'morse'") && error.contains("groups: classic"),
            "{error}"
        );
    }

    #[test]
    fn names_are_unique_and_every_format_names_its_feature_row_and_wire() {
        let formats = iex();
        for (i, f) in formats.iter().enumerate() {
            assert!(
                formats[..i].iter().all(|g| g.info.name != f.info.name),
                "duplicate {}",
                f.info.name
            );
            assert!(
                f.info.family.features().is_some(),
                "{} is a format but names no feature-matrix row",
                f.info.name
            );
            assert!(f.info.wire.is_some(), "{} is a format but names no wire format", f.info.name);
            assert!(
                GROUPS.iter().all(|g| g.name != f.info.name),
                "{} shadows a group",
                f.info.name
            );
        }
    }

    #[test]
    fn rows_list_only_groups_that_take_a_list() {
        for (format, groups) in listed_groups() {
            for listed in groups {
                assert!(
                    GROUPS
                        .iter()
                        .any(|g| g.name == *listed && matches!(g.members, Members::Listed)),
                    "{format} lists {listed:?}, not a group formats join by their rows"
                );
            }
        }
    }

    #[test]
    fn each_canary_pair_writes_the_same_bytes() {
        let dataset = crate::workload::iex::sample_dataset();
        let formats = iex();
        let stream = |name: &str| {
            let mut codec = formats
                .iter()
                .find(|f| f.info.name == name)
                .and_then(|f| f.codec())
                .unwrap_or_else(|| panic!("canary {name} is not measured on iex"));
            let mut stream = Vec::new();
            for record in &dataset.records {
                codec.encode(record, &mut stream).unwrap();
            }
            stream
        };
        for (a, b, direction) in crate::results::CANARIES {
            assert_eq!(direction, "encode", "only encoders are shared");
            assert_eq!(stream(a), stream(b), "{a} and {b} must run the same encoder");
        }
    }
}

#[cfg(test)]
mod jsonl_edges {
    use super::*;
    use crate::workload::jsonl::{Value, ValueSink, visit_input};

    /// What a format shows on `records`: "" for a match, else its error or finding.
    fn outcome(format: &Registered<Jsonl>, lines: &[&str]) -> String {
        let records: Vec<Value> =
            lines.iter().map(|l| Value::parse(l.as_bytes()).unwrap()).collect();
        let mut reference = ValueSink::default();
        records.iter().for_each(|r| visit_input(r, &mut reference));
        let mut codec = format.codec().unwrap();
        let mut stream = Vec::new();
        for record in &records {
            if let Err(e) = codec.encode(record, &mut stream) {
                return format!("encode: {e:#}");
            }
        }
        let mut sink = ValueSink::default();
        let mut at = 0;
        while at < stream.len() {
            match codec.decode(&stream[at..], &mut sink) {
                Ok(used) => at += used,
                Err(e) => return format!("decode: {e:#}"),
            }
        }
        crate::workload::jsonl::aggregate::first_difference(&reference.finish(), &sink.finish())
            .unwrap_or_default()
    }

    /// The values some library's model loses, each alone in a record.
    const EDGES: [(&str, &str); 9] = [
        ("2^60", r#"{"v":1152921504606846976}"#),
        ("2^64-1", r#"{"v":18446744073709551615}"#),
        ("beyond 64 bits", r#"{"v":123456789012345678901234567890}"#),
        ("-0.0", r#"{"v":-0.0}"#),
        ("1.0", r#"{"v":1.0}"#),
        ("a key twice", r#"{"v":1,"v":2}"#),
        ("200 nested arrays", ""),
        ("an array record", r#"[1,"a"]"#),
        ("a NUL in a key", r#"{"k\u0000":1}"#),
    ];

    /// Each measured format's outcome on each edge: what its library's model
    /// loses, by name, so a library that changes shows here. Edges not
    /// listed for a format match.
    const LOSSES: &[(&str, &str, &str)] = &[
        // rmp-serde writes an i128 as 16 bytes of bin, which no reader can tell from binary data.
        ("msgpack-map", "beyond 64 bits", "decode: msgpack: decoded binary data"),
        // serde_json::Value holds u64, i64 or f64, and a Map keeps one value per key.
        ("json-serde_json", "beyond 64 bits", "integers beyond 64 bits: 1 in the input, 0 decoded"),
        (
            "json-serde_json",
            "a key twice",
            "members: 2 in the input, 1 decoded (the input has 1 duplicate key",
        ),
        ("json-serde_json", "200 nested arrays", "decode: json: decode: recursion limit exceeded"),
        // simd-json refuses an integer beyond 64 bits as a number.
        ("json-simd-json-serde", "beyond 64 bits", "decode: json: decode: InvalidNumber"),
        ("json-sonic-rs", "beyond 64 bits", "integers beyond 64 bits: 1 in the input, 0 decoded"),
        ("json-sonic-rs", "-0.0", "-0.0: 1 in the input, 0 decoded"),
        // BSON has no unsigned and no 128-bit integer, a document at the top and C-string keys.
        ("bson", "2^64-1", "encode: bson: encode: BSON error. Kind: Unsigned integer"),
        (
            "bson",
            "beyond 64 bits",
            "encode: bson: encode: BSON error. Kind: A serialization error occurred. Message: i128 is not supported.",
        ),
        (
            "bson",
            "an array record",
            "encode: bson: encode: BSON error. Kind: A serialization error occurred. Message: attempted to encode a non-document type at the top level: Array.",
        ),
        (
            "bson",
            "a NUL in a key",
            "encode: bson: encode: BSON error. Kind: Malformed BSON bytes. Message: cstring with interior null",
        ),
        (
            "flexbuffers",
            "beyond 64 bits",
            "encode: flexbuffers: serialize: Serde(\"i128 is not supported\")",
        ),
        // Our own UBJSON reader stops hostile nesting at 128 levels.
        (
            "ubjson",
            "200 nested arrays",
            "decode: ubjson: decode: UBJSON: byte 519: containers nested more than 128 deep",
        ),
        (
            "flexbuffers",
            "a key twice",
            "encode: flexbuffers: serialize: the builder panicked: Duplicated key in map \"v\"",
        ),
    ];

    #[test]
    fn each_format_loses_what_its_model_cannot_hold_by_name() {
        let deep = format!(r#"{{"v":{}{}}}"#, "[".repeat(200), "]".repeat(200));
        // serde_json and sonic-rs recurse per level: a debug build needs a deep stack.
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, || {
                    for f in jsonl().iter().filter(|f| f.unsupported_reason().is_none()) {
                        for (edge, line) in EDGES {
                            let line = if line.is_empty() { deep.as_str() } else { line };
                            let got = outcome(f, &[line]);
                            let mut want = LOSSES
                                .iter()
                                .find(|(name, e, _)| *name == f.info.name && *e == edge)
                                .map_or("", |(.., loss)| loss);
                            // flexbuffers only debug-asserts that a key holds no NUL; a
                            // release build writes it and the reader ends the key there.
                            if (f.info.name, edge) == ("flexbuffers", "a NUL in a key") {
                                want = if cfg!(debug_assertions) {
                                    "encode: flexbuffers: serialize: the builder panicked: Keys must not have internal nulls."
                                } else {
                                    "a value changed"
                                };
                            }
                            assert!(
                                if want.is_empty() { got.is_empty() } else { got.starts_with(want) },
                                "{} on {edge}: {got:?}, expected {want:?}",
                                f.info.name
                            );
                        }
                    }
                })
                .expect("a test thread");
        });
    }
}

/// The formats built from a run's schema: with the fixtures' schemas, each
/// carries the sample as the schema types it; without, each says why not.
#[cfg(test)]
mod schema_formats {
    use std::path::PathBuf;

    use super::*;
    use crate::format::codec_tests::assert_record_garbage_is_an_error;
    use crate::workload::Dataset;
    use crate::workload::jsonl::schema::{Given, NO_AVRO, NO_PROTOBUF};
    use crate::workload::jsonl::{Value, ValueSink, visit};

    fn given(file: &str) -> Given {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../spec/fixtures").join(file);
        crate::input::schema::load(path.to_str().unwrap()).unwrap()
    }

    /// The jsonl sample as `given` types it.
    fn typed(given: &Given, records: impl IntoIterator<Item = Value>) -> Dataset<Jsonl> {
        let records: Vec<Value> = records.into_iter().map(|r| given.project(&r).unwrap()).collect();
        let mut sink = ValueSink::default();
        records.iter().for_each(|r| visit(r, &mut sink));
        Dataset::in_order(records, sink.finish(), "typed".into())
    }

    /// What `format` decodes from its own encoding of `dataset`: the aggregate,
    /// or the first difference from the reference.
    fn round_trip(format: &Registered<Jsonl>, dataset: &Dataset<Jsonl>) -> Option<String> {
        let mut codec = format.codec().expect("the format runs");
        let mut stream = Vec::new();
        for record in dataset.operations() {
            codec.encode(record, &mut stream).unwrap();
        }
        let (mut sink, mut offset) = (ValueSink::default(), 0);
        while offset < stream.len() {
            offset += codec.decode(&stream[offset..], &mut sink).unwrap();
        }
        <Jsonl as Workload>::first_difference(&dataset.reference, &sink.finish())
    }

    fn dynamic(formats: &[Registered<Jsonl>]) -> Vec<&Registered<Jsonl>> {
        formats.iter().filter(|f| f.labels.api.is_dynamic()).collect()
    }

    #[test]
    fn each_runs_with_its_schema_and_says_why_not_without() {
        let sample = crate::workload::jsonl::sample();
        for (file, runs, other) in [
            ("events.proto", "protobuf-dynamic", NO_AVRO),
            ("events.avsc", "avro-generic", NO_PROTOBUF),
        ] {
            let given = given(file);
            let dataset = typed(&given, sample.records.iter().cloned());
            let formats = with_schemas(jsonl(), &given.schemas());
            for format in dynamic(&formats) {
                if format.info.name == runs {
                    assert_eq!(round_trip(format, &dataset), None, "{runs}");
                } else {
                    assert_eq!(format.unsupported_reason(), Some(other), "{file}");
                }
            }
        }
        let plain = with_schemas(jsonl(), &RecordSchemas::default());
        let reasons: Vec<_> = dynamic(&plain).iter().map(|f| f.unsupported_reason()).collect();
        assert_eq!(reasons, [Some(NO_PROTOBUF), Some(NO_AVRO)]);
        // The registry's own rows say the same before any schema is given.
        let rows: Vec<_> = jsonl().into_iter().filter(|f| f.labels.api.is_dynamic()).collect();
        assert_eq!(rows.iter().map(|f| f.unsupported_reason()).collect::<Vec<_>>(), reasons);
    }

    #[test]
    fn bad_bytes_are_an_error_or_a_clean_decode() {
        let sample = crate::workload::jsonl::sample();
        let given_protobuf = given("events.proto");
        let dataset = typed(&given_protobuf, sample.records.iter().take(40).cloned());
        let Given::Protobuf(schema) = &given_protobuf else { unreachable!() };
        assert_record_garbage_is_an_error(ProtobufDynamic::new(schema.clone()), &dataset);
        let given_avro = given("events.avsc");
        let dataset = typed(&given_avro, sample.records.iter().take(40).cloned());
        let Given::Avro(schema) = &given_avro else { unreachable!() };
        assert_record_garbage_is_an_error(AvroGeneric::new(schema.clone()), &dataset);
    }

    /// prost-reflect takes -0.0 for a proto3 double's default and does not
    /// write it, where protobuf-go and protobuf-java do: the member is lost,
    /// and validation says so.
    #[test]
    fn protobuf_dynamic_drops_negative_zero_in_a_field_without_presence() {
        let given = given("events.proto");
        let record = Value::parse(br#"{"id":1,"meta":{"latency_ms":-0.0}}"#).unwrap();
        let dataset = typed(&given, [record]);
        let formats = with_schemas(jsonl(), &given.schemas());
        let protobuf = formats.iter().find(|f| f.info.name == "protobuf-dynamic").unwrap();
        assert_eq!(
            round_trip(protobuf, &dataset).as_deref(),
            Some("members: 3 in the input, 2 decoded")
        );
    }
}
