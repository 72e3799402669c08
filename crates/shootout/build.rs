//! Records what the results must name but the running binary cannot see:
//! the compiler, the project commit, and the locked version of every crate.

use std::path::Path;
use std::process::Command;

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = command_output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SHOOTOUT_RUSTC_VERSION={rustc_version}");

    let commit = command_output("git", &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SHOOTOUT_GIT_COMMIT={commit}");
    for watched in ["../../.git/HEAD", "../../.git/refs/heads"] {
        if Path::new(watched).exists() {
            println!("cargo:rerun-if-changed={watched}");
        }
    }

    println!("cargo:rerun-if-changed=../../Cargo.lock");
    let lock = std::fs::read_to_string("../../Cargo.lock").unwrap_or_default();
    let lock: toml::Table = lock.parse().unwrap_or_default();
    let mut versions = String::from("&[\n");
    for package in lock.get("package").and_then(|p| p.as_array()).into_iter().flatten() {
        if let (Some(name), Some(version)) =
            (package.get("name").and_then(|v| v.as_str()), package.get("version").and_then(|v| v.as_str()))
        {
            versions.push_str(&format!("    ({name:?}, {version:?}),\n"));
        }
    }
    versions.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("locked_versions.rs");
    std::fs::write(out, versions).unwrap();
}
