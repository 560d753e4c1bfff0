//! The official SDK clients call `interop-server --http` tools that report
//! progress and ask for input (elicitation): the TypeScript SDK 1.32 in the
//! legacy era (the question arrives on the POST's event stream, the answer
//! is POSTed back), the Python SDK 2.3.0 in 2026-07-28 (`input_required`
//! rounds) and in its legacy mode. The Python run also calls a tool whose
//! arguments are mirrored into `Mcp-Param-*` headers.
//! `tests/interop/setup.sh` installs the SDKs; the tests fail if it cannot.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::interop::{HttpFixture, python, script, sdks};

fn run(program: &Path, name: &str, extra: &[&str]) {
    let fixture = HttpFixture::start(Path::new(env!("CARGO_BIN_EXE_interop-server")), &[]);
    let output = Command::new(program)
        .arg(script(name))
        .args(["--url", &fixture.url, "--timeout", "30"])
        .args(extra)
        .env("MCP_INTEROP_NODE_DIR", sdks().join("node"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{name} {extra:?} failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains(r#""ok": true"#) || stdout.contains(r#""ok":true"#));
    println!("{name} {extra:?}: {stdout}");
}

#[test]
fn typescript_sdk_client_gets_progress_and_answers_elicitation_in_legacy() {
    run(Path::new("node"), "ts_input_client.mjs", &[]);
}

#[test]
fn python_sdk_client_gets_progress_and_answers_input_rounds_in_2026() {
    run(&python(), "py_input_client.py", &["--mode", "2026-07-28"]);
}

#[test]
fn python_sdk_client_auto_mode_negotiates_2026_and_answers_input_rounds() {
    run(&python(), "py_input_client.py", &["--mode", "auto"]);
}

#[test]
fn python_sdk_client_gets_progress_and_answers_elicitation_in_legacy() {
    run(&python(), "py_input_client.py", &["--mode", "legacy"]);
}
