//! The integration tests, one binary: each module runs the CLI as a user would
//! (or reads the sources, as `architecture` does). One binary links the
//! format libraries once, where a binary per file linked them some thirty times.

mod architecture;
mod atomic_writes;
mod broken_pipe;
mod common;
mod compare;
mod dataset;
mod errors;
mod evolution;
mod fuzz_parsers;
mod hostile_input;
mod hostile_results;
mod html_report;
mod input;
mod instructions;
mod interop;
mod interop_decode;
mod interop_docs;
mod json_shape;
mod jsonl;
mod languages;
mod readme;
mod real_captures;
mod recommend;
mod replay;
mod report;
mod robustness;
mod run;
mod spec;
mod streaming;
mod study;
mod terminal;
mod testbeds;
mod workloads;
