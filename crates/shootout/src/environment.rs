//! The machine and build behind a set of results: what a reader needs to
//! reproduce a number or to doubt it. Every probe is a file read or one CPUID
//! and yields `None` when the value cannot be read, so capturing never fails.

use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;

/// (crate, version) for every package in Cargo.lock, captured at build time.
const LOCKED_VERSIONS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/locked_versions.rs"));

/// How this binary was compiled, written by build.rs.
mod build {
    include!(concat!(env!("OUT_DIR"), "/build_info.rs"));
}

#[derive(Debug, Clone, Serialize)]
pub struct Environment {
    pub cpu: String,
    pub cpu_flags: Option<Vec<String>>,
    pub cache: Caches,
    pub hypervisor: Option<String>,
    pub cpufreq_governor: Option<String>,
    pub constant_tsc: Option<bool>,
    pub nonstop_tsc: Option<bool>,
    pub memory_bytes: Option<u64>,
    pub cores: usize,
    pub os: String,
    /// The compiler that built the runner; every runner's results have this key.
    pub toolchain: &'static str,
    pub rustc: &'static str,
    pub build_profile: &'static str,
    /// The Cargo profile by name (`release`, `figures`, `dev`), and the two of
    /// its settings that move figures most: cross-crate LTO and codegen units.
    pub cargo_profile: &'static str,
    pub lto: &'static str,
    pub codegen_units: &'static str,
    pub opt_level: &'static str,
    pub rustflags: &'static [&'static str],
    pub target: &'static str,
    pub target_features: &'static [&'static str],
    pub allocator: &'static str,
    pub shootout_version: &'static str,
    pub git_commit: &'static str,
    pub git_dirty: Option<bool>,
    /// RFC 3339 UTC time the run started.
    pub date: String,
}

/// Sizes of one instance of each cache as cpu0 sees it (an L3 is usually
/// shared by several cores).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Caches {
    pub l1d_bytes: Option<u64>,
    pub l1i_bytes: Option<u64>,
    pub l2_bytes: Option<u64>,
    pub l3_bytes: Option<u64>,
}

/// The locked version of `crate_name`, as built into this binary.
pub fn crate_version(crate_name: &str) -> &'static str {
    LOCKED_VERSIONS
        .iter()
        .find(|(name, _)| *name == crate_name)
        .map_or("unknown", |(_, version)| version)
}

/// The 1, 5 and 15 minute load averages, or `None` where /proc/loadavg is unreadable.
pub fn load_average() -> Option<[f64; 3]> {
    parse_loadavg(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// CPU time since boot, all CPUs, in clock ticks: the total, the idle part
/// (idle and iowait), and what the hypervisor gave other guests while this
/// one wanted to run (steal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuTimes {
    pub total: u64,
    pub idle: u64,
    pub steal: u64,
}

impl CpuTimes {
    /// The first line of /proc/stat, or `None` where it is unreadable.
    pub fn now() -> Option<CpuTimes> {
        parse_cpu_times(std::fs::read_to_string("/proc/stat").ok()?.lines().next()?)
    }

    /// The share of CPU time stolen since `earlier`, in percent (`None` when no time passed).
    pub fn steal_pct_since(&self, earlier: &CpuTimes) -> Option<f64> {
        let total = self.total.checked_sub(earlier.total).filter(|&t| t > 0)?;
        Some(100.0 * self.steal.saturating_sub(earlier.steal) as f64 / total as f64)
    }

    /// How many of `cores` cores' worth of CPU was in use since `earlier` (`None` when no time passed).
    pub fn busy_cores_since(&self, earlier: &CpuTimes, cores: usize) -> Option<f64> {
        let total = self.total.checked_sub(earlier.total).filter(|&t| t > 0)?;
        let idle = self.idle.saturating_sub(earlier.idle).min(total);
        Some(cores as f64 * (total - idle) as f64 / total as f64)
    }
}

/// `cpu  user nice system idle iowait irq softirq steal …`.
fn parse_cpu_times(line: &str) -> Option<CpuTimes> {
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let ticks: Vec<u64> = fields.map(str::parse).collect::<Result<_, _>>().ok()?;
    let [_, _, _, idle, iowait, _, _, steal, ..] = ticks[..] else {
        return None;
    };
    Some(CpuTimes { total: ticks.iter().take(8).sum(), idle: idle + iowait, steal })
}

fn parse_loadavg(text: &str) -> Option<[f64; 3]> {
    let mut fields = text.split_whitespace().map(str::parse::<f64>);
    Some([fields.next()?.ok()?, fields.next()?.ok()?, fields.next()?.ok()?])
}

fn read_trimmed(path: impl AsRef<Path>) -> Option<String> {
    std::fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

/// The value of the first `key : value` line of /proc/cpuinfo with this key.
fn cpuinfo_field<'a>(cpuinfo: &'a str, key: &str) -> Option<&'a str> {
    cpuinfo.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        (name.trim() == key).then(|| value.trim())
    })
}

fn cpu_model(cpuinfo: &str) -> String {
    cpuinfo_field(cpuinfo, "model name")
        .map_or_else(|| std::env::consts::ARCH.to_owned(), str::to_owned)
}

/// x86 calls the line `flags`, ARM `Features`.
fn cpu_flags(cpuinfo: &str) -> Option<Vec<String>> {
    let flags = cpuinfo_field(cpuinfo, "flags").or_else(|| cpuinfo_field(cpuinfo, "Features"))?;
    Some(flags.split_whitespace().map(str::to_owned).collect())
}

fn has_flag(flags: Option<&[String]>, flag: &str) -> Option<bool> {
    flags.map(|flags| flags.iter().any(|f| f == flag))
}

/// Sysfs cache sizes: "48K", "2048K", "32M", or plain bytes.
fn parse_cache_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, unit) = match text.as_bytes().last()? {
        b'K' => (&text[..text.len() - 1], 1 << 10),
        b'M' => (&text[..text.len() - 1], 1 << 20),
        b'G' => (&text[..text.len() - 1], 1 << 30),
        _ => (text, 1),
    };
    digits.parse::<u64>().ok().map(|n| n * unit)
}

/// Reads `dir/index*/{level,type,size}` (dir is /sys/devices/system/cpu/cpu0/cache).
fn read_caches(dir: &Path) -> Caches {
    let mut caches = Caches::default();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return caches;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with("index") {
            continue;
        }
        let index = entry.path();
        let (Some(level), Some(kind), Some(size)) = (
            read_trimmed(index.join("level")),
            read_trimmed(index.join("type")),
            read_trimmed(index.join("size")),
        ) else {
            continue;
        };
        let slot = match (level.as_str(), kind.as_str()) {
            ("1", "Data") => &mut caches.l1d_bytes,
            ("1", "Instruction") => &mut caches.l1i_bytes,
            ("2", _) => &mut caches.l2_bytes,
            ("3", _) => &mut caches.l3_bytes,
            _ => continue,
        };
        *slot = parse_cache_size(&size);
    }
    caches
}

fn memory_total_bytes(meminfo: &str) -> Option<u64> {
    let value = meminfo.lines().find_map(|line| line.strip_prefix("MemTotal:"))?;
    let kib = value.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()?;
    Some(kib * 1024)
}

/// The hypervisor's name, or `None` on bare metal. The `hypervisor` flag says
/// whether there is one; the name comes from Xen's sysfs file or the CPUID
/// hypervisor leaf.
fn hypervisor(flags: Option<&[String]>) -> Option<String> {
    if has_flag(flags, "hypervisor") != Some(true) {
        return None;
    }
    let name = read_trimmed("/sys/hypervisor/type")
        .filter(|name| !name.is_empty())
        .or_else(cpuid_hypervisor_vendor);
    Some(name.unwrap_or_else(|| "unknown".to_owned()))
}

#[cfg(target_arch = "x86_64")]
fn cpuid_hypervisor_vendor() -> Option<String> {
    // Leaf 0x4000_0000 is defined only under a hypervisor, which the caller has
    // established. `__cpuid` is safe from Rust 1.94 on but unsafe at this
    // crate's rust-version; every x86_64 CPU has CPUID.
    #[allow(unused_unsafe)]
    let leaf = unsafe { core::arch::x86_64::__cpuid(0x4000_0000) };
    cpuid_vendor(leaf.ebx, leaf.ecx, leaf.edx)
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_hypervisor_vendor() -> Option<String> {
    None
}

/// A CPUID vendor signature: twelve ASCII bytes in EBX, ECX, EDX, NUL-padded.
fn cpuid_vendor(ebx: u32, ecx: u32, edx: u32) -> Option<String> {
    let bytes: Vec<u8> = [ebx, ecx, edx].iter().flat_map(|r| r.to_le_bytes()).collect();
    let vendor =
        std::str::from_utf8(&bytes).ok()?.trim_matches(|c: char| c == '\0' || c.is_whitespace());
    (!vendor.is_empty() && vendor.bytes().all(|b| b.is_ascii_graphic() || b == b' '))
        .then(|| vendor.to_owned())
}

fn os_description() -> String {
    let pretty = read_trimmed("/etc/os-release").and_then(|release| {
        release
            .lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_owned()))
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
    /// How far this build's figures are from the published ones' build
    /// (Cargo profile `figures`), when they are.
    pub fn build_warning(&self) -> Option<String> {
        if self.build_profile == "debug" {
            return Some(
                "a debug build: its figures say nothing about the formats (use cargo run --release)"
                    .to_owned(),
            );
        }
        let whole_program = matches!(self.lto, "fat" | "true") && self.codegen_units == "1";
        (!whole_program).then(|| {
            format!(
                "built in Cargo profile `{}` (lto {}, {} codegen units), not as the published \
                 figures are (profile `figures`: fat LTO, one codegen unit): formats' costs \
                 relative to each other differ by tens of per cent between the two builds \
                 (docs/results/build-profiles.md); `cargo run --profile figures -- run` builds that one",
                self.cargo_profile, self.lto, self.codegen_units
            )
        })
    }

    pub fn capture() -> Self {
        let cpuinfo = read_trimmed("/proc/cpuinfo").unwrap_or_default();
        let cpu_flags = cpu_flags(&cpuinfo);
        let flags = cpu_flags.as_deref();
        Environment {
            cpu: cpu_model(&cpuinfo),
            hypervisor: hypervisor(flags),
            constant_tsc: has_flag(flags, "constant_tsc"),
            nonstop_tsc: has_flag(flags, "nonstop_tsc"),
            cpu_flags,
            cache: read_caches(Path::new("/sys/devices/system/cpu/cpu0/cache")),
            cpufreq_governor: read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
            memory_bytes: read_trimmed("/proc/meminfo").as_deref().and_then(memory_total_bytes),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: os_description(),
            toolchain: env!("SHOOTOUT_RUSTC_VERSION"),
            rustc: env!("SHOOTOUT_RUSTC_VERSION"),
            build_profile: build::PROFILE,
            cargo_profile: build::CARGO_PROFILE,
            lto: build::LTO,
            codegen_units: build::CODEGEN_UNITS,
            opt_level: build::OPT_LEVEL,
            rustflags: build::RUSTFLAGS,
            target: build::TARGET,
            target_features: build::TARGET_FEATURES,
            allocator: crate::alloc::NAME,
            shootout_version: env!("CARGO_PKG_VERSION"),
            git_commit: env!("SHOOTOUT_GIT_COMMIT"),
            git_dirty: build::GIT_DIRTY,
            date: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPUINFO: &str = "processor\t: 0\n\
        vendor_id\t: GenuineIntel\n\
        model name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n\
        flags\t\t: fpu tsc constant_tsc nonstop_tsc hypervisor avx2\n\
        \n\
        processor\t: 1\n\
        model name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n\
        flags\t\t: fpu tsc\n";

    #[test]
    fn knows_locked_versions_of_its_dependencies() {
        assert_ne!(crate_version("hdrhistogram"), "unknown");
        assert_eq!(crate_version("no-such-crate"), "unknown");
    }

    #[test]
    fn reads_model_and_flags_of_the_first_processor() {
        assert_eq!(cpu_model(CPUINFO), "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz");
        let flags = cpu_flags(CPUINFO).unwrap();
        assert_eq!(flags, ["fpu", "tsc", "constant_tsc", "nonstop_tsc", "hypervisor", "avx2"]);
        assert_eq!(has_flag(Some(&flags), "constant_tsc"), Some(true));
        assert_eq!(has_flag(Some(&flags), "tsc_known_freq"), Some(false));
    }

    #[test]
    fn unreadable_cpuinfo_gives_null_flags_and_no_hypervisor() {
        assert_eq!(cpu_flags(""), None);
        assert_eq!(has_flag(None, "constant_tsc"), None);
        assert_eq!(hypervisor(None), None);
        assert_eq!(hypervisor(Some(&["fpu".to_owned()])), None);
        assert_eq!(cpu_model(""), std::env::consts::ARCH);
    }

    #[test]
    fn reads_arm_features_as_flags() {
        let cpuinfo = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes\n";
        assert_eq!(cpu_flags(cpuinfo).unwrap(), ["fp", "asimd", "evtstrm", "aes"]);
    }

    #[test]
    fn a_flagged_hypervisor_always_has_a_name() {
        assert!(!hypervisor(Some(&["hypervisor".to_owned()])).unwrap().is_empty());
    }

    #[test]
    fn decodes_cpuid_vendor_signatures() {
        // KVM's signature: "KVMKVMKVM\0\0\0".
        assert_eq!(cpuid_vendor(0x4b4d_564b, 0x564b_4d56, 0x4d).as_deref(), Some("KVMKVMKVM"));
        let [ebx, ecx, edx] = [*b"Micr", *b"osof", *b"t Hv"].map(u32::from_le_bytes);
        assert_eq!(cpuid_vendor(ebx, ecx, edx).as_deref(), Some("Microsoft Hv"));
        assert_eq!(cpuid_vendor(0, 0, 0), None);
        assert_eq!(cpuid_vendor(0xffff_ffff, 0x0102_0304, 0), None);
    }

    #[test]
    fn parses_cache_sizes() {
        assert_eq!(parse_cache_size("48K\n"), Some(48 * 1024));
        assert_eq!(parse_cache_size("32M"), Some(32 << 20));
        assert_eq!(parse_cache_size("512"), Some(512));
        assert_eq!(parse_cache_size(""), None);
        assert_eq!(parse_cache_size("lots"), None);
    }

    #[test]
    fn reads_cache_directories() {
        let dir = tempfile::tempdir().unwrap();
        let caches = [
            ("1", "Data", "48K"),
            ("1", "Instruction", "32K"),
            ("2", "Unified", "1280K"),
            ("3", "Unified", "55296K"),
        ];
        for (i, (level, kind, size)) in caches.iter().enumerate() {
            let index = dir.path().join(format!("index{i}"));
            std::fs::create_dir(&index).unwrap();
            for (file, text) in [("level", level), ("type", kind), ("size", size)] {
                std::fs::write(index.join(file), format!("{text}\n")).unwrap();
            }
        }
        std::fs::write(dir.path().join("uevent"), "").unwrap();
        let expected = Caches {
            l1d_bytes: Some(48 << 10),
            l1i_bytes: Some(32 << 10),
            l2_bytes: Some(1280 << 10),
            l3_bytes: Some(55296 << 10),
        };
        assert_eq!(read_caches(dir.path()), expected);
        assert_eq!(read_caches(&dir.path().join("missing")), Caches::default());
    }

    #[test]
    fn reads_total_memory_in_bytes() {
        let meminfo = "MemTotal:       16318480 kB\nMemFree:         1234567 kB\n";
        assert_eq!(memory_total_bytes(meminfo), Some(16_318_480 * 1024));
        assert_eq!(memory_total_bytes("MemFree: 1 kB\n"), None);
    }

    #[test]
    fn parses_cpu_times_and_the_steal_between_two() {
        let before = parse_cpu_times("cpu  100 0 50 800 10 0 5 35 0 0").unwrap();
        assert_eq!(before, CpuTimes { total: 1000, idle: 810, steal: 35 });
        let after = parse_cpu_times("cpu  200 0 100 1600 20 0 10 70 0 0").unwrap();
        assert_eq!(after.steal_pct_since(&before), Some(3.5));
        // 190 of the 1000 ticks between them were busy: 0.38 of 2 cores.
        assert_eq!(after.busy_cores_since(&before, 2), Some(0.38));
        assert_eq!(after.steal_pct_since(&after), None);
        assert_eq!(parse_cpu_times("cpu0 1 2 3 4 5 6 7 8"), None);
        assert_eq!(parse_cpu_times("cpu 1 2 3"), None);
    }

    #[test]
    fn parses_load_averages() {
        assert_eq!(parse_loadavg("0.52 1.07 2.00 3/411 12345\n"), Some([0.52, 1.07, 2.0]));
        assert_eq!(parse_loadavg("0.52 1.07"), None);
        assert_eq!(parse_loadavg("high 1.07 2.00"), None);
    }

    #[test]
    fn only_the_published_figures_build_goes_unwarned() {
        let mut environment = Environment::capture();
        environment.build_profile = "release";
        environment.cargo_profile = "figures";
        environment.lto = "fat";
        environment.codegen_units = "1";
        assert_eq!(environment.build_warning(), None);
        environment.cargo_profile = "release";
        environment.lto = "false";
        environment.codegen_units = "16";
        let warning = environment.build_warning().unwrap();
        assert!(warning.contains("profile `release` (lto false, 16 codegen units)"), "{warning}");
        environment.build_profile = "debug";
        assert!(environment.build_warning().unwrap().starts_with("a debug build"));
    }

    #[test]
    fn capture_does_not_panic_and_names_the_build() {
        let environment = Environment::capture();
        assert!(
            ["debug", "release"].contains(&environment.build_profile),
            "{}",
            environment.build_profile
        );
        // The test build: the dev profile's directory, its settings from Cargo's defaults.
        assert_eq!(environment.cargo_profile, "dev");
        assert!(environment.codegen_units.parse::<u32>().is_ok(), "{}", environment.codegen_units);
        assert!(!environment.lto.is_empty());
        assert!(!environment.target.is_empty());
        assert!(environment.rustflags.iter().all(|flag| !flag.is_empty()));
        // Reading the host's values must not panic either, whatever they are.
        load_average();
    }
}
