//! The testbed a results file was measured on: the machine's identity (CPU
//! model and flags, cores, memory, OS, kernel, whether a hypervisor runs it)
//! as a fingerprint, and the name `run --testbed` gave it. Figures of
//! different testbeds compare only as relative costs (docs/many-machines.md).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The fingerprint of a machine none of whose identity is known.
pub const UNKNOWN: &str = "unknown";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "ReadTestbed")]
pub struct Testbed {
    /// `run --testbed NAME`, or null.
    pub name: Option<String>,
    /// The first 16 hex digits of the SHA-256 of the machine's identity
    /// ([`Machine::fingerprint`]), or `unknown`; computed again on reading.
    pub fingerprint: String,
    pub machine: Machine,
    /// `run` when shootout stamped it as it measured; `environment` when
    /// derived on reading from a file written before testbeds were (its
    /// `environment` section).
    pub source: Source,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Run,
    Environment,
}

/// What identifies a machine, each `null` when unknown.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub cpu: Option<String>,
    /// Sorted, each once.
    pub cpu_flags: Option<Vec<String>>,
    pub cores: Option<u64>,
    pub memory_bytes: Option<u64>,
    /// The distribution, without the kernel.
    pub os: Option<String>,
    pub kernel: Option<String>,
    /// Its name as the runner read it; only whether there is one counts
    /// in the fingerprint, since runners name the same one differently
    /// (sysfs, a CPUID vendor string, or `unknown`).
    pub hypervisor: Option<String>,
}

/// A testbed as read: the fingerprint is not taken on the file's word.
#[derive(Deserialize)]
struct ReadTestbed {
    name: Option<String>,
    machine: Machine,
    source: Source,
}

impl From<ReadTestbed> for Testbed {
    fn from(read: ReadTestbed) -> Testbed {
        Testbed::new(read.name, read.machine, read.source)
    }
}

impl Testbed {
    pub fn new(name: Option<String>, mut machine: Machine, source: Source) -> Testbed {
        if let Some(flags) = &mut machine.cpu_flags {
            flags.sort_unstable();
            flags.dedup();
        }
        Testbed { name, fingerprint: machine.fingerprint(), machine, source }
    }

    /// The testbed of a results document's `environment` (the common keys
    /// every runner writes: `cpu`, `cpu_flags`, `cores`, `memory_bytes`,
    /// `os`, `hypervisor`), named `name`.
    pub fn of_environment(
        environment: &serde_json::Value,
        name: Option<String>,
        source: Source,
    ) -> Testbed {
        let text = |key: &str| environment.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        let number = |key: &str| environment.get(key).and_then(serde_json::Value::as_u64);
        let (os, kernel) = match text("os") {
            Some(os) => {
                let (os, kernel) = split_kernel(&os);
                (Some(os), kernel)
            }
            None => (None, None),
        };
        let cpu_flags = environment.get("cpu_flags").and_then(|v| v.as_array()).map(|flags| {
            flags.iter().filter_map(|f| f.as_str()).map(str::to_owned).collect::<Vec<_>>()
        });
        let machine = Machine {
            cpu: text("cpu"),
            cpu_flags,
            cores: number("cores"),
            memory_bytes: number("memory_bytes"),
            os,
            kernel,
            hypervisor: text("hypervisor"),
        };
        Testbed::new(name, machine, source)
    }

    /// What tables call it: its name, else its fingerprint's first 8 digits.
    pub fn label(&self) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None if self.fingerprint == UNKNOWN => UNKNOWN.to_owned(),
            None => format!("machine {}", &self.fingerprint[..8]),
        }
    }

    /// What makes two testbeds one: the name when given, else the fingerprint.
    pub fn identity(&self) -> (Option<&str>, &str) {
        match &self.name {
            Some(name) => (Some(name), ""),
            None => (None, &self.fingerprint),
        }
    }

    /// One line describing the machine, for legends.
    pub fn description(&self) -> String {
        let m = &self.machine;
        let mut parts = vec![m.cpu.clone().unwrap_or_else(|| "CPU unknown".to_owned())];
        if let Some(cores) = m.cores {
            parts.push(format!("{cores} cores"));
        }
        if let Some(bytes) = m.memory_bytes {
            parts.push(format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64));
        }
        match (&m.os, &m.kernel) {
            (Some(os), Some(kernel)) => parts.push(format!("{os}, kernel {kernel}")),
            (Some(os), None) => parts.push(os.clone()),
            (None, Some(kernel)) => parts.push(format!("kernel {kernel}")),
            (None, None) => {}
        }
        if let Some(hypervisor) = &m.hypervisor {
            parts.push(format!("hypervisor {hypervisor}"));
        }
        format!("{} (fingerprint {})", parts.join(", "), self.fingerprint)
    }
}

impl Machine {
    /// Hex digits of the SHA-256 of the identity as canonical JSON; `unknown`
    /// when nothing of it is known.
    pub fn fingerprint(&self) -> String {
        let m = self;
        let nothing_known = m.cpu.is_none()
            && m.cpu_flags.is_none()
            && m.cores.is_none()
            && m.memory_bytes.is_none()
            && m.os.is_none()
            && m.kernel.is_none();
        if nothing_known {
            return UNKNOWN.to_owned();
        }
        let identity = serde_json::json!([
            m.cpu,
            m.cpu_flags,
            m.cores,
            m.memory_bytes,
            m.os,
            m.kernel,
            m.hypervisor.is_some()
        ]);
        let digest = Sha256::digest(identity.to_string().as_bytes());
        digest[..8].iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The distribution and the kernel of an `os` as the runners write it: Rust
/// `NAME (Linux RELEASE)`, Go and the JVM `NAME RELEASE` (a release starts
/// with a digit and holds a dot); no kernel otherwise.
fn split_kernel(os: &str) -> (String, Option<String>) {
    if let Some(rest) = os.strip_suffix(')')
        && let Some((name, kernel)) = rest.rsplit_once(" (Linux ")
    {
        return (name.to_owned(), Some(kernel.to_owned()));
    }
    match os.rsplit_once(' ') {
        Some((name, release))
            if release.starts_with(|c: char| c.is_ascii_digit()) && release.contains('.') =>
        {
            (name.to_owned(), Some(release.to_owned()))
        }
        _ => (os.to_owned(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn environment(os: &str, hypervisor: &str) -> serde_json::Value {
        serde_json::json!({
            "cpu": "Intel(R) Xeon(R) Processor",
            "cpu_flags": ["sse2", "avx2", "sse2"],
            "cores": 2,
            "memory_bytes": 8_589_934_592u64,
            "os": os,
            "hypervisor": hypervisor,
            "toolchain": "whatever each runner says"
        })
    }

    #[test]
    fn every_runners_environment_of_one_machine_gives_one_fingerprint() {
        let rust = Testbed::of_environment(
            &environment("Debian GNU/Linux 12 (bookworm) (Linux 6.1.0-18-amd64)", "KVMKVMKVM"),
            None,
            Source::Environment,
        );
        let go = Testbed::of_environment(
            &environment("Debian GNU/Linux 12 (bookworm) 6.1.0-18-amd64", "unknown"),
            None,
            Source::Environment,
        );
        assert_eq!(rust.fingerprint, go.fingerprint);
        assert_eq!(rust.machine.os.as_deref(), Some("Debian GNU/Linux 12 (bookworm)"));
        assert_eq!(rust.machine.kernel.as_deref(), Some("6.1.0-18-amd64"));
        assert_eq!(rust.machine.cpu_flags, Some(vec!["avx2".to_owned(), "sse2".to_owned()]));
        assert_eq!(rust.fingerprint.len(), 16);
    }

    #[test]
    fn another_kernel_or_core_count_is_another_testbed() {
        let base = environment("Debian (Linux 6.1.0)", "KVMKVMKVM");
        let of = |env: &serde_json::Value| {
            Testbed::of_environment(env, None, Source::Environment).fingerprint
        };
        let mut kernel = base.clone();
        kernel["os"] = "Debian (Linux 6.2.0)".into();
        let mut cores = base.clone();
        cores["cores"] = 4.into();
        let mut bare_metal = base.clone();
        bare_metal["hypervisor"] = serde_json::Value::Null;
        for other in [kernel, cores, bare_metal] {
            assert_ne!(of(&base), of(&other));
        }
    }

    #[test]
    fn an_environment_without_identity_is_unknown() {
        let testbed = Testbed::of_environment(&serde_json::json!({}), None, Source::Environment);
        assert_eq!(testbed.fingerprint, UNKNOWN);
        assert_eq!(testbed.label(), UNKNOWN);
        let named = Testbed { name: Some("ci-arm".into()), ..testbed };
        assert_eq!(named.label(), "ci-arm");
    }

    #[test]
    fn a_fingerprint_read_back_is_computed_again() {
        let testbed = Testbed::of_environment(
            &environment("Debian (Linux 6.1.0)", "KVMKVMKVM"),
            Some("laptop".into()),
            Source::Run,
        );
        let mut written = serde_json::to_value(&testbed).unwrap();
        written["fingerprint"] = "forged".into();
        let read: Testbed = serde_json::from_value(written).unwrap();
        assert_eq!(read, testbed);
    }

    #[test]
    fn splits_the_kernel_off_each_runners_os() {
        assert_eq!(split_kernel("Alpine (Linux 6.6.1)"), ("Alpine".into(), Some("6.6.1".into())));
        assert_eq!(
            split_kernel("Ubuntu 24.04 LTS 6.8.0-1"),
            ("Ubuntu 24.04 LTS".into(), Some("6.8.0-1".into()))
        );
        assert_eq!(split_kernel("linux"), ("linux".into(), None));
        assert_eq!(split_kernel("Some OS v2"), ("Some OS v2".into(), None));
    }
}
