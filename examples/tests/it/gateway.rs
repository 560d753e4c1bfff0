//! `mcp-host serve`: three different configured servers behind one MCP
//! server, a gateway. Our `echo-server`, the official Python SDK's
//! `tests/interop/py_server.py` and the official TypeScript SDK's
//! `tests/interop/ts_server.mjs`, all over stdio, with a policy that denies
//! `py.echo`. The official Python SDK client drives the gateway over
//! Streamable HTTP in both eras (`tests/interop/py_gateway_client.py`), and
//! our own client drives it over stdio.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_toolkit_host::{Config, Host, HostOptions};
use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions};
use serde_json::{Value, json};
use support::host::mcp_host;
use support::interop::{HttpFixture, python, script, sdks};

/// The denied tool: its server lists it, the gateway must not.
const DENIED: &str = "py.echo";

/// Writes the configuration of the three servers into `dir`.
fn three_servers(dir: &Path) -> PathBuf {
    let config = json!({
        "mcpServers": {
            "echo": {"command": env!("CARGO_BIN_EXE_echo-server")},
            "py": {"command": python(), "args": [script("py_server.py")]},
            "ts": {
                "command": "node",
                "args": [script("ts_server.mjs")],
                "env": {"MCP_INTEROP_NODE_DIR": sdks().join("node")}
            }
        },
        "policy": {"deny": [DENIED]}
    });
    let path = dir.join(".mcp.json");
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

/// Runs the Python SDK client against the gateway at `url` in `mode`;
/// returns its summary of what it saw.
fn python_client(url: &str, mode: &str) -> Value {
    let output = Command::new(python())
        .arg(script("py_gateway_client.py"))
        .args(["--url", url, "--mode", mode])
        .output()
        .expect("run py_gateway_client.py");
    assert!(
        output.status.success(),
        "py_gateway_client ({mode}) failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON summary")
}

/// The text blocks of a call's outcome.
fn texts(outcome: &Value) -> Vec<&str> {
    outcome["text"]
        .as_array()
        .map(|t| t.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_python_sdk_client_calls_three_servers_through_the_gateway() {
    let dir = tempfile::tempdir().unwrap();
    let config = three_servers(dir.path());
    let gateway = HttpFixture::start_with_args(
        mcp_host(),
        &[
            "--config",
            config.to_str().unwrap(),
            "serve",
            "--http",
            "127.0.0.1:0",
        ],
    );
    // What the servers themselves list, as the host sees them.
    let host = Host::start(Config::load(&config).unwrap(), HostOptions::default()).await;
    let catalogue = host.tools();
    host.shutdown(std::time::Duration::from_millis(500)).await;
    assert!(
        catalogue.iter().any(|entry| entry.name() == DENIED),
        "the denied tool exists at its server"
    );

    for (mode, version) in [("2026-07-28", "2026-07-28"), ("legacy", "2025-11-25")] {
        let url = gateway.url.clone();
        let mode_owned = mode.to_owned();
        let summary = tokio::task::spawn_blocking(move || python_client(&url, &mode_owned))
            .await
            .unwrap();
        let context = format!("{mode}: {summary:#}");
        assert_eq!(summary["protocolVersion"], version, "{context}");

        // The list: every allowed tool of the three servers, under its host
        // name, as its server describes it; the denied one is not there.
        let listed = summary["tools"].as_object().expect("tools");
        assert!(!listed.contains_key(DENIED), "{context}");
        let allowed: Vec<_> = catalogue.iter().filter(|e| e.name() != DENIED).collect();
        assert_eq!(listed.len(), allowed.len(), "{context}");
        for entry in allowed {
            let name = entry.name();
            let tool = &listed[&name];
            assert_eq!(tool["inputSchema"], entry.tool.input_schema, "{name}");
            let output = entry.tool.output_schema.clone().unwrap_or(Value::Null);
            assert_eq!(tool["outputSchema"], output, "{name}");
            assert_eq!(
                tool["description"].as_str(),
                entry.tool.description.as_deref(),
                "{name}"
            );
            let read_only = entry
                .tool
                .annotations
                .as_ref()
                .and_then(|a| a.read_only_hint);
            assert_eq!(
                tool["annotations"]["readOnlyHint"].as_bool(),
                read_only,
                "{name}"
            );
        }
        assert_eq!(listed["echo.add"]["annotations"]["readOnlyHint"], true);

        // One call to each server.
        let calls = &summary["calls"];
        for (tool, sum) in [("echo.add", 42), ("py.add", 3), ("ts.add", 42)] {
            assert_eq!(calls[tool]["isError"], false, "{tool}: {context}");
            assert_eq!(
                calls[tool]["structuredContent"],
                json!({"sum": sum}),
                "{tool}"
            );
        }
        assert_eq!(
            texts(&calls["ts.echo"]),
            ["through the gateway"],
            "{context}"
        );
        // The server's progress reaches the gateway's client.
        assert_eq!(texts(&calls["py.slow_progress"]), ["done"], "{context}");
        assert_eq!(
            calls["py.slow_progress"]["progress"],
            json!([1.0, 2.0, 3.0])
        );

        // Consent: each tool with side effects was asked about, once; the
        // read-only echo.add was not; the one the user declined did not run.
        let questions: Vec<&str> = summary["questions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let asked: Vec<&str> = questions
            .iter()
            .filter_map(|q| q.strip_prefix("Allow ")?.split('?').next())
            .collect();
        assert_eq!(
            asked,
            [
                "py.add",
                "ts.add",
                "ts.echo",
                "py.slow_progress",
                "echo.echo"
            ],
            "{context}"
        );
        assert_eq!(calls["echo.echo"]["isError"], true, "{context}");
        assert!(
            texts(&calls["echo.echo"])[0].contains("the user declined"),
            "{context}"
        );
        // A client that cannot be asked is refused, and told about --yes.
        let unasked = &summary["unasked"];
        assert_eq!(unasked["isError"], true, "{context}");
        assert!(texts(unasked)[0].contains("--yes"), "{context}");

        // The denied tool, called by name, is unknown, like a tool that
        // does not exist anywhere.
        for tool in [DENIED, "echo.nope"] {
            let error = &calls[tool]["error"];
            assert_eq!(error["code"], -32602, "{tool}: {context}");
            assert_eq!(
                error["message"],
                format!("Unknown tool: {tool}"),
                "{context}"
            );
        }
    }
}

/// Our own client over stdio, against `mcp-host serve --yes` in front of
/// `echo-server` with `echo.sleep` denied, and of a second `echo-server`
/// whose name is so long that only one of its tools, `LONG.add`, has a name
/// within MCP's 128 characters: the others are left out, not the gateway.
#[tokio::test(flavor = "multi_thread")]
async fn our_client_uses_the_gateway_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join(".mcp.json");
    let long = "x".repeat(124);
    let servers = json!({
        "mcpServers": {
            "echo": {"command": env!("CARGO_BIN_EXE_echo-server")},
            long.clone(): {"command": env!("CARGO_BIN_EXE_echo-server")}
        },
        "policy": {"deny": ["echo.sleep"]}
    });
    std::fs::write(&config, servers.to_string()).unwrap();
    let mut command = tokio::process::Command::new(mcp_host());
    command
        .arg("--config")
        .arg(&config)
        .args(["serve", "--yes"]);
    let client = Client::connect_command(command, ConnectOptions::default())
        .await
        .expect("the gateway answers over stdio");
    let info = client.server().server_info.as_ref();
    assert_eq!(info.map(|i| i.name.as_str()), Some("mcp-toolkit-host"));

    let names = support::sorted_tool_names(&client).await;
    let long_add = format!("{long}.add");
    assert_eq!(long_add.len(), 128);
    assert_eq!(names, ["echo.add", "echo.echo", "echo.whoami", &long_add]);

    // --yes: a tool with side effects runs without asking.
    let echo = client
        .call_tool("echo.echo", &json!({"text": "over stdio"}))
        .await
        .unwrap();
    assert_eq!(echo.content[0].as_text(), Some("over stdio"));
    let sum = client
        .call_tool("echo.add", &json!({"a": 40, "b": 2}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 42})));
    // Arguments that break the schema are a tool error; nothing is sent.
    let invalid = client
        .call_tool("echo.add", &json!({"a": "two", "b": 2}))
        .await
        .unwrap();
    assert_eq!(invalid.is_error, Some(true));
    // The denied tool is unknown.
    match client.call_tool("echo.sleep", &json!({"ms": 1})).await {
        Err(ClientError::Protocol(error)) => {
            assert_eq!(error.code, -32602);
            assert_eq!(error.message, "Unknown tool: echo.sleep");
        }
        other => panic!("the denied tool must be unknown: {other:?}"),
    }
    client.close(std::time::Duration::from_secs(2)).await;
}
