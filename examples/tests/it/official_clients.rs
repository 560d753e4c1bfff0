//! The official SDK clients drive `echo-server` over stdio: the Python SDK
//! 2.3.0 (2026-07-28, and its legacy mode) and the TypeScript SDK 1.32
//! (legacy handshake). `tests/interop/setup.sh` installs them from PyPI and
//! npm into `target/interop`; the test fails if they cannot be installed.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::interop::{python, run_client, script, sdks};

fn run(program: &Path, client: &str, extra: &[&str]) {
    let mut command = Command::new(program);
    command
        .arg(script(client))
        .args(extra)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_echo-server"))
        .env("MCP_INTEROP_NODE_DIR", sdks().join("node"));
    run_client(&mut command, &format!("{client} {extra:?}"));
}

#[test]
fn python_sdk_client_in_the_2026_era() {
    run(
        &python(),
        "py_client.py",
        &["--mode", "auto", "--expect-version", "2026-07-28"],
    );
}

#[test]
fn python_sdk_client_in_legacy_mode() {
    run(
        &python(),
        "py_client.py",
        &["--mode", "legacy", "--expect-version", "2025-11-25"],
    );
}

#[test]
fn typescript_sdk_client_with_the_legacy_handshake() {
    run(Path::new("node"), "ts_client.mjs", &[]);
}
