//! Servers that misbehave (tests/interop/hostile_server.py): silent, noisy,
//! answering wrong ids, sending a message over the size limit or nested
//! 100,000 levels deep, exiting at start. The client and `mcp-host` fail
//! within the configured time with an error that names the cause, and
//! never hang.

use crate::support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_toolkit_host::{Config, Host, HostOptions};
use mcp_toolkit_runtime::client::{Client, ConnectOptions};
use serde_json::json;
use support::host::mcp_host;
use support::interop::{python, script};

/// The cases and what their error must say.
const CASES: [(&str, &str); 6] = [
    (
        "silent",
        "did not answer in time: it wrote nothing on its output",
    ),
    ("noise", "its output is not JSON-RPC"),
    ("wrong-ids", "answered an id nobody asked for (999999)"),
    ("huge", "over the 67108864-byte limit"),
    (
        "exit3",
        "exited (exit status: 3); the end of its stderr: fatal: cannot open the notes database",
    ),
    ("deep", "nests too deeply"),
];

#[tokio::test(flavor = "multi_thread")]
async fn the_client_names_the_cause_within_the_connect_timeout() {
    for (mode, expected) in CASES {
        let started = Instant::now();
        let mut command = tokio::process::Command::new(python());
        command.arg(script("hostile_server.py")).arg(mode);
        let options = ConnectOptions {
            connect_timeout: Some(Duration::from_secs(3)),
            discover_timeout: Duration::from_secs(1),
            ..ConnectOptions::default()
        };
        let error = match Client::connect_command(command, options).await {
            Ok(_) => panic!("{mode}: connected"),
            Err(error) => error.to_string(),
        };
        let took = started.elapsed();
        assert!(error.contains(expected), "{mode}: {error}");
        assert!(took < Duration::from_secs(6), "{mode}: took {took:?}");
        if mode == "noise" {
            assert!(error.contains("hello from a server"), "a sample: {error}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_host_lists_each_hostile_server_as_failed_with_its_cause() {
    let servers: serde_json::Map<String, serde_json::Value> = CASES
        .iter()
        .map(|(mode, _)| {
            let entry = json!({"command": python(), "args": [script("hostile_server.py"), mode]});
            (mode.replace('-', "_"), entry)
        })
        .collect();
    let config = Config::parse(&json!({ "mcpServers": servers }).to_string(), |_| None).unwrap();
    let started = Instant::now();
    let options = HostOptions {
        connect_timeout: Duration::from_secs(3),
        ..HostOptions::default()
    };
    let host = Host::start(config, options).await;
    // The client's own bounds report each cause; the host's backstop (2 s
    // past the connect timeout) must not be what ends any of them.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    for status in host.servers() {
        let (_, expected) = CASES
            .iter()
            .find(|(mode, _)| mode.replace('-', "_") == status.name)
            .unwrap();
        let why = status.state.expect_err("a hostile server is not ready");
        assert!(why.contains(expected), "{}: {why}", status.name);
    }
    assert!(host.tools().is_empty());
}

/// A server that announces a list change 5,000 times without pause is
/// listed again a few times, not 5,000: announcements are coalesced and
/// listings spaced out.
#[tokio::test(flavor = "multi_thread")]
async fn a_flood_of_list_changes_is_not_a_flood_of_listings() {
    let config = json!({"mcpServers": {
        "announcer": {"command": python(), "args": [script("hostile_server.py"), "announcer"]}
    }});
    let config = Config::parse(&config.to_string(), |_| None).unwrap();
    let host = Host::start(config, HostOptions::default()).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let yes = mcp_toolkit_host::AlwaysAllow;
    let outcome = host
        .call(
            "announcer.lists",
            json!({}),
            &mcp_toolkit_host::CallOptions::new(&yes),
        )
        .await
        .expect("the server still answers");
    let lists: u32 = outcome.result.content[0]
        .as_text()
        .unwrap()
        .parse()
        .unwrap();
    // The first listing, then at most one per 500 ms.
    assert!((2..=9).contains(&lists), "{lists} listings");
    assert!(host.servers()[0].relisted >= 1, "the changes were seen");
    host.shutdown(Duration::from_millis(100)).await;
}

/// Runs `mcp-host --config CONFIG --connect-timeout 3 ARGS` in `dir`; its
/// exit status, stderr and how long it took.
fn run_mcp_host(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let output = Command::new(mcp_host())
        .current_dir(dir)
        .args(["--config", ".mcp.json", "--connect-timeout", "3"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mcp-host");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), stderr, started.elapsed())
}

/// A config of hostile servers, one per mode, in a fresh directory.
fn hostile_config(modes: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let servers: serde_json::Map<String, serde_json::Value> = modes
        .iter()
        .map(|mode| {
            let entry = json!({"command": python(), "args": [script("hostile_server.py"), mode]});
            (mode.replace('-', "_"), entry)
        })
        .collect();
    let config = json!({ "mcpServers": servers }).to_string();
    std::fs::write(dir.path().join(".mcp.json"), config).unwrap();
    dir
}

/// A server that starts well and answers `tools/list` with a message nested
/// 100,000 levels deep: `mcp-host call` names the depth, within its connect
/// timeout (not 5 s later, as "did not start").
#[test]
fn mcp_host_names_a_too_deep_listing_within_its_connect_timeout() {
    let dir = hostile_config(&["deep-list"]);
    let (code, stderr, took) = run_mcp_host(dir.path(), &["call", "deep_list.anything"]);
    assert_eq!(code, Some(5), "{stderr}");
    assert!(stderr.contains("nests too deeply"), "{stderr}");
    assert!(took < Duration::from_secs(4), "took {took:?}: {stderr}");
}

/// `mcp-host tools` with no usable server says why for each on stderr and
/// exits 5 (server unavailable), not 0 with an empty catalogue.
#[test]
fn mcp_host_tools_says_why_when_no_server_is_usable() {
    let dir = hostile_config(&["exit3", "noise"]);
    let (code, stderr, _) = run_mcp_host(dir.path(), &["tools"]);
    assert_eq!(code, Some(5), "{stderr}");
    assert!(
        stderr.contains("server exit3:") && stderr.contains("cannot open the notes database"),
        "{stderr}"
    );
    assert!(
        stderr.contains("server noise:") && stderr.contains("not JSON-RPC"),
        "{stderr}"
    );
}
