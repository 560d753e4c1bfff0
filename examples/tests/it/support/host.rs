//! The `mcp-host` command, built by cargo for the tests that run it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::cargo::cargo;

/// The `mcp-host` binary, built once per test binary (`cargo build -p
/// mcp-host`: it belongs to another package, so cargo does not build it
/// for this one's tests).
pub fn mcp_host() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let status = cargo()
            .args(["build", "--quiet", "-p", "mcp-toolkit-host", "--bin", "mcp-host"])
            .status()
            .expect("run cargo build");
        assert!(status.success(), "building mcp-host failed");
        let exe = std::env::current_exe().unwrap();
        // target/debug/deps/this-test -> target/debug/mcp-host
        exe.parent().unwrap().parent().unwrap().join("mcp-host")
    })
}
