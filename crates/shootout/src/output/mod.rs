//! What the terminal shows.

pub mod formats;
pub mod inspect;
pub mod table;

/// Warnings go to stderr, one line each, whatever the tables go to.
pub fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
}
