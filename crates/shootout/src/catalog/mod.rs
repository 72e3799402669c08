//! What there is to run: every workload ([`workloads`]: its name, its data and
//! how its input is built) and every format registered for each
//! ([`registry`]: the format × workload matrix). The commands read these two
//! tables; the harness, the formats and the workloads never do.

pub mod registry;
pub mod workloads;

pub use workloads::{Data, WORKLOADS, WorkloadName, WorkloadTask, dispatch};
