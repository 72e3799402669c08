//! The runners in other languages (`runners/<folder>/`): each is built with its
//! own toolchain, run on the same records as a dataset file
//! (docs/dataset-format.md), and writes its results in the same schema, which
//! are read back here. One entry in [`EXTERNAL`] per language.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::benchmark::Registered;

use crate::catalog::registry;
use crate::document::{Results, SCHEMA, Settings};
use crate::workload::Workload;

/// The languages `--lang` chooses between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// This binary's formats.
    Rust,
    /// runners/go (needs Go 1.21 or later, which fetches the toolchain its go.mod names).
    Go,
    /// runners/jvm (needs JDK 17 and Maven 3.8).
    Jvm,
    /// Every language above.
    All,
}

impl Language {
    /// `--lang` as given, `all` expanded, each language once, in table order.
    pub fn expand(chosen: &[Language]) -> Vec<Language> {
        let every = [Language::Rust, Language::Go, Language::Jvm];
        every
            .into_iter()
            .filter(|l| chosen.contains(l) || chosen.contains(&Language::All))
            .collect()
    }

    pub fn external(self) -> Option<&'static External> {
        EXTERNAL.iter().find(|e| e.language == self)
    }
}

/// Environment variables, by name, that a runner's build sets.
pub type BuildEnv = Vec<(&'static str, String)>;

/// How to build and run one language's runner, from its folder.
pub struct External {
    pub language: Language,
    /// Its `--lang` value.
    pub flag: &'static str,
    /// The language as results name it (`runner.language`).
    pub name: &'static str,
    /// Its folder under runners/.
    pub folder: &'static str,
    /// Programs that must be on PATH, and what to install when one is missing.
    pub needs: &'static [(&'static str, &'static str)],
    /// Builds the runner.
    pub build: &'static [&'static str],
    /// What the build writes, relative to the folder: the build is skipped
    /// while it is newer than every file of the folder outside its own top
    /// directory (`bin/`, `target/`), which hold only build output.
    pub built: &'static str,
    /// The environment the build needs, read from the runner's folder.
    pub build_env: fn(&Path) -> Result<BuildEnv>,
    /// Runs it; the common options follow.
    pub run: &'static [&'static str],
    /// Runs it for `--interop-encode` and `--interop-decode`, which measure nothing.
    pub interop_run: &'static [&'static str],
}

pub const EXTERNAL: &[External] = &[
    External {
        language: Language::Go,
        flag: "go",
        name: "go",
        folder: "go",
        needs: &[(
            "go",
            "Go 1.21 or later (https://go.dev/dl/; it fetches the toolchain runners/go/go.mod names by itself)",
        )],
        build: &["go", "build", "-o", "bin/shootout-go", "./cmd/shootout-go"],
        built: "bin/shootout-go",
        build_env: go_toolchain,
        run: &["bin/shootout-go"],
        interop_run: &["bin/shootout-go"],
    },
    External {
        language: Language::Jvm,
        flag: "jvm",
        name: "java",
        folder: "jvm",
        needs: &[
            ("java", "a JDK 17 (Debian: openjdk-17-jdk-headless)"),
            ("mvn", "Maven 3.8 (Debian: maven)"),
        ],
        // Maven recompiles only what changed, but shades the jar again every
        // time (half a minute): `built` skips it when nothing changed.
        build: &["mvn", "-q", "-B", "package", "-DskipTests"],
        built: "target/shootout-jvm.jar",
        build_env: |_| Ok(Vec::new()),
        // A fixed heap, as the runner asks: a growing heap would show up as GC in the figures.
        run: &["java", "-Xms2g", "-Xmx2g", "-jar", "target/shootout-jvm.jar"],
        // Interop measures nothing and holds a window of records at a time, so a
        // small heap that grows as needed does, and keeps the run's RSS down: on
        // the 1M-packet generated capture (933,698 iex records, every format) at
        // most 76 MB stay live after a GC while encoding, 20 MB while decoding
        // (-Xlog:gc); 384 MB leaves room for larger records.
        interop_run: &["java", "-Xmx384m", "-jar", "target/shootout-jvm.jar"],
    },
];

/// Whether `built` (relative to `folder`) exists and is newer than every file
/// of `folder` outside `built`'s top directory and the folder's hidden files
/// (the build lock); unreadable metadata counts as changed.
fn up_to_date(folder: &Path, built: &Path) -> bool {
    let Ok(built_at) = std::fs::metadata(folder.join(built)).and_then(|m| m.modified()) else {
        return false;
    };
    let output_dir = built.components().next().map(|c| c.as_os_str().to_owned());
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { return false };
        for entry in entries {
            let Ok(entry) = entry else { return false };
            let name = entry.file_name();
            let top = dir == folder;
            if top
                && (Some(&name) == output_dir.as_ref() || name.to_string_lossy().starts_with('.'))
            {
                continue;
            }
            match entry.metadata() {
                Ok(meta) if meta.is_dir() => pending.push(entry.path()),
                Ok(meta) if meta.modified().is_ok_and(|at| at <= built_at) => {}
                _ => return false,
            }
        }
    }
    true
}

/// GOTOOLCHAIN as the Go runner's go.mod names its toolchain (`toolchain go1.27.3`):
/// the go command then fetches exactly that toolchain from the module proxy on
/// first use, whatever GOTOOLCHAIN the machine sets (`local` would refuse the module).
fn go_toolchain(folder: &Path) -> Result<BuildEnv> {
    let go_mod = folder.join("go.mod");
    let text = std::fs::read_to_string(&go_mod)
        .with_context(|| format!("cannot read {}", go_mod.display()))?;
    let toolchain = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("toolchain "))
        .with_context(|| format!("{} has no toolchain line", go_mod.display()))?;
    Ok(vec![("GOTOOLCHAIN", toolchain.trim().to_string())])
}

/// One format as a runner lists it (`--list --json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Listed {
    pub name: String,
    pub family: String,
    #[serde(default)]
    pub library: String,
    #[serde(default)]
    pub library_version: String,
    #[serde(default)]
    pub labels: serde_json::Value,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub notes: String,
    /// The workloads it runs on.
    #[serde(default)]
    pub workloads: Vec<String>,
    /// Why it runs on none, for a format the language has no library for.
    #[serde(default)]
    pub not_run: Option<String>,
}

/// Where the runners' folders are: `SHOOTOUT_RUNNERS`, else the source tree this binary was built from.
fn runners_dir() -> PathBuf {
    std::env::var_os("SHOOTOUT_RUNNERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../runners"))
}

impl External {
    fn folder(&self) -> Result<PathBuf> {
        let folder = runners_dir().join(self.folder);
        if !folder.is_dir() {
            bail!(
                "the {} runner is not at {} (set SHOOTOUT_RUNNERS to the runners/ folder of a shootout checkout)",
                self.name,
                folder.display()
            );
        }
        Ok(folder)
    }

    /// Checks the toolchain and builds the runner, one clear line when either fails.
    pub fn build(&self) -> Result<PathBuf> {
        let folder = self.folder()?;
        for (program, install) in self.needs {
            if which(program).is_none() {
                bail!("--lang {} needs `{program}` on PATH: install {install}", self.flag);
            }
        }
        let env = (self.build_env)(&folder)?;
        let lock = build_lock(&folder, Access::Exclusive)?;
        if up_to_date(&folder, Path::new(self.built)) {
            return Ok(folder);
        }
        let output = Command::new(self.build[0])
            .args(&self.build[1..])
            .envs(env)
            .current_dir(&folder)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot start `{}`", self.build.join(" ")))?;
        drop(lock);
        if !output.status.success() {
            // Maven reports build errors on stdout; Go on stderr.
            let said = match last_lines(&output.stderr) {
                stderr if stderr.is_empty() => last_lines(&output.stdout),
                stderr => stderr,
            };
            bail!(
                "building the {} runner (`{}` in {}) failed: {said}",
                self.name,
                self.build.join(" "),
                folder.display(),
            );
        }
        Ok(folder)
    }

    /// The formats the runner built in `folder` has.
    pub fn list(&self, folder: &Path) -> Result<Vec<Listed>> {
        let _running = build_lock(folder, Access::Shared)?;
        let output = self
            .command(folder)
            .args(["--list", "--json"])
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot start the {} runner", self.name))?;
        if !output.status.success() {
            bail!("the {} runner's --list failed: {}", self.name, last_lines(&output.stderr));
        }
        serde_json::from_slice(&output.stdout).with_context(|| {
            format!("the {} runner's --list --json is not a format list", self.name)
        })
    }

    fn command(&self, folder: &Path) -> Command {
        command(folder, self.run)
    }

    /// Runs `command` for `formats` (all when empty) under the build
    /// folder's shared lock. Exit 3 means some formats failed, which the
    /// runner's file says; any other failure is an error naming `what`.
    fn run_for(
        &self,
        folder: &Path,
        mut command: Command,
        formats: &[String],
        what: &str,
    ) -> Result<()> {
        if !formats.is_empty() {
            command.args(["--formats", &formats.join(",")]);
        }
        let lock = build_lock(folder, Access::Shared)?;
        let output =
            command.output().with_context(|| format!("cannot start the {} runner", self.name))?;
        drop(lock);
        if !matches!(output.status.code(), Some(0 | 3)) {
            bail!(
                "the {} runner{what} failed ({}): {}",
                self.name,
                output.status,
                last_lines(&output.stderr)
            );
        }
        Ok(())
    }

    /// Measures `formats` (all when empty) on `dataset` in one process of
    /// the runner, making the warm-up and measured runs of `settings`, and
    /// reads back the results.
    pub fn measure(
        &self,
        folder: &Path,
        dataset: &Path,
        settings: Settings,
        formats: &[String],
    ) -> Result<Results> {
        let out = crate::temporary::system_file(
            tempfile::Builder::new().prefix("shootout-results-").suffix(".json"),
        )
        .context("cannot create a temporary results file")?;
        let mut command = self.command(folder);
        command
            .arg("--dataset")
            .arg(dataset)
            .args(["--runs", &settings.runs.to_string()])
            .args(["--warmup", &settings.warmup_runs.to_string()])
            .args(["--throughput-rounds", &settings.throughput_rounds.to_string()])
            .args(["--window", &settings.window.to_string()])
            .args(["--order-seed", &settings.order_seed.to_string()])
            .arg("--out")
            .arg(out.path())
            .stdin(Stdio::null());
        // 3: some formats failed; they are in the results' `failed`.
        self.run_for(folder, command, formats, "")?;
        // The runner's file is read as any results file is: bounded, and every value checked.
        let name = format!("the {} runner's results", self.name);
        let mut parts = crate::saved::read_as(out.path(), &name)?;
        let results = parts.remove(0);
        if !parts.is_empty() || results.schema != SCHEMA || results.runner.language != self.name {
            bail!(
                "{name}: {} results of language {}{}; expected one {SCHEMA} of {}",
                results.schema,
                results.runner.language,
                if parts.is_empty() { "" } else { " and more" },
                self.name
            );
        }
        Ok(results)
    }
}

impl External {
    /// Has the runner measure a published study its way (`--study NAME`,
    /// spec/studies/README.md) and reads back its figures; `quick` asks for
    /// the runner's short settings. Its log (JMH's, a thousand lines for
    /// ignite-iep75) goes to the terminal when `verbose`; otherwise it is kept
    /// and shown only if the runner fails, so the study's tables come first.
    pub fn study<Figures: serde::de::DeserializeOwned>(
        &self,
        folder: &Path,
        name: &str,
        quick: bool,
        verbose: bool,
    ) -> Result<Figures> {
        let out = crate::temporary::system_file(
            tempfile::Builder::new().prefix("shootout-study-").suffix(".json"),
        )
        .context("cannot create a temporary figures file")?;
        let mut command = self.command(folder);
        command.args(["--study", name]).arg("--out").arg(out.path()).stdin(Stdio::null());
        if quick {
            command.arg("--quick");
        }
        let log = crate::temporary::system_file(
            tempfile::Builder::new().prefix("shootout-study-").suffix(".log"),
        )
        .context("cannot create a temporary log file")?;
        command.stderr(match verbose {
            true => Stdio::inherit(),
            false => Stdio::from(log.reopen().context("cannot open the runner's log file")?),
        });
        let lock = build_lock(folder, Access::Shared)?;
        let status =
            command.status().with_context(|| format!("cannot start the {} runner", self.name))?;
        drop(lock);
        if !status.success() {
            if !verbose {
                let text = std::fs::read_to_string(log.path()).unwrap_or_default();
                eprint!("{text}");
            }
            bail!("the {} runner's --study {name} failed ({status})", self.name);
        }
        let text = std::fs::read(out.path())
            .with_context(|| format!("cannot read the {} runner's study figures", self.name))?;
        serde_json::from_slice(&text).with_context(|| {
            format!(
                "the {} runner's --study {name} answer is not a shootout-study-figures/1 file",
                self.name
            )
        })
    }
}

/// Which formats each chosen language runs. `--formats` names formats of any
/// language (and Rust's groups); each runner gets the names it has.
pub struct FormatChoice {
    /// `--formats` for the Rust registry, or `None` when Rust runs no format.
    pub rust: Option<Vec<String>>,
    /// Each other runner, built, with the names it runs.
    pub external: Vec<Chosen>,
}

/// A runner chosen, built, with what it lists and which of that runs.
pub struct Chosen {
    pub runner: &'static External,
    pub folder: PathBuf,
    /// The formats it runs (empty: all).
    pub names: Vec<String>,
    /// Every format it has (`--list --json`).
    pub listed: Vec<Listed>,
}

impl Chosen {
    /// How many formats it will measure on `workload`: those named, else every
    /// one it lists for that workload. The time budget scales with it.
    pub fn formats_on(&self, workload: &str) -> usize {
        match self.names.len() {
            0 => self.listed.iter().filter(|f| f.workloads.iter().any(|w| w == workload)).count(),
            named => named,
        }
    }
}

impl FormatChoice {
    pub fn new<W: Workload>(
        languages: &[Language],
        registered: &[Registered<W>],
        wanted: &[String],
    ) -> Result<FormatChoice> {
        let mut known: Vec<(&str, Vec<String>)> = Vec::new();
        let rust = languages.contains(&Language::Rust).then(|| {
            let names = FormatChoice::rust_names(languages, registered, wanted);
            known.push(("rust", names.clone()));
            names
        });
        let mut external = Vec::new();
        for language in languages {
            let Some(runner) = language.external() else {
                continue;
            };
            let folder = runner.build()?;
            let listed = runner.list(&folder)?;
            let names: Vec<String> = wanted
                .iter()
                .filter(|w| {
                    listed
                        .iter()
                        .any(|l| l.name == w.as_str() && l.workloads.iter().any(|n| n == W::NAME))
                })
                .cloned()
                .collect();
            known.push((runner.name, names.clone()));
            external.push(Chosen { runner, folder, names, listed });
        }
        if let Some(unknown) =
            wanted.iter().find(|w| known.iter().all(|(_, names)| !names.contains(w)))
        {
            bail!(
                "unknown format '{unknown}' for workload {} in {}; `shootout formats --lang ...` lists them",
                W::NAME,
                known.iter().map(|(l, _)| *l).collect::<Vec<_>>().join(", ")
            );
        }
        // A language none of whose formats was named does not run.
        let named = |names: &Vec<String>| wanted.is_empty() || !names.is_empty();
        let skipped: Vec<&str> = known.iter().filter(|(_, n)| !named(n)).map(|(l, _)| *l).collect();
        if !skipped.is_empty() {
            eprintln!("--formats names no format of {}: not run", skipped.join(", "));
        }
        Ok(FormatChoice {
            rust: rust.filter(named),
            external: external.into_iter().filter(|chosen| named(&chosen.names)).collect(),
        })
    }

    /// The names of `wanted` the Rust registry runs: all of them when Rust is
    /// the only language, else those it has (formats and groups).
    pub fn rust_names<W: Workload>(
        languages: &[Language],
        registered: &[Registered<W>],
        wanted: &[String],
    ) -> Vec<String> {
        let in_rust = |item: &String| {
            registered.iter().any(|f| f.info.name == item.as_str())
                || registry::GROUPS.iter().any(|group| group.name == item)
        };
        let only_rust = languages == [Language::Rust];
        wanted.iter().filter(|w| only_rust || in_rust(w)).cloned().collect()
    }
}

impl External {
    /// Has the runner replay `plan` over `dataset` (`--replay`,
    /// docs/replay.md) for `formats` (all it has on iex when empty), and
    /// reads back its `shootout-replay-runs/1` file.
    pub fn replay<Runs: serde::de::DeserializeOwned>(
        &self,
        folder: &Path,
        dataset: &Path,
        plan: &Path,
        formats: &[String],
    ) -> Result<Runs> {
        let out = crate::temporary::system_file(
            tempfile::Builder::new().prefix("shootout-replay-runs-").suffix(".json"),
        )
        .context("cannot create a temporary replay results file")?;
        let mut command = self.command(folder);
        command
            .arg("--dataset")
            .arg(dataset)
            .arg("--replay")
            .arg(plan)
            .arg("--out")
            .arg(out.path())
            .stdin(Stdio::null());
        // 3: some runs failed; each says why in its `error`.
        self.run_for(folder, command, formats, "'s --replay")?;
        let text = std::fs::read(out.path())
            .with_context(|| format!("cannot read the {} runner's replay results", self.name))?;
        serde_json::from_slice(&text).with_context(|| {
            format!(
                "the {} runner's replay results are not a shootout-replay-runs/1 file",
                self.name
            )
        })
    }
}

impl External {
    /// Has the runner write its streams of `formats` on `dataset` into `dir`
    /// (`--interop-encode`, docs/interop.md).
    pub fn interop_encode(
        &self,
        folder: &Path,
        dataset: &Path,
        dir: &Path,
        formats: &[&str],
    ) -> Result<()> {
        let mut command = command(folder, self.interop_run);
        command
            .arg("--dataset")
            .arg(dataset)
            .arg("--interop-encode")
            .arg(dir)
            .args(["--formats", &formats.join(",")])
            .stdin(Stdio::null());
        let lock = build_lock(folder, Access::Shared)?;
        let output =
            command.output().with_context(|| format!("cannot start the {} runner", self.name))?;
        drop(lock);
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
        if !output.status.success() {
            bail!(
                "the {} runner's --interop-encode failed ({}): {}",
                self.name,
                output.status,
                last_lines(&output.stderr)
            );
        }
        Ok(())
    }

    /// Has the runner decode each (format, stream) of `requests` and answer
    /// for each (`--interop-decode`, docs/interop.md): one `Answer` per line.
    pub fn interop_decode<Answer: serde::de::DeserializeOwned>(
        &self,
        folder: &Path,
        dataset: &Path,
        dir: &Path,
        requests: &[(String, PathBuf)],
    ) -> Result<Vec<Answer>> {
        let list = dir.join(format!("{}-requests.tsv", self.flag));
        let text: String = requests
            .iter()
            .map(|(format, path)| format!("{format}\t{}\n", path.display()))
            .collect();
        std::fs::write(&list, text).with_context(|| format!("{}: cannot write", list.display()))?;
        let mut command = command(folder, self.interop_run);
        command
            .arg("--dataset")
            .arg(dataset)
            .arg("--interop-decode")
            .arg(&list)
            .stdin(Stdio::null());
        let lock = build_lock(folder, Access::Shared)?;
        let output =
            command.output().with_context(|| format!("cannot start the {} runner", self.name))?;
        drop(lock);
        if !output.status.success() {
            bail!(
                "the {} runner's --interop-decode failed ({}): {}",
                self.name,
                output.status,
                last_lines(&output.stderr)
            );
        }
        let answers = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                serde_json::from_str(line).with_context(|| {
                    format!("the {} runner's --interop-decode answered `{line}`", self.name)
                })
            })
            .collect::<Result<Vec<Answer>>>()?;
        if answers.len() != requests.len() {
            bail!(
                "the {} runner answered {} of {} decode requests",
                self.name,
                answers.len(),
                requests.len()
            );
        }
        Ok(answers)
    }
}

/// `run` in `folder`: a program inside the runner's folder, else one on PATH.
fn command(folder: &Path, run: &[&str]) -> Command {
    let local = folder.join(run[0]);
    let mut command = match local.is_file() {
        true => Command::new(local),
        false => Command::new(run[0]),
    };
    command.args(&run[1..]).current_dir(folder);
    command
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// The end of a child's stderr, on one line, for an error message.
enum Access {
    /// Building: no other process builds or runs the runner meanwhile.
    Exclusive,
    /// Running: others may run it too, but none rebuilds it underneath.
    Shared,
}

/// Another shootout process (a parallel test, a second terminal) may build or
/// run the same runner: two builds would write Maven's target/ over each other,
/// and a build would replace the jar a run is reading. A lock file in the
/// runner's folder orders them.
fn build_lock(folder: &Path, access: Access) -> Result<std::fs::File> {
    let path = folder.join(".shootout-build.lock");
    let file = std::fs::File::create(&path)
        .with_context(|| format!("{}: cannot create", path.display()))?;
    match access {
        Access::Exclusive => file.lock(),
        Access::Shared => file.lock_shared(),
    }
    .with_context(|| format!("{}: cannot lock", path.display()))?;
    Ok(file)
}

/// The last three non-blank lines of a program's output, without terminal
/// colour codes (Maven writes them even with -B).
fn last_lines(output: &[u8]) -> String {
    let text = without_escapes(&String::from_utf8_lossy(output));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}

/// Text without ANSI escape sequences (ESC [ … final byte).
fn without_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // Parameters run until the final byte, '@' to '~'.
            chars.by_ref().skip_while(|c| *c == '[').find(|c| ('@'..='~').contains(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A runner asked for every format gets the budget of every one it lists
    /// for the workload, not of none.
    #[test]
    fn a_runner_measuring_every_format_counts_those_it_lists_for_the_workload() {
        let listed = |name: &str, workloads: &[&str]| Listed {
            name: name.to_owned(),
            family: name.to_owned(),
            library: String::new(),
            library_version: String::new(),
            labels: serde_json::Value::Null,
            tags: Vec::new(),
            notes: String::new(),
            workloads: workloads.iter().map(|w| w.to_string()).collect(),
            not_run: None,
        };
        let mut chosen = Chosen {
            runner: Language::Go.external().unwrap(),
            folder: PathBuf::from("runners/go"),
            names: Vec::new(),
            listed: vec![listed("a", &["iex", "user"]), listed("b", &["user"]), listed("c", &[])],
        };
        assert_eq!(chosen.formats_on("iex"), 1);
        assert_eq!(chosen.formats_on("user"), 2);
        chosen.names = vec!["b".to_owned(), "c".to_owned(), "a".to_owned()];
        assert_eq!(chosen.formats_on("iex"), 3, "the names given, as given");
    }

    #[test]
    fn a_failed_builds_message_is_its_last_lines_without_colour_codes() {
        assert_eq!(last_lines(b"\x1b[0m\x1b[0m\n"), "");
        let maven = b"[INFO] x\n\x1b[1;31m[ERROR]\x1b[m one\n\n[ERROR] two\n[ERROR] three\n";
        assert_eq!(last_lines(maven), "[ERROR] one | [ERROR] two | [ERROR] three");
    }

    /// A runner is rebuilt when any of its files is newer than what the build
    /// wrote, whatever the build's own output and the lock do.
    #[test]
    fn a_runner_is_up_to_date_until_a_source_is_newer_than_its_build() {
        let folder = tempfile::tempdir().unwrap();
        let touch = |path: &str, seconds: u64| {
            let path = folder.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let file = std::fs::File::create(&path).unwrap();
            file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds))
                .unwrap();
        };
        let built = Path::new("target/runner.jar");
        assert!(!up_to_date(folder.path(), built), "nothing built yet");
        touch("pom.xml", 100);
        touch("src/main/A.java", 200);
        touch("target/runner.jar", 300);
        touch("target/classes/A.class", 400);
        touch(".shootout-build.lock", 500);
        assert!(up_to_date(folder.path(), built));
        touch("src/main/A.java", 301);
        assert!(!up_to_date(folder.path(), built), "a source edited after the build");
    }
}
