//! Records what the results must name but the running binary cannot see:
//! the compiler, the project commit and whether the tree had changes on top of
//! it, how the crate was compiled, and the locked version of every crate.

use std::path::Path;
use std::process::Command;

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

/// Cargo reruns a build script with a missing watched path on every build, so
/// only paths that exist are watched.
fn watch(path: &str) {
    if Path::new(path).exists() {
        println!("cargo:rerun-if-changed={path}");
    }
}

/// Git paths are asked of git because in a worktree `.git` is a file and refs
/// live in the main repository.
fn watch_git() {
    for git_path in ["HEAD", "refs/heads", "packed-refs"] {
        if let Some(path) = command_output("git", &["rev-parse", "--git-path", git_path]) {
            watch(&path);
        }
    }
    // The workspace crates' sources and manifests: an edit there must refresh
    // the dirty flag, or a binary built from edited sources would claim a clean
    // tree. Not their tests/: a test run that rewrites an expected file, or an
    // edited integration test, would otherwise rerun this script and with it
    // recompile the whole crate (a new format's guide did so after each of its
    // test runs). Edits elsewhere (docs, tests) leave the binary as it was and
    // are caught at the next commit, which moves the branch ref.
    for source in ["../../Cargo.toml", "../../Cargo.lock"] {
        watch(source);
    }
    let crates = std::fs::read_dir("../../crates").into_iter().flatten().flatten();
    for krate in crates.map(|entry| entry.path()) {
        for part in ["src", "Cargo.toml", "build.rs"] {
            watch(&krate.join(part).to_string_lossy());
        }
    }
}

fn str_list(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let items: Vec<String> = items.into_iter().map(|item| format!("{:?}", item.as_ref())).collect();
    format!("&[{}]", items.join(", "))
}

/// The Cargo profile being built, named by its output directory
/// (`target/<profile>/build/<package>-<hash>/out`, `debug` for `dev`): Cargo
/// tells a build script only the base profile (`PROFILE`), which cannot tell
/// `release` from a custom profile inheriting it.
fn profile_name(out_dir: &Path) -> String {
    let dir = out_dir.ancestors().nth(3).and_then(Path::file_name).unwrap_or_default();
    match dir.to_string_lossy().into_owned() {
        dir if dir == "debug" => "dev".to_owned(),
        dir => dir,
    }
}

/// `key` of Cargo profile `profile` as this build sees it: the
/// `CARGO_PROFILE_<NAME>_<KEY>` override, else the workspace manifest's
/// `[profile.<name>]`, else the profile it `inherits`; `None` when nothing sets
/// it (Cargo's default applies).
fn profile_setting(manifest: &toml::Table, profile: &str, key: &str) -> Option<String> {
    let variable = format!("CARGO_PROFILE_{profile}_{key}").to_uppercase().replace('-', "_");
    println!("cargo:rerun-if-env-changed={variable}");
    if let Ok(value) = std::env::var(variable) {
        return Some(value);
    }
    let table = manifest.get("profile").and_then(|profiles| profiles.get(profile))?;
    match table.get(key) {
        Some(toml::Value::String(value)) => Some(value.clone()),
        Some(value) => Some(value.to_string()),
        None => profile_setting(manifest, table.get("inherits")?.as_str()?, key),
    }
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = command_output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SHOOTOUT_RUSTC_VERSION={rustc_version}");

    let commit = command_output("git", &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SHOOTOUT_GIT_COMMIT={commit}");
    // --no-optional-locks: a plain `git status` may rewrite the index, which
    // would race with the engineer's own git commands.
    let dirty = command_output("git", &["--no-optional-locks", "status", "--porcelain"])
        .map(|status| !status.is_empty());
    watch_git();

    let out_dir = std::env::var("OUT_DIR").unwrap();
    let profile = profile_name(Path::new(&out_dir));
    let manifest: toml::Table =
        std::fs::read_to_string("../../Cargo.toml").unwrap_or_default().parse().unwrap_or_default();
    // Cargo's defaults: no cross-crate LTO; 256 codegen units when
    // incremental (dev), 16 otherwise.
    let lto = profile_setting(&manifest, &profile, "lto").unwrap_or_else(|| "false".into());
    let codegen_units = profile_setting(&manifest, &profile, "codegen-units")
        .unwrap_or_else(|| if env("PROFILE") == "debug" { "256" } else { "16" }.into());
    let rustflags = env("CARGO_ENCODED_RUSTFLAGS");
    let target_features = env("CARGO_CFG_TARGET_FEATURE");
    let build_info = format!(
        "pub const PROFILE: &str = {:?};\n\
         pub const CARGO_PROFILE: &str = {profile:?};\n\
         pub const LTO: &str = {lto:?};\n\
         pub const CODEGEN_UNITS: &str = {codegen_units:?};\n\
         pub const OPT_LEVEL: &str = {:?};\n\
         pub const TARGET: &str = {:?};\n\
         pub const RUSTFLAGS: &[&str] = {};\n\
         pub const TARGET_FEATURES: &[&str] = {};\n\
         pub const GIT_DIRTY: Option<bool> = {dirty:?};\n",
        env("PROFILE"),
        env("OPT_LEVEL"),
        env("TARGET"),
        str_list(rustflags.split('\x1f').filter(|flag| !flag.is_empty())),
        str_list(target_features.split(',').filter(|feature| !feature.is_empty())),
    );
    std::fs::write(Path::new(&out_dir).join("build_info.rs"), build_info).unwrap();

    let lock = std::fs::read_to_string("../../Cargo.lock").unwrap_or_default();
    let lock: toml::Table = lock.parse().unwrap_or_default();
    let mut versions = String::from("&[\n");
    for package in lock.get("package").and_then(|p| p.as_array()).into_iter().flatten() {
        if let (Some(name), Some(version)) = (
            package.get("name").and_then(|v| v.as_str()),
            package.get("version").and_then(|v| v.as_str()),
        ) {
            versions.push_str(&format!("    ({name:?}, {version:?}),\n"));
        }
    }
    versions.push(']');
    std::fs::write(Path::new(&out_dir).join("locked_versions.rs"), versions).unwrap();
}
