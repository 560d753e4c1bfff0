//! The `mcp-host` command, built by cargo for the tests that run it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::cargo::workspace_binaries;

/// The `mcp-host` binary (it belongs to another package, so cargo does not
/// build it for this one's tests).
pub fn mcp_host() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| workspace_binaries().join("mcp-host"))
}
