//! Each Rust library row's newest release and its date: how current a
//! library is, a fact beside its figures (`shootout formats`). Read from the
//! crates.io index (each version's `pubtime`, as cargo fetched it) on
//! 2026-12-07; the newest non-yanked release that is not a pre-release, which
//! may be newer than the version Cargo.lock builds. A library that is not
//! released (this project's own code) says so.

/// Where a row's library stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Release {
    /// The newest release on crates.io and its publication date.
    Crate { version: &'static str, date: &'static str },
    /// Code of this repository (a path dependency, or the shootout crate itself).
    Own,
}

/// Every library a Rust row names (`FormatInfo::library`); a test holds the
/// registry to it.
const RELEASES: &[(&str, Release)] = &[
    ("apache-avro", Release::Crate { version: "0.22.0", date: "2026-08-10" }),
    ("bebop", Release::Crate { version: "3.2.3", date: "2025-09-16" }),
    ("bincode", Release::Crate { version: "3.0.0", date: "2025-12-16" }),
    ("bitcode", Release::Crate { version: "0.6.9", date: "2025-12-18" }),
    ("borsh", Release::Crate { version: "1.8.1", date: "2026-08-26" }),
    ("bson", Release::Crate { version: "3.1.0", date: "2025-11-20" }),
    ("buffa", Release::Crate { version: "0.9.2", date: "2026-09-03" }),
    ("capnp", Release::Crate { version: "0.27.3", date: "2026-10-27" }),
    ("ciborium", Release::Crate { version: "0.2.2", date: "2024-01-24" }),
    ("dbn", Release::Crate { version: "0.73.0", date: "2026-10-27" }),
    ("flatbuffers", Release::Crate { version: "25.12.19", date: "2025-12-19" }),
    ("flexbuffers", Release::Crate { version: "25.12.19", date: "2025-12-19" }),
    ("fory", Release::Crate { version: "1.7.7", date: "2026-10-12" }),
    ("minicbor", Release::Crate { version: "2.3.1", date: "2026-10-18" }),
    ("musli", Release::Crate { version: "0.2.1", date: "2026-10-23" }),
    ("planus", Release::Crate { version: "1.3.0", date: "2026-01-25" }),
    ("postcard", Release::Crate { version: "1.2.0", date: "2026-11-21" }),
    ("prost", Release::Crate { version: "0.14.6", date: "2026-11-12" }),
    ("prost-reflect", Release::Crate { version: "0.16.5", date: "2026-07-09" }),
    ("protobuf", Release::Crate { version: "4.36.2-release", date: "2026-09-17" }),
    ("rkyv", Release::Crate { version: "0.8.18", date: "2026-08-05" }),
    ("rmp-serde", Release::Crate { version: "1.3.1", date: "2025-12-23" }),
    ("sbe-generated", Release::Own),
    ("serde_json", Release::Crate { version: "1.0.154", date: "2026-10-11" }),
    ("shootout", Release::Own),
    ("simd-json", Release::Crate { version: "0.19.0", date: "2026-10-27" }),
    ("simd-json-derive", Release::Crate { version: "0.19.0", date: "2026-10-27" }),
    ("sonic-rs", Release::Crate { version: "0.5.12", date: "2026-11-19" }),
    ("speedy", Release::Crate { version: "0.8.7", date: "2024-01-14" }),
    ("thrift", Release::Crate { version: "0.25.0", date: "2026-09-30" }),
    ("wincode", Release::Crate { version: "0.6.3", date: "2026-10-13" }),
    ("zerompk", Release::Crate { version: "0.8.0", date: "2026-08-29" }),
];

/// `library`'s newest release, if the table has it.
pub fn of(library: &str) -> Option<Release> {
    RELEASES.iter().find(|(name, _)| *name == library).map(|(_, release)| *release)
}

impl Release {
    /// As `formats` shows it: "1.7.7, 2026-10-12", or "this repository's code".
    pub fn shown(self) -> String {
        match self {
            Release::Crate { version, date } => format!("{version}, {date}"),
            Release::Own => "this repository's code".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every Rust row's library has its release here, so a new row cannot
    /// land without the fact.
    #[test]
    fn every_row_library_has_a_release() {
        for info in crate::catalog::registry::formats() {
            assert!(of(info.library).is_some(), "{}: add {} to RELEASES", info.name, info.library);
        }
    }

    /// A date is a calendar date, and a library appears once.
    #[test]
    fn entries_are_well_formed() {
        for (i, (name, release)) in RELEASES.iter().enumerate() {
            assert!(!RELEASES[..i].iter().any(|(other, _)| other == name), "{name} twice");
            if let Release::Crate { date, .. } = release {
                let parts: Vec<&str> = date.split('-').collect();
                assert!(
                    parts.len() == 3 && parts.iter().all(|p| p.parse::<u16>().is_ok()),
                    "{name}: {date}"
                );
            }
        }
    }
}
