//! Attribute macros for MCP tools, resources and prompts.
//!
//! Not implemented yet (issue 3); servers are written with the builder API of
//! `mcp_runtime::server` until then.
