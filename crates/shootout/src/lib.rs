//! shootout: a serialization-format benchmark on real data.

pub mod format;
pub mod workload;
