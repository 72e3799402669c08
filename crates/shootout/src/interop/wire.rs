//! Which formats of which languages write the same bytes: one row per wire
//! format, naming its members in every language. Nothing here is kept by
//! hand: Rust's members are its registry's formats (`FormatInfo::wire`), the
//! other languages' their rows of spec/formats.json. docs/interop.md says how
//! each wire format maps the records (the iex union, optional fields) and why.

use std::sync::OnceLock;

use anyhow::{Result, anyhow};

use crate::catalog::registry;
use crate::format::spec;

/// One wire format and the codecs, in every language, that read and write it.
pub struct Wire {
    pub name: &'static str,
    /// (language as results name it, format name in that language's
    /// registry): Rust's, then Go's, then Java's, each in registry order.
    pub members: Vec<(&'static str, &'static str)>,
}

impl Wire {
    /// The members of `language`.
    pub fn of<'a>(&'a self, language: &'a str) -> impl Iterator<Item = &'static str> + 'a {
        self.members.iter().filter(move |(l, _)| *l == language).map(|(_, f)| *f)
    }

    /// Where `language`'s `format` comes in the row, if it is a member.
    pub fn rank(&self, language: &str, format: &str) -> Option<usize> {
        self.members.iter().position(|member| *member == (language, format))
    }

    pub fn languages(&self) -> Vec<&'static str> {
        let mut languages: Vec<&str> = self.members.iter().map(|(l, _)| *l).collect();
        languages.dedup();
        languages
    }
}

/// Every wire format, in the order its first member comes: Rust's registry,
/// then the Go and Java rows of spec/formats.json.
pub fn wires() -> Result<&'static [Wire]> {
    static WIRES: OnceLock<Result<Vec<Wire>, String>> = OnceLock::new();
    let wires = WIRES.get_or_init(|| {
        let rust = registry::formats()
            .into_iter()
            .filter_map(|info| Some((info.wire?, ("rust", info.name))));
        let others = spec::rows()
            .map_err(|e| format!("{e:#}"))?
            .iter()
            .filter(|row| row.language != "rust")
            .filter_map(|row| Some((row.wire.as_deref()?, (&*row.language, &*row.name))));
        let mut wires: Vec<Wire> = Vec::new();
        for (name, member) in rust.chain(others) {
            match wires.iter_mut().find(|w| w.name == name) {
                Some(wire) => wire.members.push(member),
                None => wires.push(Wire { name, members: vec![member] }),
            }
        }
        Ok(wires)
    });
    wires.as_deref().map_err(|e| anyhow!("{e}"))
}
