//! Apache Thrift through the `thrift` crate and thrift-compiler-generated
//! structs (schemas/evolution/user.thrift), in the binary and the compact
//! protocol. Field ids and types are on the wire, names are not; a reader skips
//! ids it does not know and rejects a struct that lacks a required field.

use anyhow::{Result, anyhow};
use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TCompactInputProtocol, TCompactOutputProtocol,
    TOutputProtocol, TSerializable,
};

use super::trial::{Version, VersionType, Versions, generated_versions};
use super::{Change, Direction, Evolving, UserV1, View};
use crate::format::features;

crate::format::generated_code! {
    /// The code the pinned compiler generates from schemas/evolution/user.thrift
    /// (scripts/regenerate.sh); never edited by hand.
    #[path = "generated/user_thrift.rs"]
    mod user_thrift;
}

/// What both protocols' v2s are, by Thrift's rules.
macro_rules! rules {
    ($protocol:literal) => {
        concat!(
            $protocol,
            " v1 is the registry's UserResponse (every field `required`, tutorial an i32). Every \
             v2 keeps v1's field ids: the added email takes id 10 as `optional`; the removed \
             nickname's id 5 is dropped (never to be reused), though v1 declared it required \
             and Thrift warns that required is forever; the rename keeps id 6; the reorder \
             keeps every id. Thrift has no compatible type change (the docs: a field of \
             another type is another field, which readers skip): the widened tutorial is the \
             plain change, id 4 from i32 to i64, and the Rust generated reader does not check \
             a field's type before reading it as its own."
        )
    };
}

pub const BINARY: Evolving = Evolving {
    name: "thrift-binary",
    family: features::THRIFT.family,
    rules: rules!("Binary protocol (fixed-width big-endian integers)."),
    trial: trial::<Binary>,
};

pub const COMPACT: Evolving = Evolving {
    name: "thrift-compact",
    family: features::THRIFT.family,
    rules: rules!("Compact protocol (zigzag varints for every integer width)."),
    trial: trial::<Compact>,
};

/// A Thrift protocol: how a record is written and read in it.
trait Protocol {
    fn write(value: &impl TSerializable) -> thrift::Result<Vec<u8>>;
    fn read<T: TSerializable>(bytes: &[u8]) -> thrift::Result<T>;
}

enum Binary {}
enum Compact {}

impl Protocol for Binary {
    fn write(value: &impl TSerializable) -> thrift::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        value.write_to_out_protocol(&mut TBinaryOutputProtocol::new(&mut bytes, true))?;
        Ok(bytes)
    }

    fn read<T: TSerializable>(mut bytes: &[u8]) -> thrift::Result<T> {
        T::read_from_in_protocol(&mut TBinaryInputProtocol::new(&mut bytes, true))
    }
}

impl Protocol for Compact {
    fn write(value: &impl TSerializable) -> thrift::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        let mut output = TCompactOutputProtocol::new(&mut bytes);
        value.write_to_out_protocol(&mut output)?;
        output.flush()?;
        Ok(bytes)
    }

    fn read<T: TSerializable>(mut bytes: &[u8]) -> thrift::Result<T> {
        T::read_from_in_protocol(&mut TCompactInputProtocol::new(&mut bytes))
    }
}

fn trial<P: Protocol>(
    change: Change,
    direction: Direction,
    records: &[UserV1],
) -> Result<Vec<View>> {
    use user_thrift as th;
    Versions {
        v1: version::<P, th::UserV1>(),
        add_field: version::<P, th::UserAddField>(),
        remove_field: version::<P, th::UserRemoveField>(),
        rename_field: version::<P, th::UserRenameField>(),
        widen_int: version::<P, th::UserWidenInt>(),
        reorder_fields: version::<P, th::UserReorderFields>(),
    }
    .trial(change, direction, records)
}

/// Struct `S` as a version in protocol `P`.
fn version<P: Protocol, S: TSerializable + VersionType>() -> Version {
    Version {
        write: |record| P::write(&S::write(record)).map_err(describe),
        read: |bytes| Ok(P::read::<S>(bytes).map_err(describe)?.view()),
    }
}

/// The crate's error with its message: a protocol error displays as its kind
/// alone ("protocol error").
fn describe(error: thrift::Error) -> anyhow::Error {
    match error {
        thrift::Error::Protocol(ref protocol) => anyhow!("{error}: {}", protocol.message),
        other => anyhow::Error::new(other),
    }
}

generated_versions!(user_thrift);

#[cfg(test)]
mod tests {
    use super::super::trial::assert_cells;
    use super::*;

    #[test]
    fn every_binary_cell_is_as_observed() {
        assert_cells(&BINARY, ["ok ok", "ok error", "ok ok", "error error", "ok ok"]);
    }

    #[test]
    fn every_compact_cell_is_as_observed() {
        assert_cells(&COMPACT, ["ok ok", "ok error", "ok ok", "ok ok", "ok ok"]);
    }
}
