//! `mixed`, `strings`, `longs`: 100,000-record data sets of 20 optional fields,
//! after a Scala study of Java serialization, JSON, Avro, Protobuf, Thrift and
//! MessagePack in which output size decided as much as speed. Read from CSV
//! (header f1..f20, empty cell = absent) or generated.

use rand::RngExt;

#[cfg(test)]
use super::Dataset;
use super::fields::{FieldRecord, FieldSink, Fields, field_record};
use super::random::Random;
use crate::sanitize::elide;

/// One cell type of a tabular record.
pub trait Cell: Sized {
    /// Parses a non-empty CSV cell; the error says what was expected.
    fn parse(text: &str) -> Result<Self, String>;
    /// `parse` into `slot`, reusing what it holds where the type allows.
    fn parse_into(text: &str, slot: &mut Option<Self>) -> Result<(), String> {
        *slot = Some(Self::parse(text)?);
        Ok(())
    }
    fn write(&self, out: &mut String);
    fn visit(&self, field: usize, sink: &mut FieldSink);
    fn random(r: &mut Random) -> Self;
}

impl Cell for String {
    fn parse(text: &str) -> Result<Self, String> {
        Ok(text.to_owned())
    }
    fn parse_into(text: &str, slot: &mut Option<Self>) -> Result<(), String> {
        match slot {
            Some(s) => {
                s.clear();
                s.push_str(text);
            }
            None => *slot = Some(text.to_owned()),
        }
        Ok(())
    }
    fn write(&self, out: &mut String) {
        out.push_str(self);
    }
    fn visit(&self, field: usize, sink: &mut FieldSink) {
        sink.text(field, self.as_bytes());
    }
    fn random(r: &mut Random) -> Self {
        r.uuid()
    }
}

/// A number cell; a float names the check that its value is what its text says.
macro_rules! numeric_cell {
    ($t:ty, $what:literal, $visit:ident, $random:expr $(, $in_range:ident)?) => {
        impl Cell for $t {
            fn parse(text: &str) -> Result<Self, String> {
                let value: $t = text
                    .parse()
                    .map_err(|_| format!("'{}' is not {}", elide(text), $what))?;
                $(
                    if !$in_range(text, value.into()) {
                        return Err(format!(
                            "'{}' is beyond the range of {} (it would read as infinity; write inf for infinity)",
                            elide(text),
                            $what
                        ));
                    }
                )?
                Ok(value)
            }
            fn write(&self, out: &mut String) {
                use std::fmt::Write;
                write!(out, "{self}").expect("writing to a String");
            }
            fn visit(&self, field: usize, sink: &mut FieldSink) {
                sink.$visit(field, (*self).into());
            }
            fn random(r: &mut Random) -> Self {
                $random(r)
            }
        }
    };
}

numeric_cell!(i64, "a 64-bit integer", int, |r: &mut Random| r.rng().random());
numeric_cell!(i32, "a 32-bit integer", int, |r: &mut Random| r.rng().random());
numeric_cell!(
    f64,
    "a 64-bit float",
    float,
    |r: &mut Random| r.rng().random_range(-1e6..1e6),
    in_range
);
numeric_cell!(
    f32,
    "a 32-bit float",
    float,
    |r: &mut Random| r.rng().random_range(-1e3f32..1e3),
    in_range
);

/// Whether a parsed cell holds what its text says. An integer out of range
/// does not parse; a float out of range parses to infinity, and is refused
/// the same way. NaN and infinity written as such (`NaN`, `inf`, `-infinity`)
/// are values a CSV can state: they are kept, and a format that cannot carry
/// them fails on them, by name.
fn in_range(text: &str, value: f64) -> bool {
    let written = text.trim_start_matches(['+', '-']);
    !value.is_infinite() || written.get(..3).is_some_and(|s| s.eq_ignore_ascii_case("inf"))
}

/// A cell of a row's rkyv archive (`rkyv::Archived<T>` of a [`Cell`] type),
/// reported to the sink as the owned cell would be.
pub trait ArchivedCell {
    fn visit(&self, field: usize, sink: &mut FieldSink);
}

impl ArchivedCell for rkyv::string::ArchivedString {
    fn visit(&self, field: usize, sink: &mut FieldSink) {
        sink.text(field, self.as_bytes());
    }
}

macro_rules! archived_numeric_cell {
    ($t:ty, $visit:ident) => {
        impl ArchivedCell for $t {
            fn visit(&self, field: usize, sink: &mut FieldSink) {
                sink.$visit(field, self.to_native().into());
            }
        }
    };
}

// rkyv's default little-endian archived numbers (`rkyv::Archived<i64>` etc.).
archived_numeric_cell!(rkyv::rend::i64_le, int);
archived_numeric_cell!(rkyv::rend::i32_le, int);
archived_numeric_cell!(rkyv::rend::f64_le, float);
archived_numeric_cell!(rkyv::rend::f32_le, float);

/// A cell as a format's generated table reader returns it (flatbuffers,
/// planus, bebop): an optional string, or an optional number of the row's cell
/// type, reported to the sink as the owned cell would be.
pub trait TableCell {
    fn visit(self, field: usize, sink: &mut FieldSink);
}

impl TableCell for Option<&str> {
    #[inline]
    fn visit(self, field: usize, sink: &mut FieldSink) {
        if let Some(text) = self {
            sink.text(field, text.as_bytes());
        }
    }
}

impl<T: Cell> TableCell for Option<T> {
    #[inline]
    fn visit(self, field: usize, sink: &mut FieldSink) {
        if let Some(value) = self {
            value.visit(field, sink);
        }
    }
}

/// The field names every tabular CSV has, in order.
pub const HEADER: [&str; 20] = [
    "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15",
    "f16", "f17", "f18", "f19", "f20",
];

/// A tabular record type: 20 optional cells, by position.
pub trait Row: FieldRecord + Default + Sized {
    /// Overwrites the row with `cells`, reusing its strings. `cells` has exactly
    /// 20 entries; on error, (0-based column, problem).
    fn parse_into(&mut self, cells: &[&str]) -> Result<(), (usize, String)>;
    fn write(&self, out: &mut String);
    fn random(r: &mut Random, presence: f64) -> Self;
}

/// Defines a row type from its columns (see [`tabular_columns`]). Besides the
/// row, it generates `visit_archived`, the same visit over the row's rkyv archive.
macro_rules! tabular {
    ($name:ident, $workload:literal { $($field:ident = $n:tt: $t:ty),+ $(,)? }) => {
        field_record! {
            #[derive(Default)]
            pub struct $name {
                $(#[n($n)] pub $field: Option<$t>,)+
            }
        }

        impl $name {
            /// `visit` over the rkyv archive of a row, read in place.
            pub fn visit_archived(archived: &<$name as rkyv::Archive>::Archived, sink: &mut FieldSink) {
                sink.record();
                let mut field = 0;
                $(
                    if let Some(value) = archived.$field.as_ref() {
                        ArchivedCell::visit(value, field, sink);
                    }
                    field += 1;
                )+
                debug_assert_eq!(field, 20);
            }
        }

        impl FieldRecord for $name {
            const WORKLOAD: &'static str = $workload;
            const FIELDS: &'static [&'static str] = &HEADER;

            fn visit(&self, sink: &mut FieldSink) {
                sink.record();
                let mut field = 0;
                $(
                    if let Some(value) = &self.$field {
                        value.visit(field, sink);
                    }
                    field += 1;
                )+
                debug_assert_eq!(field, 20);
            }
        }

        impl Row for $name {
            fn parse_into(&mut self, cells: &[&str]) -> Result<(), (usize, String)> {
                let mut cells = cells.iter().enumerate();
                $(
                    let (column, text) = cells.next().expect("20 cells");
                    if text.is_empty() {
                        self.$field = None;
                    } else {
                        <$t as Cell>::parse_into(text, &mut self.$field).map_err(|e| (column, e))?;
                    }
                )+
                Ok(())
            }

            fn write(&self, out: &mut String) {
                let mut first = true;
                $(
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    if let Some(value) = &self.$field {
                        value.write(out);
                    }
                )+
                let _ = first;
                out.push('\n');
            }

            fn random(r: &mut Random, presence: f64) -> Self {
                $name {
                    $($field: if r.rng().random_bool(presence) { Some(<$t as Cell>::random(r)) } else { None },)+
                }
            }
        }
    };
}

/// The columns of each row type, in order: `field = index: Type`, where `index`
/// is the field's position (minicbor's `#[n(index)]`). They are written here
/// once, and handed to a macro: `tabular_columns!(MixedRow => then!(args))`
/// expands to `then!(args { f1 = 0: String, ... });`. The rows below are
/// defined this way, and so are the formats' row mappings (a format's macro
/// tells a text cell by its type `String`).
macro_rules! tabular_columns {
    (MixedRow => $then:ident!($($args:tt)*)) => {
        $then!($($args)* {
            f1 = 0: String, f2 = 1: f64, f3 = 2: i64, f4 = 3: i32, f5 = 4: String,
            f6 = 5: f64, f7 = 6: i64, f8 = 7: i32, f9 = 8: i32, f10 = 9: i64,
            f11 = 10: f32, f12 = 11: f64, f13 = 12: String, f14 = 13: String, f15 = 14: i64,
            f16 = 15: i32, f17 = 16: i32, f18 = 17: String, f19 = 18: String, f20 = 19: String,
        });
    };
    (StringsRow => $then:ident!($($args:tt)*)) => {
        $then!($($args)* {
            f1 = 0: String, f2 = 1: String, f3 = 2: String, f4 = 3: String, f5 = 4: String,
            f6 = 5: String, f7 = 6: String, f8 = 7: String, f9 = 8: String, f10 = 9: String,
            f11 = 10: String, f12 = 11: String, f13 = 12: String, f14 = 13: String,
            f15 = 14: String, f16 = 15: String, f17 = 16: String, f18 = 17: String,
            f19 = 18: String, f20 = 19: String,
        });
    };
    (LongsRow => $then:ident!($($args:tt)*)) => {
        $then!($($args)* {
            f1 = 0: i64, f2 = 1: i64, f3 = 2: i64, f4 = 3: i64, f5 = 4: i64,
            f6 = 5: i64, f7 = 6: i64, f8 = 7: i64, f9 = 8: i64, f10 = 9: i64,
            f11 = 10: i64, f12 = 11: i64, f13 = 12: i64, f14 = 13: i64, f15 = 14: i64,
            f16 = 15: i64, f17 = 16: i64, f18 = 17: i64, f19 = 18: i64, f20 = 19: i64,
        });
    };
}

pub(crate) use tabular_columns;

/// A row's cell (`$value`, an `Option` of the column's type `$t`) as the
/// generated builders and types of planus and bebop take it: a text cell
/// (`String` column) borrowed as `Option<&str>`, a number cell copied. For
/// the formats' row macros, which get each column's type from `tabular_columns!`.
macro_rules! borrowed_cell {
    (String, $value:expr) => {
        $value.as_deref()
    };
    ($number:ident, $value:expr) => {
        $value
    };
}
pub(crate) use borrowed_cell;

tabular_columns!(MixedRow => tabular!(MixedRow, "mixed"));
tabular_columns!(StringsRow => tabular!(StringsRow, "strings"));
tabular_columns!(LongsRow => tabular!(LongsRow, "longs"));

pub type Mixed = Fields<MixedRow>;
pub type Strings = Fields<StringsRow>;
pub type Longs = Fields<LongsRow>;

/// Probability that a generated cell is present ("sparse" by default).
pub const DEFAULT_PRESENCE: f64 = 0.5;
pub const DEFAULT_RECORDS: usize = 100_000;

pub fn generate_rows<R: Row>(records: usize, seed: u64, presence: f64) -> Vec<R> {
    rows(seed, presence).take(records).collect()
}

/// Generated rows one at a time, without end: the first `n` are those of
/// `generate_rows(n, seed, presence)`.
pub fn rows<R: Row>(seed: u64, presence: f64) -> impl Iterator<Item = R> {
    let mut r = Random::new(seed);
    std::iter::repeat_with(move || R::random(&mut r, presence))
}

/// Rows in file order, with the reference aggregate.
#[cfg(test)]
pub fn dataset<R: Row>(rows: Vec<R>, source: String) -> Dataset<Fields<R>> {
    let order = (0..rows.len() as u32).collect();
    Dataset::of_records(rows, order, source)
}

/// Generated rows plus an all-absent and an all-present row, for codec tests.
#[cfg(test)]
pub fn sample<R: Row + Default>() -> Dataset<Fields<R>> {
    let mut rows: Vec<R> = generate_rows(40, 3, DEFAULT_PRESENCE);
    rows.push(R::default());
    rows.extend(generate_rows::<R>(2, 4, 1.0));
    dataset(rows, "sample".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_write_and_parse_back_exactly() {
        let rows: Vec<MixedRow> = generate_rows(200, 4, 0.5);
        for row in &rows {
            let mut line = String::new();
            row.write(&mut line);
            let cells: Vec<&str> = line.trim_end().split(',').collect();
            let mut parsed = MixedRow::default();
            parsed.parse_into(&cells).unwrap();
            assert_eq!(parsed, *row);
        }
        let present: usize = rows
            .iter()
            .map(|r| {
                [r.f1.is_some(), r.f2.is_some(), r.f11.is_some()].iter().filter(|p| **p).count()
            })
            .sum();
        assert!((200..400).contains(&present), "about half present: {present}");
    }

    #[test]
    fn aggregate_counts_present_cells_per_column() {
        let rows: Vec<MixedRow> = generate_rows(400, 6, 0.5);
        let agg = dataset(rows.clone(), "t".into()).reference;
        assert_eq!(agg.records, 400);
        assert_eq!(agg.fields["f1"].present, rows.iter().filter(|r| r.f1.is_some()).count() as u64);
        assert_eq!(
            agg.fields["f3"].int_sum,
            rows.iter().filter_map(|r| r.f3).fold(0i64, i64::wrapping_add)
        );
        assert_eq!(
            agg.fields["f11"].present,
            rows.iter().filter(|r| r.f11.is_some()).count() as u64
        );
        let f5_bytes: usize = rows.iter().filter_map(|r| r.f5.as_ref()).map(String::len).sum();
        assert_eq!(agg.fields["f5"].text_bytes, f5_bytes as u64);
    }

    #[test]
    fn presence_zero_and_one() {
        let none: Vec<LongsRow> = generate_rows(10, 1, 0.0);
        assert!(none.iter().all(|r| *r == LongsRow::default()));
        let all: Vec<StringsRow> = generate_rows(10, 1, 1.0);
        assert!(
            all.iter().all(|r| r.f1.as_ref().is_some_and(|s| s.len() == 36) && r.f20.is_some())
        );
    }

    #[test]
    fn bad_cells_name_their_column() {
        let mut cells = vec![""; 20];
        cells[2] = "12x";
        let (column, problem) = MixedRow::default().parse_into(&cells).unwrap_err();
        assert_eq!(column, 2);
        assert_eq!(problem, "'12x' is not a 64-bit integer");
    }

    #[test]
    fn a_float_beyond_its_range_is_refused_as_an_overflowing_integer_is() {
        assert_eq!(
            f64::parse("1e400").unwrap_err(),
            "'1e400' is beyond the range of a 64-bit float (it would read as infinity; write inf for infinity)"
        );
        assert!(f64::parse("-1e400").is_err());
        assert!(f32::parse("1e39").unwrap_err().contains("a 32-bit float"));
        assert_eq!(f32::parse("3.4e38"), Ok(3.4e38));
        assert_eq!(
            i64::parse("9223372036854775808").unwrap_err(),
            "'9223372036854775808' is not a 64-bit integer"
        );
        for stated in ["inf", "-inf", "+Infinity", "INF"] {
            assert!(f64::parse(stated).unwrap().is_infinite(), "{stated}");
        }
        assert!(f64::parse("NaN").unwrap().is_nan());
    }

    #[test]
    fn parsing_into_a_row_reuses_its_strings_and_clears_absent_cells() {
        let mut row = StringsRow::default();
        let mut cells = vec!["a long first value"; 20];
        row.parse_into(&cells).unwrap();
        let buffer = row.f1.as_ref().unwrap().as_ptr();
        cells[0] = "short";
        cells[1] = "";
        row.parse_into(&cells).unwrap();
        assert_eq!(row.f1.as_deref(), Some("short"));
        assert_eq!(row.f1.as_ref().unwrap().as_ptr(), buffer);
        assert_eq!(row.f2, None);
    }
}
