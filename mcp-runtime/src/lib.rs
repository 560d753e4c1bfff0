//! The Model Context Protocol runtime: typed protocol messages for both eras
//! (2026-07-28 and 2024-11-05 through 2025-11-25), a concurrent JSON-RPC
//! engine, the server registry and router, the stdio transport, and a client.
//!
//! Start with [`server::Server::builder`].

mod canonical;
pub mod client;
pub mod jsonrpc;
pub mod protocol;
pub mod schema;
pub mod server;
pub mod transport;

/// Crates that generated code refers to, so that a crate using generated
/// clients needs no direct dependency on them.
pub mod reexports {
    pub use serde;
    pub use serde_json;
}
#[doc(hidden)]
pub mod __private;

pub use mcp_macros::{mcp_prompt, mcp_resource, mcp_server, mcp_tool};
/// Re-exported so that users derive `JsonSchema` without a direct dependency.
pub use schemars;
