//! The official SDK clients drive `echo-server` over stdio: the Python SDK
//! 2.3.0 (2026-07-28, and its legacy mode) and the TypeScript SDK 1.32
//! (legacy handshake). `tests/interop/setup.sh` installs them from PyPI and
//! npm into `target/interop`; the test fails if they cannot be installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Installs the clients once per test binary; returns the install folder.
fn clients() -> &'static Path {
    static TARGET: OnceLock<PathBuf> = OnceLock::new();
    TARGET.get_or_init(|| {
        let target = repo().join("target/interop");
        let status = Command::new("bash")
            .arg(repo().join("tests/interop/setup.sh"))
            .env("TARGET", &target)
            .status()
            .expect("run tests/interop/setup.sh");
        assert!(
            status.success(),
            "installing the official SDK clients failed"
        );
        target
    })
}

fn run(program: &Path, script: &str, extra: &[&str]) {
    let output = Command::new(program)
        .arg(repo().join("tests/interop").join(script))
        .args(extra)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_echo-server"))
        .env("MCP_INTEROP_NODE_DIR", clients().join("node"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{script} {extra:?} failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    println!("{script} {extra:?}: {stdout}");
}

#[test]
fn python_sdk_client_in_the_2026_era() {
    let python = clients().join("venv/bin/python");
    run(
        &python,
        "py_client.py",
        &["--mode", "auto", "--expect-version", "2026-07-28"],
    );
}

#[test]
fn python_sdk_client_in_legacy_mode() {
    let python = clients().join("venv/bin/python");
    run(
        &python,
        "py_client.py",
        &["--mode", "legacy", "--expect-version", "2025-11-25"],
    );
}

#[test]
fn typescript_sdk_client_with_the_legacy_handshake() {
    run(Path::new("node"), "ts_client.mjs", &[]);
}
