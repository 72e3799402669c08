//! What the terminal shows.

pub mod inspect;
pub mod table;
