//! The official SDK clients drive `echo-server --http` over Streamable HTTP:
//! the TypeScript SDK 1.32 (legacy era, with a session it ends by DELETE)
//! and the Python SDK 2.3.0 (2026-07-28, and its legacy mode).
//! `tests/interop/setup.sh` installs them into `target/interop`; the test
//! fails if they cannot be installed.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::interop::{HttpFixture, python, run_client, script, sdks};

fn run(program: &Path, client: &str, extra: &[&str]) {
    let server = HttpFixture::start(Path::new(env!("CARGO_BIN_EXE_echo-server")), &[]);
    let mut command = Command::new(program);
    command
        .arg(script(client))
        .args(extra)
        .args(["--url", &server.url])
        .env("MCP_INTEROP_NODE_DIR", sdks().join("node"));
    let stdout = run_client(&mut command, &format!("{client} {extra:?}"));
    assert!(stdout.contains(r#""transport": "http""#) || stdout.contains(r#""transport":"http""#));
}

#[test]
fn python_sdk_client_over_http_in_the_2026_era() {
    run(
        &python(),
        "py_client.py",
        &["--mode", "auto", "--expect-version", "2026-07-28"],
    );
}

#[test]
fn python_sdk_client_over_http_in_legacy_mode() {
    run(
        &python(),
        "py_client.py",
        &["--mode", "legacy", "--expect-version", "2025-11-25"],
    );
}

#[test]
fn typescript_sdk_client_over_http_with_a_legacy_session() {
    run(Path::new("node"), "ts_client.mjs", &[]);
}
