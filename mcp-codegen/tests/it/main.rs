//! mcp-codegen's integration tests, one module per subject, in one binary.

#[cfg(feature = "cli")]
mod cli;
mod clients;
mod hostile;
#[cfg(feature = "tls")]
mod https;
mod roundtrip;
mod snapshots;
mod support;

/// Stands in for the runtime in the round-trip snapshots (generated with
/// `runtime_path = "crate::rt"`, so it lives at the crate root): its serde
/// re-exports, and the real support module generated `Serialize` impls call.
mod rt {
    pub use mcp_toolkit_runtime::codegen;
    pub mod reexports {
        pub use serde;
        pub use serde_json;
    }
}
