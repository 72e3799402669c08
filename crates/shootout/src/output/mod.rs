//! What the terminal shows.

pub mod formats;
pub mod inspect;
pub mod table;
