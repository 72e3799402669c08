//! The machine and build behind a set of results.

use std::time::SystemTime;

use serde::Serialize;

/// (crate, version) for every package in Cargo.lock, captured at build time.
const LOCKED_VERSIONS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/locked_versions.rs"));

#[derive(Debug, Clone, Serialize)]
pub struct Environment {
    pub cpu: String,
    pub cores: usize,
    pub os: String,
    pub rustc: &'static str,
    pub shootout_version: &'static str,
    pub git_commit: &'static str,
    /// RFC 3339 UTC time the run started.
    pub date: String,
}

/// The locked version of `crate_name`, as built into this binary.
pub fn crate_version(crate_name: &str) -> &'static str {
    LOCKED_VERSIONS.iter().find(|(name, _)| *name == crate_name).map_or("unknown", |(_, version)| version)
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

fn cpu_model() -> String {
    let cpuinfo = read_trimmed("/proc/cpuinfo").unwrap_or_default();
    cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name").and_then(|rest| rest.split_once(':')).map(|(_, m)| m.trim().to_owned()))
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned())
}

fn os_description() -> String {
    let pretty = read_trimmed("/etc/os-release").and_then(|release| {
        release.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_owned()))
    });
    let kernel = read_trimmed("/proc/sys/kernel/osrelease");
    match (pretty, kernel) {
        (Some(p), Some(k)) => format!("{p} (Linux {k})"),
        (Some(p), None) => p,
        (None, Some(k)) => format!("Linux {k}"),
        (None, None) => std::env::consts::OS.to_owned(),
    }
}

impl Environment {
    pub fn capture() -> Self {
        Environment {
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: os_description(),
            rustc: env!("SHOOTOUT_RUSTC_VERSION"),
            shootout_version: env!("CARGO_PKG_VERSION"),
            git_commit: env!("SHOOTOUT_GIT_COMMIT"),
            date: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        }
    }
}

/// The 1, 5 and 15 minute load averages, where the OS shows them.
pub fn load_average() -> Option<[f64; 3]> {
    let text = read_trimmed("/proc/loadavg")?;
    let mut fields = text.split_whitespace().map(|f| f.parse::<f64>().ok());
    Some([fields.next()??, fields.next()??, fields.next()??])
}

#[cfg(test)]
mod tests {
    #[test]
    fn knows_locked_versions_of_its_dependencies() {
        assert_ne!(super::crate_version("hdrhistogram"), "unknown");
        assert_eq!(super::crate_version("no-such-crate"), "unknown");
    }
}
