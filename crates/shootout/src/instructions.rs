//! `run --instructions`: instructions per op, a count that reproduces on any
//! machine running the same build, where ns/op is this machine's at this
//! moment. This program runs again under Valgrind's Callgrind (the hidden
//! `--instructions-out`), which makes every format's encode and decode passes
//! over the run's records, each pass a call of one named function
//! (`benchmark::counting`). Callgrind is told to count inside that function
//! only (`--collect-atstart=no --toggle-collect`) and to write a dump after
//! each call (`--dump-after`): dump N holds the instructions of region N, in
//! the order the worker lists them. Instructions are not time: SIMD width,
//! caches and branch misses are invisible to the count.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::benchmark::counting::{Counted, Pass, REGION_FUNCTION};
use crate::document::Results;

/// Records counted when `--instructions` is given without `--max-records`:
/// under Valgrind a pass runs some fifty times slower, and per-op counts
/// settle within a few thousand records.
pub const DEFAULT_MAX_RECORDS: u64 = 10_000;

/// The signal Valgrind's process dies of at an instruction it cannot decode.
const SIGILL: i32 = 4;

/// What the tables and docs say of the count, once.
pub const NOT_TIME: &str =
    "instructions are not time: SIMD width, caches and branch misses are invisible to the count";

/// Valgrind can be started, or the one line saying how to install it.
pub fn require_valgrind() -> Result<()> {
    let found = Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !found {
        bail!(
            "--instructions counts under Valgrind, which is not installed: install Debian's `valgrind` package \
             (apt-get install valgrind)"
        );
    }
    Ok(())
}

/// Instructions per op of each format and direction counted, and the
/// formats that could not be counted.
#[derive(Debug)]
pub struct Counts {
    per_op: Vec<(String, Pass, f64)>,
    failed: Vec<String>,
}

/// This program again, with this process's arguments and
/// `--instructions-out`, under Callgrind; its counts per op.
pub fn count() -> Result<Counts> {
    let dir = crate::temporary::system_dir(tempfile::Builder::new().prefix("shootout-callgrind-"))
        .context("cannot create a temporary folder for Callgrind's dumps")?;
    let regions_file = dir.path().join("regions.json");
    let program =
        std::env::current_exe().context("cannot find this program to run it under Valgrind")?;
    let status = Command::new("valgrind")
        .args(["--quiet", "--tool=callgrind", "--collect-atstart=no"])
        .arg(format!("--toggle-collect={REGION_FUNCTION}"))
        .arg(format!("--dump-after={REGION_FUNCTION}"))
        .arg(format!("--callgrind-out-file={}", dump_path(dir.path(), None)))
        .arg(program)
        .args(std::env::args_os().skip(1))
        .arg("--instructions-out")
        .arg(&regions_file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .context("cannot start valgrind")?;
    if status.signal() == Some(SIGILL) {
        bail!(
            "Valgrind met an instruction it cannot decode (its error is above): .cargo/config.toml's \
             target-cpu=native lets the compiler use every feature of this CPU but SSE4a and VPCLMULQDQ, some of which Valgrind \
             lacks (AVX-512); for --instructions, build for a CPU it knows: RUSTFLAGS=\"-C target-cpu=x86-64-v3\" \
             cargo run --release -- run --instructions"
        );
    }
    if !status.success() {
        bail!(
            "the process counting instructions under Valgrind failed ({status}); its error is above"
        );
    }
    let text = std::fs::read(&regions_file)
        .context("cannot read what the process counting instructions wrote")?;
    let counted: Counted = serde_json::from_slice(&text)
        .context("the process counting instructions wrote regions that do not read back")?;
    let instructions = (1..=counted.regions.len())
        .map(|n| read_dump(&dump_path(dir.path(), Some(n))))
        .collect::<Result<Vec<u64>>>()?;
    if Path::new(&dump_path(dir.path(), Some(counted.regions.len() + 1))).exists() {
        bail!(
            "Callgrind wrote more dumps than the {} counted regions: the counts cannot be matched to formats",
            counted.regions.len()
        );
    }
    Ok(Counts::of(&counted, &instructions))
}

/// Callgrind's output file (`None`), or its `n`th dump (from 1), which it
/// names by appending `.n`.
fn dump_path(dir: &Path, n: Option<usize>) -> String {
    let base = dir.join("callgrind.out").display().to_string();
    match n {
        Some(n) => format!("{base}.{n}"),
        None => base,
    }
}

/// The instructions a Callgrind dump holds: its `totals:` line (the only
/// event collected is `Ir`, instructions executed).
fn read_dump(path: &str) -> Result<u64> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "Callgrind wrote no dump {path}: was {REGION_FUNCTION} missing from this program's symbols (a stripped \
             binary)?"
        )
    })?;
    parse_totals(&text).with_context(|| format!("{path}: no `totals:` line of instructions"))
}

fn parse_totals(dump: &str) -> Option<u64> {
    dump.lines()
        .find_map(|line| line.strip_prefix("totals:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
}

impl Counts {
    /// The counts per op of the regions, whose instructions are
    /// `instructions` (region by region): each format and direction's
    /// instructions over its ops, summed over windows.
    fn of(counted: &Counted, instructions: &[u64]) -> Counts {
        let mut sums: Vec<(String, Pass, u64, u64)> = Vec::new();
        let failed = |name: &str| counted.failed.iter().any(|f| f.format == name);
        for (region, &count) in counted.regions.iter().zip(instructions) {
            if failed(&region.format) {
                continue;
            }
            match sums.iter_mut().find(|(f, p, ..)| *f == region.format && *p == region.pass) {
                Some((.., total, ops)) => {
                    *total += count;
                    *ops += region.ops;
                }
                None => sums.push((region.format.clone(), region.pass, count, region.ops)),
            }
        }
        Counts {
            per_op: sums
                .into_iter()
                .map(|(format, pass, total, ops)| (format, pass, total as f64 / ops.max(1) as f64))
                .collect(),
            failed: counted
                .failed
                .iter()
                .map(|f| {
                    format!(
                        "{}: no instruction count, it failed in the counting process: {}",
                        f.format, f.reason
                    )
                })
                .collect(),
        }
    }

    /// Each direction's `instructions_per_op` in `results`, and a warning
    /// for each format that could not be counted.
    pub fn attach(self, results: &mut Results) {
        for format in &mut results.formats {
            for (pass, direction) in
                [(Pass::Encode, &mut format.encode), (Pass::Decode, &mut format.decode)]
            {
                direction.summary.instructions_per_op = self
                    .per_op
                    .iter()
                    .find(|(name, p, _)| *name == format.name && *p == pass)
                    .map(|(.., per_op)| *per_op);
            }
        }
        results.warnings.extend(self.failed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmark::counting::{Region, Uncounted};

    fn region(format: &str, pass: Pass, ops: u64) -> Region {
        Region { format: format.to_owned(), pass, ops }
    }

    #[test]
    fn attached_counts_are_written_read_back_and_survive_derivation() {
        let mut results = crate::export::tests::fixture_timed(1.0);
        let name = results.formats[0].name.clone();
        let counted = Counted {
            regions: vec![region(&name, Pass::Encode, 10), region(&name, Pass::Decode, 10)],
            failed: Vec::new(),
        };
        Counts::of(&counted, &[1234, 5678]).attach(&mut results);
        let text = serde_json::to_string(&results).unwrap();
        let mut read: Results = serde_json::from_str(&text).unwrap();
        read.derive_again();
        let summary = |pick: fn(&crate::document::FormatResult) -> &crate::document::Direction| {
            pick(&read.formats[0]).summary.instructions_per_op
        };
        assert_eq!(summary(|f| &f.encode), Some(123.4));
        assert_eq!(summary(|f| &f.decode), Some(567.8));
        // Not counted: no key at all, so older readers and the schema see nothing new.
        let uncounted = serde_json::to_value(crate::export::tests::fixture_timed(1.0)).unwrap();
        assert!(uncounted["formats"][0]["encode"]["summary"].get("instructions_per_op").is_none());
    }

    #[test]
    fn a_dump_s_instructions_are_its_totals_line() {
        let dump =
            "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 6011\ntotals: 6011\n";
        assert_eq!(parse_totals(dump), Some(6011));
        assert_eq!(parse_totals("events: Ir\n"), None);
    }

    #[test]
    fn counts_per_op_sum_a_format_s_windows_and_leave_out_the_failed() {
        let counted = Counted {
            regions: vec![
                region("sbe", Pass::Encode, 4),
                region("sbe", Pass::Decode, 4),
                region("bad", Pass::Encode, 4),
                region("sbe", Pass::Encode, 2),
                region("sbe", Pass::Decode, 2),
            ],
            failed: vec![Uncounted { format: "bad".into(), reason: "encoding failed".into() }],
        };
        let counts = Counts::of(&counted, &[400, 800, 999, 200, 400]);
        assert_eq!(
            counts.per_op,
            [("sbe".to_owned(), Pass::Encode, 100.0), ("sbe".to_owned(), Pass::Decode, 200.0)]
        );
        assert_eq!(counts.failed.len(), 1);
        assert!(counts.failed[0].starts_with("bad: no instruction count"), "{:?}", counts.failed);
    }
}
