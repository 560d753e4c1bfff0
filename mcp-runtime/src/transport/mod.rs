//! Transports: how frames reach the server and leave it.

pub mod http;
pub mod stdio;

pub use http::HttpConfig;
pub use stdio::StdioConfig;
