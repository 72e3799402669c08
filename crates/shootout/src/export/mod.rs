//! Result files: one module per export format.

pub mod csv;
pub mod json;
pub mod markdown;

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::results::Results;

#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Json,
    Csv,
    Markdown,
}

/// Where one export goes: a file, or standard output for `-`.
#[derive(Debug, Clone)]
pub struct Target {
    pub kind: Kind,
    pub path: PathBuf,
}

impl Target {
    pub fn is_stdout(&self) -> bool {
        self.path == Path::new("-")
    }

    /// Fails before any benchmarking if the file exists and `force` is off,
    /// so a long run never ends by refusing to save.
    pub fn check(&self, force: bool) -> Result<()> {
        if !self.is_stdout() && !force && self.path.exists() {
            bail!("{}: already exists; pass --force to overwrite it", self.path.display());
        }
        Ok(())
    }

    pub fn write(&self, results: &Results) -> Result<()> {
        let render = |out: &mut dyn Write| match self.kind {
            Kind::Json => json::write(results, out),
            Kind::Csv => csv::write(results, out),
            Kind::Markdown => markdown::write(results, out),
        };
        if self.is_stdout() {
            return render(&mut io::stdout().lock()).context("writing results to standard output");
        }
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&self.path)
            .with_context(|| format!("{}: cannot create", self.path.display()))?;
        let mut out = io::BufWriter::new(file);
        render(&mut out).and_then(|()| Ok(out.flush()?)).with_context(|| format!("{}: cannot write", self.path.display()))
    }
}
