//! The official SDK clients are told when `live-server` adds a tool while
//! it runs, and then list and call it: the TypeScript SDK 1.32 and the
//! Python SDK 2.3.0 in legacy mode get `notifications/tools/list_changed`
//! over stdio and over Streamable HTTP (on the session's GET stream); the
//! Python SDK in the 2026-07-28 era gets it through `subscriptions/listen`.
//! `tests/interop/setup.sh` installs the SDKs into `target/interop`; the
//! tests fail if they cannot be installed.

use crate::support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::interop::{HttpFixture, python, run_client, script, sdks};

fn live_server() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_live-server"))
}

/// How the client reaches the server.
enum Over {
    Stdio,
    Http,
}

/// Runs `client` with `extra` arguments against a fresh `live-server`;
/// returns its summary after checking what every client must report.
fn run(program: &Path, client: &str, extra: &[&str], over: Over) -> Value {
    let mut command = Command::new(program);
    command
        .arg(script(client))
        .args(extra)
        .env("MCP_INTEROP_NODE_DIR", sdks().join("node"));
    let _server = match over {
        Over::Stdio => {
            command.arg("--").arg(live_server());
            None
        }
        Over::Http => {
            let server = HttpFixture::start(live_server(), &[]);
            command.args(["--url", &server.url]);
            Some(server)
        }
    };
    let stdout = run_client(&mut command, &format!("{client} {extra:?}"));
    let summary: Value = serde_json::from_str(stdout.trim()).expect("one JSON summary line");
    let added = summary["added"].as_str().expect("the tool it added");
    let before: Vec<&str> = names(&summary["before"]);
    let after: Vec<&str> = names(&summary["tools"]);
    assert!(!before.contains(&added), "{summary}");
    assert!(after.contains(&added), "{summary}");
    summary
}

fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .expect("a list of names")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// The Python client's record of the notifications it was sent.
fn told_of_tools(summary: &Value) -> bool {
    names(&summary["notifications"]).contains(&"notifications/tools/list_changed")
}

#[test]
fn typescript_sdk_client_is_told_over_stdio() {
    let summary = run(Path::new("node"), "ts_live_client.mjs", &[], Over::Stdio);
    assert_eq!(summary["transport"], "stdio");
}

#[test]
fn typescript_sdk_client_is_told_on_the_get_stream() {
    let summary = run(Path::new("node"), "ts_live_client.mjs", &[], Over::Http);
    assert_eq!(summary["transport"], "http");
    // A refused GET stream would show as an error the SDK reported.
    assert_eq!(summary["errors"], serde_json::json!([]), "{summary}");
}

#[test]
fn python_sdk_client_in_legacy_mode_is_told_over_stdio() {
    let args = ["--mode", "legacy"];
    let summary = run(&python(), "py_live_client.py", &args, Over::Stdio);
    assert_eq!(summary["protocolVersion"], "2025-11-25");
    assert!(told_of_tools(&summary), "{summary}");
}

#[test]
fn python_sdk_client_in_legacy_mode_is_told_on_the_get_stream() {
    let args = ["--mode", "legacy"];
    let summary = run(&python(), "py_live_client.py", &args, Over::Http);
    assert_eq!(summary["protocolVersion"], "2025-11-25");
    assert!(told_of_tools(&summary), "{summary}");
}

#[test]
fn python_sdk_client_in_the_2026_era_listens_over_http() {
    let args = ["--mode", "2026-07-28"];
    let summary = run(&python(), "py_live_client.py", &args, Over::Http);
    assert_eq!(summary["protocolVersion"], "2026-07-28");
}

#[test]
fn python_sdk_client_in_the_2026_era_listens_over_stdio() {
    let args = ["--mode", "2026-07-28"];
    let summary = run(&python(), "py_live_client.py", &args, Over::Stdio);
    assert_eq!(summary["protocolVersion"], "2026-07-28");
}
