//! What a study's measurement answers (`shootout-study-figures/1`,
//! spec/studies/README.md): the Go and JVM runners write it, Rust's own
//! studies build it, and `shootout study` reads it the same way for all.

use serde::{Deserialize, Serialize};

use super::published::{Column, Row};

pub const SCHEMA: &str = "shootout-study-figures/1";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Figures {
    pub schema: String,
    pub study: String,
    pub language: String,
    #[serde(default)]
    pub environment: serde_json::Value,
    /// The study's own method first (`study`), then the project's labelled ones.
    pub variants: Vec<Variant>,
    /// Further figures a conclusion check needs.
    #[serde(default)]
    pub facts: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    pub departures: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Variant {
    pub id: String,
    pub title: String,
    pub tables: Vec<Table>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Table {
    pub id: String,
    /// For a table the study did not publish; a published one takes the study's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Titles and units of the keys a published table of the same id lacks
    /// (a key with none is titled by its name).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

/// The variant that follows the study's method.
pub const STUDY_VARIANT: &str = "study";

impl Figures {
    pub fn variant(&self, id: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.id == id)
    }

    /// A table of the study's own variant.
    pub fn table(&self, id: &str) -> Option<&Table> {
        self.variant(STUDY_VARIANT)?.table(id)
    }

    pub fn fact(&self, name: &str) -> Option<f64> {
        self.facts.get(name).and_then(serde_json::Value::as_f64)
    }
}

impl Variant {
    pub fn table(&self, id: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.id == id)
    }
}

impl Table {
    pub fn row(&self, label: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.label == label)
    }

    pub fn value(&self, label: &str, key: &str) -> Option<f64> {
        self.row(label)?.value(key)
    }
}
