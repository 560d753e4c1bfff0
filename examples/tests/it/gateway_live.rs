//! `mcp-host serve --http` follows its servers: in front of two official-SDK
//! servers whose tools change at run time (the Python SDK's
//! `tests/interop/py_changing_server.py`, which the host reaches in the
//! 2026-07-28 era, and the TypeScript SDK's `ts_changing_server.mjs`, legacy),
//! the official Python SDK client, in either era, is told when a tool
//! appears or disappears upstream, lists and calls it under its gateway
//! name, and never sees a new tool the policy denies
//! (`tests/interop/py_gateway_live_client.py` drives it).

use crate::support;

use std::process::Command;

use serde_json::{Value, json};
use support::host::mcp_host;
use support::interop::{HttpFixture, python, script, sdks};

/// The configured servers: each has `add_tool` and `remove_tool`.
const SERVERS: [&str; 2] = ["py", "ts"];

/// Starts `mcp-host serve --http --yes` in front of both changing servers,
/// with a policy that denies each one's future tool `hidden`.
fn gateway(dir: &std::path::Path) -> HttpFixture {
    let config = json!({
        "mcpServers": {
            "py": {"command": python(), "args": [script("py_changing_server.py")]},
            "ts": {
                "command": "node",
                "args": [script("ts_changing_server.mjs")],
                "env": {"MCP_INTEROP_NODE_DIR": sdks().join("node")}
            }
        },
        "policy": {"deny": ["py.hidden", "ts.hid*"]}
    });
    let path = dir.join(".mcp.json");
    std::fs::write(&path, config.to_string()).unwrap();
    HttpFixture::start_with_args(
        mcp_host(),
        &[
            "--config",
            path.to_str().unwrap(),
            "serve",
            "--http",
            "127.0.0.1:0",
            "--yes",
        ],
    )
}

/// Runs the Python SDK client in `mode` against the gateway at `url`,
/// watching `server`; returns its summary.
fn watch(url: &str, mode: &str, server: &str) -> Value {
    let output = Command::new(python())
        .arg(script("py_gateway_live_client.py"))
        .args(["--url", url, "--mode", mode, "--server", server])
        .args(["--timeout", "30"])
        .output()
        .expect("run py_gateway_live_client.py");
    assert!(
        output.status.success(),
        "py_gateway_live_client ({mode}, {server}) failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON summary")
}

fn names(listed: &Value) -> Vec<&str> {
    listed
        .as_array()
        .expect("a list of names")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// Asserts that `outcome` is the error of an unknown tool `name`.
fn unknown(outcome: &Value, name: &str, context: &str) {
    assert_eq!(outcome["error"]["code"], -32602, "{name}: {context}");
    assert_eq!(
        outcome["error"]["message"],
        format!("Unknown tool: {name}"),
        "{context}"
    );
}

/// The whole scenario, for the client in `mode` (which speaks `version`)
/// and each upstream server.
async fn the_client_follows_the_servers(mode: &'static str, version: &str) {
    let dir = tempfile::tempdir().unwrap();
    let gateway = gateway(dir.path());
    for server in SERVERS {
        let url = gateway.url.clone();
        let summary = tokio::task::spawn_blocking(move || watch(&url, mode, server))
            .await
            .unwrap();
        let context = format!("{mode}, {server}: {summary:#}");
        let (new, hidden) = (format!("{server}.newtool"), format!("{server}.hidden"));
        assert_eq!(summary["protocolVersion"], version, "{context}");
        assert_eq!(summary["listChanged"], true, "{context}");

        let before = names(&summary["before"]);
        assert!(before.contains(&format!("{server}.add_tool").as_str()));
        assert!(!before.contains(&new.as_str()), "{context}");
        assert_eq!(summary["add"]["isError"], false, "{context}");
        assert_eq!(summary["addHidden"]["isError"], false, "{context}");

        // Told, listed and called under its gateway name.
        assert!(summary["announcementsUntilAdded"].as_u64() >= Some(1));
        let added = names(&summary["afterAdd"]);
        assert!(added.contains(&new.as_str()), "{context}");
        assert_eq!(summary["callNew"]["isError"], false, "{context}");
        assert_eq!(summary["callNew"]["text"], json!(["I am newtool"]));
        // The tool the policy denies was added upstream too (before the
        // visible one), and stays hidden.
        assert!(!added.contains(&hidden.as_str()), "{context}");
        unknown(&summary["callHidden"], &hidden, &context);

        // Removed upstream: told again, gone downstream.
        assert_eq!(summary["remove"]["isError"], false, "{context}");
        let removed = names(&summary["afterRemove"]);
        assert!(!removed.contains(&new.as_str()), "{context}");
        assert!(removed.contains(&format!("{server}.add_tool").as_str()));
        unknown(&summary["callRemoved"], &new, &context);
        assert!(summary["told"].as_u64() >= Some(2), "{context}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_modern_client_is_told_through_subscriptions_listen() {
    the_client_follows_the_servers("2026-07-28", "2026-07-28").await;
}

/// Needs the legacy Streamable HTTP GET stream, on which a gateway tells a
/// legacy client of changes.
#[tokio::test(flavor = "multi_thread")]
async fn a_legacy_client_is_told_on_its_get_stream() {
    the_client_follows_the_servers("legacy", "2025-11-25").await;
}
