//! The capture reader from bytes, as `shootout run --input FILE` reads it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shootout::input::fuzz;

fuzz_target!(|bytes: &[u8]| fuzz::read_capture(bytes));
