//! Typed Rust client generation from an MCP server's `tools/list`.
//!
//! Not implemented yet (issue 5).
