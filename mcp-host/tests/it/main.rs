//! mcp-host's integration tests, one module per subject, in one binary.

mod config_debug;
mod tool_schemas;
