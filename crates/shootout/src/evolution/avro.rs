//! Avro through apache-avro: each version is a schema read at run time
//! (schemas/evolution/avro/), a record is one datum written with the writer's
//! schema, and the reader resolves it against its own schema, as the Avro
//! specification's schema resolution describes: fields matched by name, a
//! reader's field the writer lacks filled from its default, an int promoted to
//! a long.

use anyhow::{Context, Result, anyhow, bail};
use apache_avro::Schema;
use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::types::Value as Avro;
use apache_avro::writer::datum::GenericDatumWriter;

use super::{Change, Direction, Evolving, UserV1, Value, View, email_of};
use crate::format::features;
use crate::workload::fields::FieldRecord;
use crate::workload::user::UserResponse;

pub const EVOLVING: Evolving = Evolving {
    name: "avro-datum",
    family: features::AVRO.family,
    rules: "Avro binary datums, each read with the writer's schema and resolved against the \
            reader's (apache-avro's GenericDatumReader with a reader schema). v1 is the \
            registry's user.avsc (no defaults), tutorial an int. The added email is \
            [\"null\", \"string\"] with a null default; the removed nickname is simply gone, \
            which the spec allows a new reader but an old reader only if v1 had given it a \
            default (it did not); the renamed login_count carries the alias \
            \"total_login_num\", which the spec has a reader match against the writer's \
            names, though apache-avro 0.22 resolves fields by name only; tutorial widens \
            from int to long, a promotion the spec allows a reader (long to int it does \
            not, but apache-avro narrows a long that fits an int and rejects one that does \
            not); the reorder relies on fields being matched by name.",
    trial,
};

const V1: &str = include_str!("../../../../schemas/evolution/avro/user-v1.avsc");

fn v2(change: Change) -> &'static str {
    match change {
        Change::AddField => include_str!("../../../../schemas/evolution/avro/user-add-field.avsc"),
        Change::RemoveField => {
            include_str!("../../../../schemas/evolution/avro/user-remove-field.avsc")
        }
        Change::RenameField => {
            include_str!("../../../../schemas/evolution/avro/user-rename-field.avsc")
        }
        Change::WidenInt => include_str!("../../../../schemas/evolution/avro/user-widen-int.avsc"),
        Change::ReorderFields => {
            include_str!("../../../../schemas/evolution/avro/user-reorder-fields.avsc")
        }
    }
}

fn trial(change: Change, direction: Direction, records: &[UserV1]) -> Result<Vec<View>> {
    let old = Schema::parse_str(V1).context("schemas/evolution/avro/user-v1.avsc")?;
    let new = Schema::parse_str(v2(change)).context("a v2 schema")?;
    let (writer, reader) = match direction {
        Direction::OldToNew => (&old, &new),
        Direction::NewToOld => (&new, &old),
    };
    let write = GenericDatumWriter::builder(writer).build()?;
    let read = GenericDatumReader::builder(writer).reader_schema(reader).build()?;
    records
        .iter()
        .map(|record| {
            let bytes =
                write.write_value_to_vec(written(writer, record)?).context("the writer failed")?;
            let value = read.read_value(&mut bytes.as_slice()).context("the reader failed")?;
            view(value)
        })
        .collect()
}

/// What a writer with `schema` makes of `record`: each of the schema's fields
/// by name (its email is the record's [`email_of`]).
fn written(schema: &Schema, record: &UserV1) -> Result<Avro> {
    let Schema::Record(user) = schema else {
        bail!("the writer's schema is not a record");
    };
    let fields = user.fields.iter().map(|field| {
        let value = match field.name.as_str() {
            "uid" => Avro::Long(record.uid),
            "muid" => Avro::String(record.muid.clone()),
            "status" => Avro::String(record.status.clone()),
            "tutorial" if field.schema == Schema::Int => Avro::Int(record.tutorial),
            "tutorial" => Avro::Long(record.tutorial.into()),
            "nickname" => Avro::String(record.nickname.clone()),
            "total_login_num" | "login_count" => Avro::Long(record.total_login_num),
            "opened_at" => Avro::String(record.opened_at.clone()),
            "created_at" => Avro::String(record.created_at.clone()),
            "updated_at" => Avro::String(record.updated_at.clone()),
            // The branch of ["null", "string"] that holds a string.
            "email" => Avro::Union(1, Box::new(Avro::String(email_of(record)))),
            other => bail!("the writer's schema has a field {other} no version has"),
        };
        Ok((field.name.clone(), value))
    });
    Ok(Avro::Record(fields.collect::<Result<_>>()?))
}

/// The resolved record as the reader's view.
fn view(value: Avro) -> Result<View> {
    let Avro::Record(fields) = value else {
        bail!("the reader returned {value:?}, not a record");
    };
    fields
        .into_iter()
        .map(|(name, value)| {
            // Every field name of every version: v1's (user's), the renamed and the added one.
            let name = UserResponse::FIELDS
                .iter()
                .chain(&["login_count", "email"])
                .copied()
                .find(|known| *known == name)
                .ok_or_else(|| anyhow!("the reader returned a field {name} no version has"))?;
            let value = match value {
                Avro::Long(int) => Value::Int(int),
                Avro::Int(int) => Value::Int(int.into()),
                Avro::String(text) => Value::Text(text),
                Avro::Union(_, inner) => match *inner {
                    Avro::Null => Value::Absent,
                    Avro::String(text) => Value::Text(text),
                    other => bail!("field {name} is {other:?}"),
                },
                other => bail!("field {name} is {other:?}"),
            };
            Ok((name, value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::matrix::records;
    use super::super::trial::every_cell_is_as_observed;
    use super::*;

    every_cell_is_as_observed!(["ok ok", "ok error", "error error", "ok ok", "ok ok"]);

    #[test]
    fn the_rename_fails_on_the_aliased_field() {
        let error = trial(Change::RenameField, Direction::OldToNew, &records()).unwrap_err();
        assert!(format!("{error:#}").contains("login_count"), "{error:#}");
    }
}
