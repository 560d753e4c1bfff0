//! Who is calling: the era of a request, its protocol version and what the
//! client declared.

pub use crate::protocol::Era;
use crate::protocol::{ClientCapabilities, Implementation};

/// Who is calling: the negotiated version and what the client declared.
#[derive(Debug, Clone)]
pub struct ClientMeta {
    /// The era of the request.
    pub era: Era,
    /// The protocol version in force for the request.
    pub protocol_version: String,
    /// The client's name and version, when it sent them.
    pub client_info: Option<Implementation>,
    /// The capabilities the client declared.
    pub capabilities: ClientCapabilities,
}

impl ClientMeta {
    /// The legacy client of a session whose `initialize` has not completed
    /// (for `initialize` itself and `ping`): it has declared nothing yet.
    pub(crate) fn before_initialize() -> Self {
        ClientMeta {
            era: Era::Legacy,
            protocol_version: String::new(),
            client_info: None,
            capabilities: ClientCapabilities::default(),
        }
    }
}
