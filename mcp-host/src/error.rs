//! What can go wrong in the host, each with the exit status `mcp-host`
//! gives it and a message that names the server and the tool.

use std::fmt;
use std::time::Duration;

/// A call or command that did not produce a result.
#[derive(Debug)]
#[non_exhaustive]
pub enum HostError {
    /// The command line or the configuration is wrong (exit 2).
    Usage(String),
    /// No such `SERVER.TOOL` in the catalogue (exit 2).
    UnknownTool(String),
    /// The arguments do not satisfy the tool's input schema; nothing was
    /// sent (exit 2).
    InvalidArguments {
        /// `SERVER.TOOL`.
        tool: String,
        /// Each violation, naming the argument.
        detail: String,
    },
    /// The policy, or the user, said no (exit 3).
    Refused {
        /// `SERVER.TOOL`.
        tool: String,
        /// Why.
        why: String,
    },
    /// No answer in time; the call was cancelled (exit 4).
    Timeout {
        /// `SERVER.TOOL`.
        tool: String,
        /// How long it ran.
        after: Duration,
    },
    /// The server cannot be used: it did not start, it failed, or it
    /// broke the protocol or its own schemas (exit 5).
    Unavailable {
        /// The server.
        server: String,
        /// Why.
        why: String,
    },
}

impl HostError {
    /// The exit status of `mcp-host` for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            HostError::Usage(_)
            | HostError::UnknownTool(_)
            | HostError::InvalidArguments { .. } => 2,
            HostError::Refused { .. } => 3,
            HostError::Timeout { .. } => 4,
            HostError::Unavailable { .. } => 5,
        }
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Usage(why) => f.write_str(why),
            HostError::UnknownTool(tool) => {
                write!(
                    f,
                    "{tool}: no such tool (see `mcp-host tools`; tools are named SERVER.TOOL)"
                )
            }
            HostError::InvalidArguments { tool, detail } => {
                write!(f, "{tool}: invalid arguments, nothing was sent:\n{detail}")
            }
            HostError::Refused { tool, why } => write!(f, "{tool}: refused: {why}"),
            HostError::Timeout { tool, after } => {
                write!(
                    f,
                    "{tool}: no answer after {:.1} s; the call was cancelled",
                    after.as_secs_f64()
                )
            }
            HostError::Unavailable { server, why } => write!(f, "server {server}: {why}"),
        }
    }
}

impl std::error::Error for HostError {}
