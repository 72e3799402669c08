//! What each study's document publishes, as `spec/studies/<name>.json` holds
//! it (spec/studies/README.md): its tables, conclusions and open questions.
//! Compiled in, so `shootout study` needs nothing beside the binary.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

/// A study's published tables and claims.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    pub schema: String,
    pub name: String,
    pub title: String,
    /// The document's file name in `../shared/studies/`.
    pub document: String,
    pub language: String,
    pub method: String,
    pub machine: String,
    pub tables: Vec<PublishedTable>,
    pub conclusions: Vec<Claim>,
    pub open_questions: Vec<Question>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedTable {
    pub id: String,
    pub title: String,
    /// The document and section the figures come from.
    pub source: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Column {
    pub key: String,
    pub title: String,
    pub unit: String,
    /// The decimals the document prints its figures of this column with
    /// (14.80, not 14.8); none for a column of text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decimals: Option<usize>,
    /// The key of each figure's error (JMH's 99.9 % half-width), shown as ±.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why ours/study means nothing in this column (e.g. totals of inputs of
    /// other sizes): no ratio is shown, this is said instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomparable: Option<String>,
}

impl Column {
    /// A column of ours: its figures shown to three significant figures, with no error.
    pub fn new(key: &str, title: &str, unit: &str) -> Column {
        Column {
            key: key.into(),
            title: title.into(),
            unit: unit.into(),
            decimals: None,
            error: None,
            incomparable: None,
        }
    }
}

/// One row of figures: a value the study does not give is absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub label: String,
    /// Column key → value (a number, or text in a table of words), in the order written.
    pub values: serde_json::Map<String, serde_json::Value>,
    /// A measured figure's value in each run (key → runs), where the runs'
    /// spread decides a comparison; a published row has none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub runs: BTreeMap<String, Vec<f64>>,
}

impl Row {
    pub fn new(label: &str, values: serde_json::Value) -> Row {
        let serde_json::Value::Object(values) = values else {
            panic!("a row's values are an object, not {values}")
        };
        Row { label: label.to_owned(), values, runs: BTreeMap::new() }
    }

    pub fn value(&self, key: &str) -> Option<f64> {
        self.values.get(key).and_then(serde_json::Value::as_f64)
    }

    pub fn text(&self, key: &str) -> Option<&str> {
        self.values.get(key).and_then(serde_json::Value::as_str)
    }

    /// The per-run values of `key`: empty when the runs were not given.
    pub fn runs(&self, key: &str) -> &[f64] {
        self.runs.get(key).map_or(&[], Vec::as_slice)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub id: String,
    pub claim: String,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: String,
    pub question: String,
    pub source: String,
}

pub const SCHEMA: &str = "shootout-study/1";

impl Published {
    pub fn parse(name: &str, text: &str) -> Result<Published> {
        let published: Published = serde_json::from_str(text)
            .with_context(|| format!("spec/studies/{name}.json is not a {SCHEMA} file"))?;
        if published.schema != SCHEMA || published.name != name {
            bail!(
                "spec/studies/{name}.json: schema {} and name {}, expected {SCHEMA} and {name}",
                published.schema,
                published.name
            );
        }
        Ok(published)
    }

    pub fn table(&self, id: &str) -> Option<&PublishedTable> {
        self.tables.iter().find(|t| t.id == id)
    }

    /// The claim `id` as the document states it.
    pub fn claim<'a>(&'a self, id: &'a str) -> &'a str {
        self.conclusions.iter().find(|c| c.id == id).map_or(id, |c| c.claim.as_str())
    }

    pub fn question<'a>(&'a self, id: &'a str) -> &'a str {
        self.open_questions.iter().find(|q| q.id == id).map_or(id, |q| q.question.as_str())
    }
}

impl PublishedTable {
    pub fn row(&self, label: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.label == label)
    }
}
