//! The one error type of the UBJSON encoder and decoder.

use std::fmt;

/// Why UBJSON could not be written or read. Reading errors carry the byte offset
/// (from the start of the input) where the problem was found.
#[derive(Debug)]
pub enum Error {
    /// The input ended inside a value.
    Eof,
    /// A byte that is not a valid marker where a value (or key length, element
    /// type, end marker) was expected.
    Marker { offset: usize, marker: u8, expected: &'static str },
    /// Structurally invalid input: a negative length, bad UTF-8, a malformed
    /// high-precision number, containers nested too deep...
    Invalid { offset: usize, what: &'static str },
    /// The input holds bytes after the value (`from_slice` only).
    TrailingBytes { offset: usize },
    /// A value serde cannot map (raised by `Serialize`/`Deserialize` impls or by
    /// the serializer for values UBJSON cannot express, such as non-string keys).
    Custom(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Eof => f.write_str("UBJSON: unexpected end of input"),
            Error::Marker { offset, marker, expected } => {
                write!(f, "UBJSON: byte {offset}: expected {expected}, found ")?;
                if marker.is_ascii_graphic() {
                    write!(f, "'{}'", *marker as char)
                } else {
                    write!(f, "0x{marker:02x}")
                }
            }
            Error::Invalid { offset, what } => write!(f, "UBJSON: byte {offset}: {what}"),
            Error::TrailingBytes { offset } => {
                write!(f, "UBJSON: trailing bytes after the value at byte {offset}")
            }
            Error::Custom(message) => write!(f, "UBJSON: {message}"),
        }
    }
}

impl std::error::Error for Error {}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error::Custom(message.to_string())
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error::Custom(message.to_string())
    }
}
