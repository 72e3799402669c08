//! shootout: a serialization-format benchmark on real data.

pub mod alloc;
pub mod benchmark;
pub mod catalog;
pub mod caught;
pub mod cli;
pub mod compare;
pub mod dataset;
pub mod environment;
pub mod evolution;
pub mod export;
pub mod format;
pub mod input;
pub mod interop;
pub mod output;
pub mod processes;
pub mod recommend;
pub mod report;
pub mod results;
pub mod robustness;
pub mod run;
pub mod runners;
pub mod sanitize;
pub mod saved;
pub mod study;
pub mod temporary;
pub mod workload;
