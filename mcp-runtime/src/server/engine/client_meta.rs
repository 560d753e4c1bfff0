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
