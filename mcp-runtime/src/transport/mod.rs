//! Transports: how frames reach the server and leave it.

#[cfg(feature = "http")]
pub mod http;
pub mod stdio;

#[cfg(feature = "http")]
pub use http::HttpConfig;
pub use stdio::StdioConfig;
