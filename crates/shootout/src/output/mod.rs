//! What the terminal shows.

pub mod formats;
pub mod inspect;
pub mod table;
pub mod testbeds;
pub mod verdict;

/// Warnings go to stderr, one line each, whatever the tables go to. They
/// quote inputs and results files, so they are shown as a terminal shows text
/// from outside.
pub fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("warning: {}", crate::sanitize::line(warning));
    }
}
