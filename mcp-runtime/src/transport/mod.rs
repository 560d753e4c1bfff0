//! Transports: how frames reach the server and leave it.

pub mod stdio;

pub use stdio::StdioConfig;
