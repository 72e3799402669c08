//! The CSV reader from bytes, for each tabular row type.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shootout::input::fuzz;

fuzz_target!(|bytes: &[u8]| fuzz::read_csv(bytes));
