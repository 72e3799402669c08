//! Runs every format's trials and classifies what each reader saw against what
//! it should have seen.

use serde::{Deserialize, Serialize};

use super::{Change, Direction, Evolving, UserV1, Value, View};
use crate::caught::quietly;
use crate::workload::user;

/// Seed of the generated records; the same seed gives the same matrix.
const SEED: u64 = 13;
/// Generated records, before the edge cases.
const GENERATED: usize = 24;

/// A few dozen `user` records: generated ones (`tutorial` narrowed to int32)
/// and the edges a reader can get wrong: empty and non-ASCII text, the
/// extremes of every integer.
pub fn records() -> Vec<UserV1> {
    let generated = user::generate(0, SEED).records.into_iter().take(GENERATED);
    let mut records: Vec<UserV1> = generated
        .map(|u| UserV1 {
            uid: u.uid,
            muid: u.muid,
            status: u.status,
            tutorial: i32::try_from(u.tutorial).expect("generated tutorials are below 100"),
            nickname: u.nickname,
            total_login_num: u.total_login_num,
            opened_at: u.opened_at,
            created_at: u.created_at,
            updated_at: u.updated_at,
        })
        .collect();
    let edge = |uid, tutorial, total_login_num, text: &str| UserV1 {
        uid,
        muid: text.to_owned(),
        status: text.to_owned(),
        tutorial,
        nickname: text.to_owned(),
        total_login_num,
        opened_at: text.to_owned(),
        created_at: text.to_owned(),
        updated_at: text.to_owned(),
    };
    records.extend([
        edge(0, 0, 0, ""),
        edge(i64::MIN, i32::MIN, i64::MAX, "ünïcödé ✓ 日本語 🦀"),
        edge(i64::MAX, i32::MAX, i64::MIN, &"x".repeat(300)),
        edge(-1, -1, -1, "quote\" back\\slash\nnul\0"),
        UserV1 { nickname: String::new(), ..edge(1 << 53, 1, 1 << 40, "activ") },
    ]);
    records
}

/// What a reader of the other version should see of `record`, and the one
/// field (if any) the data did not carry, which may read as absent or as its
/// default.
fn expected(change: Change, direction: Direction, record: &UserV1) -> (View, Option<&'static str>) {
    let mut view = View::from([
        ("uid", Value::Int(record.uid)),
        ("muid", Value::Text(record.muid.clone())),
        ("status", Value::Text(record.status.clone())),
        ("tutorial", Value::Int(record.tutorial.into())),
        ("nickname", Value::Text(record.nickname.clone())),
        ("total_login_num", Value::Int(record.total_login_num)),
        ("opened_at", Value::Text(record.opened_at.clone())),
        ("created_at", Value::Text(record.created_at.clone())),
        ("updated_at", Value::Text(record.updated_at.clone())),
    ]);
    let mut missing = None;
    match (change, direction) {
        (Change::AddField, Direction::OldToNew) => {
            view.insert("email", Value::Absent);
            missing = Some("email");
        }
        (Change::RemoveField, Direction::OldToNew) => {
            view.remove("nickname");
        }
        (Change::RemoveField, Direction::NewToOld) => {
            view.insert("nickname", Value::Absent);
            missing = Some("nickname");
        }
        (Change::RenameField, Direction::OldToNew) => {
            let count = view.remove("total_login_num").expect("a v1 field");
            view.insert("login_count", count);
        }
        _ => {}
    }
    (view, missing)
}

/// What one cell of the matrix found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum Outcome {
    /// Every record read back as expected.
    Ok,
    /// The reader (or writer) refused, with this message.
    Error { message: String },
    /// Read without complaint, but wrong: the first wrong field of the first
    /// wrong record (by index in the records).
    Silent { record: usize, field: String, expected: Value, got: Value },
    /// The library panicked, with this message.
    Panic { message: String },
}

impl Outcome {
    pub fn class(&self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Error { .. } => "error",
            Outcome::Silent { .. } => "silent",
            Outcome::Panic { .. } => "panic",
        }
    }

    /// The finding in one line (empty for `ok`).
    pub fn detail(&self) -> String {
        match self {
            Outcome::Ok => String::new(),
            Outcome::Error { message } => message.clone(),
            Outcome::Silent { record, field, expected, got } => format!(
                "record {record}, field {field}: expected {}, got {}",
                shown(expected),
                shown(got)
            ),
            Outcome::Panic { message } => message.clone(),
        }
    }
}

fn shown(value: &Value) -> String {
    const LONGEST: usize = 40;
    match value {
        Value::Int(i) => i.to_string(),
        Value::Text(text) if text.chars().count() > LONGEST => {
            let head: String = text.chars().take(LONGEST).collect();
            format!("{head:?}… ({} bytes)", text.len())
        }
        Value::Text(text) => format!("{text:?}"),
        Value::Absent => "absent".to_owned(),
    }
}

/// Compares what a reader saw of each record with what it should have seen.
pub fn classify(
    change: Change,
    direction: Direction,
    records: &[UserV1],
    result: anyhow::Result<Vec<View>>,
) -> Outcome {
    let views = match result {
        Ok(views) => views,
        Err(error) => {
            return Outcome::Error { message: one_line(&error) };
        }
    };
    if views.len() != records.len() {
        return Outcome::Silent {
            record: views.len().min(records.len()),
            field: "(records read back)".to_owned(),
            expected: Value::Int(records.len() as i64),
            got: Value::Int(views.len() as i64),
        };
    }
    for (index, (record, view)) in records.iter().zip(&views).enumerate() {
        let (expected, missing) = expected(change, direction, record);
        let fields = expected.keys().chain(view.keys().filter(|k| !expected.contains_key(*k)));
        for field in fields {
            let want = expected.get(field).unwrap_or(&Value::Absent);
            let got = view.get(field).unwrap_or(&Value::Absent);
            let defaulted = missing == Some(*field) && is_default(got);
            if got != want && !defaulted {
                return Outcome::Silent {
                    record: index,
                    field: (*field).to_owned(),
                    expected: want.clone(),
                    got: got.clone(),
                };
            }
        }
    }
    Outcome::Ok
}

/// An error and its causes on one line, skipping a cause its parent's message
/// already quotes (rkyv's errors repeat their source).
fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain().map(ToString::to_string) {
        if !line.ends_with(&cause) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&cause);
        }
    }
    line.replace('\n', " ")
}

/// The default a format may fill a missing field with: the fields v1 or v2
/// can lack (`email`, `nickname`) are text.
fn is_default(value: &Value) -> bool {
    matches!(value, Value::Text(text) if text.is_empty())
}

/// How many records read back in each class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub ok: usize,
    pub error: usize,
    pub silent: usize,
    pub panic: usize,
}

/// One (change, direction) of one format. Each record is tried on its own, so
/// one record's error cannot hide another's silent misreading: the cell's
/// outcome is its worst record's (silent, then panic, then error), with the
/// first such record's detail.
#[derive(Debug, Serialize, Deserialize)]
pub struct Cell {
    pub change: Change,
    pub direction: Direction,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub records: Counts,
}

impl Cell {
    fn of(format: &Evolving, change: Change, direction: Direction, records: &[UserV1]) -> Cell {
        let mut counts = Counts::default();
        let mut worst = Outcome::Ok;
        for (index, record) in records.iter().enumerate() {
            let one = std::slice::from_ref(record);
            let outcome = match quietly(|| (format.trial)(change, direction, one)) {
                Ok(result) => classify(change, direction, one, result),
                Err(message) => Outcome::Panic { message },
            };
            let count = match &outcome {
                Outcome::Ok => &mut counts.ok,
                Outcome::Error { .. } => &mut counts.error,
                Outcome::Silent { .. } => &mut counts.silent,
                Outcome::Panic { .. } => &mut counts.panic,
            };
            *count += 1;
            if severity(&outcome) > severity(&worst) {
                worst = at_record(outcome, index);
            }
        }
        Cell { change, direction, outcome: worst, records: counts }
    }
}

/// The classes of outcome, the least dangerous first: a cell whose records
/// differ reports the most dangerous.
const SEVERITY: [&str; 4] = ["ok", "error", "panic", "silent"];

fn severity(outcome: &Outcome) -> usize {
    SEVERITY.iter().position(|class| *class == outcome.class()).expect("every class is ranked")
}

impl Counts {
    /// The records counted in `class`.
    fn of(&self, class: &str) -> usize {
        match class {
            "ok" => self.ok,
            "error" => self.error,
            "panic" => self.panic,
            _silent => self.silent,
        }
    }

    /// The class of the most dangerous record counted: its cell's outcome.
    pub fn worst(&self) -> &'static str {
        SEVERITY.into_iter().rev().find(|class| self.of(class) > 0).unwrap_or("ok")
    }
}

/// A single record's outcome placed at its index among all the records.
fn at_record(outcome: Outcome, index: usize) -> Outcome {
    match outcome {
        Outcome::Silent { field, expected, got, .. } => {
            Outcome::Silent { record: index, field, expected, got }
        }
        Outcome::Error { message } => {
            Outcome::Error { message: format!("record {index}: {message}") }
        }
        Outcome::Panic { message } => {
            Outcome::Panic { message: format!("record {index}: {message}") }
        }
        Outcome::Ok => Outcome::Ok,
    }
}

/// One format's row of the matrix.
#[derive(Debug, Serialize, Deserialize)]
pub struct Row {
    pub name: String,
    pub family: String,
    pub rules: String,
    pub cells: Vec<Cell>,
}

/// Every change in both directions for each format.
pub fn run(formats: &[&Evolving], records: &[UserV1]) -> Vec<Row> {
    formats
        .iter()
        .map(|format| Row {
            name: format.name.to_owned(),
            family: format.family.to_owned(),
            rules: format.rules.to_owned(),
            cells: Change::ALL
                .into_iter()
                .flat_map(|change| Direction::ALL.map(|direction| (change, direction)))
                .map(|(change, direction)| Cell::of(format, change, direction, records))
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::anyhow;

    fn v1_views(records: &[UserV1]) -> Vec<View> {
        records.iter().map(|r| expected(Change::WidenInt, Direction::NewToOld, r).0).collect()
    }

    #[test]
    fn records_hold_the_edges() {
        let records = records();
        assert!(records.len() >= 24);
        assert!(records.iter().any(|r| r.uid == i64::MIN));
        assert!(records.iter().any(|r| r.uid == i64::MAX));
        assert!(records.iter().any(|r| r.tutorial == i32::MIN));
        assert!(records.iter().any(|r| r.muid.is_empty()));
        assert!(records.iter().any(|r| !r.status.is_ascii()));
        assert_eq!(records, super::records(), "deterministic");
    }

    #[test]
    fn equal_views_are_ok() {
        let records = records();
        let views = v1_views(&records);
        let outcome = classify(Change::WidenInt, Direction::NewToOld, &records, Ok(views));
        assert_eq!(outcome, Outcome::Ok);
    }

    #[test]
    fn a_missing_optional_field_may_be_absent_or_default() {
        let records = records();
        for email in [Value::Absent, Value::Text(String::new())] {
            let views = v1_views(&records)
                .into_iter()
                .map(|mut v| {
                    v.insert("email", email.clone());
                    v
                })
                .collect();
            let outcome = classify(Change::AddField, Direction::OldToNew, &records, Ok(views));
            assert_eq!(outcome, Outcome::Ok, "email {email:?}");
        }
    }

    #[test]
    fn a_wrong_value_is_silent_at_its_record_and_field() {
        let records = records();
        let mut views = v1_views(&records);
        views[3].insert("tutorial", Value::Int(1 << 40));
        views[5].insert("muid", Value::Text("wrong".into()));
        let outcome = classify(Change::ReorderFields, Direction::OldToNew, &records, Ok(views));
        assert_eq!(
            outcome,
            Outcome::Silent {
                record: 3,
                field: "tutorial".into(),
                expected: Value::Int(records[3].tutorial.into()),
                got: Value::Int(1 << 40),
            }
        );
    }

    #[test]
    fn a_field_the_reader_lacks_or_invents_is_silent() {
        let records = records();
        let mut views = v1_views(&records);
        views[0].remove("status");
        let outcome = classify(Change::WidenInt, Direction::OldToNew, &records, Ok(views));
        assert!(
            matches!(&outcome, Outcome::Silent { field, got: Value::Absent, .. } if field == "status"),
            "{outcome:?}"
        );
        // The old name read by a renamed reader is a field it should not have.
        let views = v1_views(&records);
        let outcome = classify(Change::RenameField, Direction::OldToNew, &records, Ok(views));
        assert!(
            matches!(&outcome, Outcome::Silent { field, .. } if field == "login_count"),
            "{outcome:?}"
        );
    }

    #[test]
    fn a_reader_error_is_an_error_with_its_message() {
        let records = records();
        let outcome = classify(
            Change::RemoveField,
            Direction::NewToOld,
            &records,
            Err(anyhow!("missing field `nickname`").context("record 0: the reader failed")),
        );
        assert_eq!(
            outcome,
            Outcome::Error {
                message: "record 0: the reader failed: missing field `nickname`".into()
            }
        );
    }

    fn panicking_trial(_: Change, _: Direction, _: &[UserV1]) -> anyhow::Result<Vec<View>> {
        panic!("the reader fell over")
    }

    #[test]
    fn a_panic_is_caught_with_its_message() {
        let format = Evolving {
            name: "panicking",
            family: "test",
            rules: "panics on every trial",
            trial: panicking_trial,
        };
        let rows = run(&[&format], &records());
        assert_eq!(rows[0].cells.len(), Change::ALL.len() * Direction::ALL.len());
        for cell in &rows[0].cells {
            match &cell.outcome {
                Outcome::Panic { message } => {
                    assert!(message.starts_with("record 0: the reader fell over (at "), "{message}")
                }
                other => panic!("expected a panic, got {other:?}"),
            }
        }
    }

    /// Reads the extreme-uid record as a panic, the non-ASCII one wrongly,
    /// and errs on the rest.
    fn mixed_trial(
        change: Change,
        direction: Direction,
        records: &[UserV1],
    ) -> anyhow::Result<Vec<View>> {
        let record = &records[0];
        if record.uid == i64::MAX {
            panic!("overflow");
        }
        if !record.status.is_ascii() {
            let mut view = expected(change, direction, record).0;
            view.insert("status", Value::Text("mojibake".into()));
            return Ok(vec![view]);
        }
        anyhow::bail!("refused")
    }

    #[test]
    fn a_cell_reports_its_most_dangerous_record_and_counts_them_all() {
        let format = Evolving {
            name: "mixed",
            family: "test",
            rules: "differs per record",
            trial: mixed_trial,
        };
        let records = records();
        let rows = run(&[&format], &records);
        let cell = &rows[0].cells[0];
        let silent_at = records.iter().position(|r| !r.status.is_ascii()).unwrap();
        assert!(
            matches!(&cell.outcome, Outcome::Silent { record, field, .. } if *record == silent_at && field == "status"),
            "{cell:?}"
        );
        assert_eq!(cell.records, Counts { ok: 0, error: records.len() - 2, silent: 1, panic: 1 });
    }
}
