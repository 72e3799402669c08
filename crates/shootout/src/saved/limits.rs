//! What a JSON file from outside may hold, checked in one pass over its text
//! before anything is built from it: how deep it nests, how long its strings,
//! arrays and objects are, how many values its free-form parts hold, which
//! numbers may be negative and how large some may be. Whatever a file says,
//! reading it then costs memory of a small multiple of its size; the limits
//! are far beyond anything a run writes (docs/results.md).

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::document::HISTOGRAM_LIMITS;
use crate::input::source::{ATTACHMENT_FILE, Cap, RESULTS_FILE};
use crate::sanitize::excerpt;

pub struct Limits {
    /// What the file should be, as errors say.
    pub document: &'static str,
    /// Its size, read whole.
    pub file: Cap,
    /// Containers inside containers, the outermost one included.
    pub depth: usize,
    /// Keys of one object, and characters of one key.
    pub keys: usize,
    pub key_chars: usize,
    /// Characters of a string, by the key that holds it (an array's strings:
    /// the array's key); `chars` for any other.
    pub chars_by_key: &'static [(&'static str, usize)],
    pub chars: usize,
    /// Elements of an array, by its key; `elements` for any other.
    pub elements_by_key: &'static [(&'static str, usize)],
    pub elements: usize,
    /// The values read as free-form JSON: a `serde_json::Value` takes up to
    /// 16 times its text (`[0,0,…]`), so their number is capped in all.
    pub free_form: FreeForm,
    pub free_values: usize,
    /// Numbers outside the free-form parts are counts, sizes, times and
    /// ratios: none is negative except under these keys.
    pub negative_keys: &'static [&'static str],
    /// The largest integer a key may hold, where a reader allocates by it.
    pub largest_by_key: &'static [(&'static str, u64)],
}

pub enum FreeForm {
    /// The whole document is free-form (`--attach`'s matrices, embedded as they are).
    Everything,
    /// The values under these keys.
    Under(&'static [&'static str]),
}

impl FreeForm {
    /// The parts, as an error names them.
    fn keys(&self) -> String {
        match self {
            FreeForm::Everything => "the whole file".to_owned(),
            FreeForm::Under(keys) => keys.join(", "),
        }
    }
}

/// Names of formats, families, libraries and languages are shown whole in
/// every table, and `recommend` pads its columns to the longest: registered
/// names are under 40 characters.
const NAME_CHARS: usize = 200;

/// A results file (docs/results-schema.md).
pub const RESULTS: Limits = Limits {
    document: "a shootout results file (shootout-results/3, shootout-results/2 or shootout-results-set/1)",
    file: RESULTS_FILE,
    // The schema nests 6 deep (a set's results[].formats[].features.traits).
    depth: 16,
    keys: 1_000,
    key_chars: 256,
    chars_by_key: &[
        ("name", NAME_CHARS),
        ("family", NAME_CHARS),
        ("library", NAME_CHARS),
        ("library_version", NAME_CHARS),
        ("language", NAME_CHARS),
        ("histogram", HISTOGRAM_LIMITS.base64_chars()),
    ],
    // Notes and warnings are a few hundred characters, paths at most 4,096.
    chars: 16 * 1024,
    elements_by_key: &[
        // One per measured run: --runs allows 10,000 in one process.
        ("runs", 100_000),
        // Each registry has about 30; a set holds one part per runner.
        ("formats", 1_000),
        ("failed", 1_000),
        ("not_run", 1_000),
        ("results", 64),
    ],
    elements: 10_000,
    // The machine, the options, a format's labels and feature row: a few hundred values each.
    free_form: FreeForm::Under(&["environment", "options", "labels", "features"]),
    free_values: 100_000,
    // zstd has negative (fast) levels.
    negative_keys: &["zstd_level"],
    // A part's processes make as many lists (processes::Drift); --processes allows 1,000.
    largest_by_key: &[("process", 999)],
};

/// A matrix of `interop`, `evolution` or `robustness`, or a `study` result,
/// attached to a report: free-form, embedded in the page as it is.
pub const ATTACHMENT: Limits = Limits {
    document: "an interop, evolution or robustness matrix, a study result or a replay",
    file: ATTACHMENT_FILE,
    depth: 32,
    keys: 10_000,
    key_chars: 256,
    chars_by_key: &[],
    // A reproducer's bytes are one mutated record.
    chars: 1024 * 1024,
    elements_by_key: &[],
    elements: 100_000,
    free_form: FreeForm::Everything,
    free_values: 1_000_000,
    negative_keys: &[],
    largest_by_key: &[],
};

/// Walks a whole document, refusing the first value beyond `limits`, and
/// keeps its top-level `"schema"` string in its [`State`].
pub struct Walk<'a> {
    limits: &'a Limits,
    state: &'a mut State,
    /// The key holding this value (an array's elements: the array's).
    key: Option<&'a str>,
    depth: usize,
    free: bool,
}

#[derive(Default)]
pub struct State {
    free_values: usize,
    pub schema: Option<String>,
}

impl<'a> Walk<'a> {
    pub fn new(limits: &'a Limits, state: &'a mut State) -> Walk<'a> {
        let free = matches!(limits.free_form, FreeForm::Everything);
        Walk { limits, state, key: None, depth: 0, free }
    }

    fn by_key<T: Copy>(&self, table: &[(&str, T)], otherwise: T) -> T {
        table.iter().find(|(key, _)| Some(*key) == self.key).map_or(otherwise, |&(_, limit)| limit)
    }

    /// Counts one value against the free-form budget, when it is in a free-form part.
    fn count<E: de::Error>(&mut self) -> Result<(), E> {
        if self.free {
            self.state.free_values += 1;
            if self.state.free_values > self.limits.free_values {
                return Err(E::custom(format!(
                    "too many values in the free-form parts ({}); expected at most {}",
                    self.limits.free_form.keys(),
                    self.limits.free_values
                )));
            }
        }
        Ok(())
    }

    fn negative<E: de::Error>(&self, shown: impl std::fmt::Display) -> Result<(), E> {
        match self.free || self.key.is_some_and(|k| self.limits.negative_keys.contains(&k)) {
            true => Ok(()),
            false => Err(E::custom(format!("{shown}; expected zero or more"))),
        }
    }

    /// The depth of a container's values, when it is not too deep.
    fn inner_depth<E: de::Error>(&self) -> Result<usize, E> {
        match self.depth + 1 {
            depth if depth > self.limits.depth => Err(E::custom(format!(
                "nested {depth} deep; expected at most {}",
                self.limits.depth
            ))),
            depth => Ok(depth),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(mut self, _: bool) -> Result<(), E> {
        self.count()
    }

    fn visit_unit<E: de::Error>(mut self) -> Result<(), E> {
        self.count()
    }

    fn visit_i64<E: de::Error>(mut self, value: i64) -> Result<(), E> {
        self.count()?;
        match value < 0 {
            true => self.negative(value),
            false => Ok(()),
        }
    }

    fn visit_u64<E: de::Error>(mut self, value: u64) -> Result<(), E> {
        self.count()?;
        let largest = self.by_key(self.limits.largest_by_key, u64::MAX);
        match value > largest {
            true => Err(E::custom(format!("{value}; expected at most {largest}"))),
            false => Ok(()),
        }
    }

    fn visit_f64<E: de::Error>(mut self, value: f64) -> Result<(), E> {
        self.count()?;
        // -1e300 in full would be 300 digits.
        let shown = match format!("{value}") {
            long if long.len() > 24 => format!("{value:e}"),
            short => short,
        };
        match value < 0.0 {
            true => self.negative(shown),
            false => Ok(()),
        }
    }

    fn visit_str<E: de::Error>(mut self, value: &str) -> Result<(), E> {
        self.count()?;
        let most = self.by_key(self.limits.chars_by_key, self.limits.chars);
        let chars = value.chars().count();
        if chars > most {
            return Err(E::custom(format!(
                "{}; expected a string of at most {most} characters",
                excerpt(value)
            )));
        }
        if self.depth == 1 && self.key == Some("schema") {
            self.state.schema = Some(value.to_owned());
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        self.count()?;
        let depth = self.inner_depth()?;
        let most = self.by_key(self.limits.elements_by_key, self.limits.elements);
        let mut elements = 0;
        while seq
            .next_element_seed(Walk {
                limits: self.limits,
                state: &mut *self.state,
                key: self.key,
                depth,
                free: self.free,
            })?
            .is_some()
        {
            elements += 1;
            if elements > most {
                return Err(de::Error::custom(format!(
                    "too many elements; expected at most {most}"
                )));
            }
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        self.count()?;
        let depth = self.inner_depth()?;
        let mut keys = 0;
        while let Some(key) = map.next_key_seed(Key(self.limits.key_chars))? {
            keys += 1;
            if keys > self.limits.keys {
                return Err(de::Error::custom(format!(
                    "too many keys; expected at most {}",
                    self.limits.keys
                )));
            }
            let free = self.free
                || matches!(self.limits.free_form, FreeForm::Under(under) if under.contains(&key.as_str()));
            map.next_value_seed(Walk {
                limits: self.limits,
                state: &mut *self.state,
                key: Some(&key),
                depth,
                free,
            })?;
        }
        Ok(())
    }
}

/// An object's key, refused when longer than its limit.
struct Key(usize);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = String;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = String;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<String, E> {
        let chars = key.chars().count();
        match chars > self.0 {
            true => Err(E::custom(format!(
                "a key {}; expected at most {} characters",
                excerpt(key),
                self.0
            ))),
            false => Ok(key.to_owned()),
        }
    }
}
