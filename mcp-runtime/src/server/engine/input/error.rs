//! Why a question to the client got no answer.

use std::fmt;

/// Why a question to the client got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// The client did not declare the capability the question needs (the
    /// request fails with -32021 naming it).
    MissingCapability(&'static str),
    /// 2026-07-28: the question goes back to the client in an
    /// `input_required` result; return this error from the handler.
    Pending,
    /// The client answered with an error or with something unreadable.
    Rejected(String),
    /// No answer in time, or the connection closed.
    NoAnswer,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::MissingCapability(capability) => {
                write!(f, "the client does not support {capability}")
            }
            InputError::Pending => f.write_str("waiting for the client's answer"),
            InputError::Rejected(why) => write!(f, "the client refused: {why}"),
            InputError::NoAnswer => f.write_str("the client did not answer"),
        }
    }
}

impl std::error::Error for InputError {}
