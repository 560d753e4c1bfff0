//! The runtime's client against servers written with the official SDKs
//! (`tests/interop/py_server.py`, Python SDK 2.3.0, both eras;
//! `tests/interop/ts_server.mjs`, TypeScript SDK 1.32, legacy only), over
//! stdio and Streamable HTTP.

use crate::support;

use std::path::Path;

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::server::Era;
use serde_json::json;
use support::interop::{HttpFixture, python, script, sdks};

#[derive(serde::Deserialize)]
struct Sum {
    sum: i64,
}

/// Lists tools, calls echo, add (typed) and a progress-reporting tool.
async fn exercise(client: &Client, era: Era, expect_progress: bool) {
    assert_eq!(client.server().era, era);
    let names = support::sorted_tool_names(client).await;
    assert_eq!(names, ["add", "echo", "slow_progress"]);
    let content = client
        .call_tool_content("echo", &json!({"text": "héllo"}))
        .await
        .unwrap();
    assert_eq!(content[0].as_text(), Some("héllo"));
    let sum: Sum = client
        .call_tool_as("add", &json!({"a": 2, "b": 40}))
        .await
        .unwrap();
    assert_eq!(sum.sum, 42);
    let mut seen = Vec::new();
    let result = client
        .call_tool_with_progress("slow_progress", &json!({"steps": 3}), |p| {
            seen.push(p.progress)
        })
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some("done"));
    if expect_progress {
        assert_eq!(seen, [1.0, 2.0, 3.0]);
    }
}

fn options(era: EraChoice) -> ConnectOptions {
    ConnectOptions {
        era,
        ..ConnectOptions::default()
    }
}

#[tokio::test]
async fn python_sdk_server_over_stdio_in_both_eras() {
    let program = python().to_string_lossy().into_owned();
    let args = [script("py_server.py").to_string_lossy().into_owned()];
    for (choice, era) in [
        (EraChoice::Auto, Era::Modern),
        (EraChoice::Legacy, Era::Legacy),
    ] {
        let client = Client::connect_stdio_with(&program, &args, options(choice))
            .await
            .unwrap();
        exercise(&client, era, true).await;
    }
}

/// A server slower to start than the client's `discover_timeout` gets
/// `server/discover`, then `initialize`. The Python SDK answers the first
/// and, now serving 2026-07-28, refuses the second with -32022: the client
/// takes the modern era rather than failing (a cold run of every test met
/// this with the default 10 s).
#[tokio::test]
async fn python_sdk_server_slower_than_the_discover_timeout_is_reached() {
    let program = python().to_string_lossy().into_owned();
    let args = [script("py_server.py").to_string_lossy().into_owned()];
    let options = ConnectOptions {
        discover_timeout: std::time::Duration::from_millis(1),
        ..options(EraChoice::Auto)
    };
    let client = Client::connect_stdio_with(&program, &args, options)
        .await
        .unwrap();
    // Modern, unless the deadline passed before `server/discover` was even
    // written (a machine busy for a millisecond): then the server saw only
    // `initialize`, and the legacy era is right.
    let era = client.server().era;
    exercise(&client, era, true).await;
}

#[tokio::test]
async fn python_sdk_server_over_http_in_both_eras() {
    let fixture = HttpFixture::start(&python(), &[&script("py_server.py")]);
    for (choice, era) in [
        (EraChoice::Auto, Era::Modern),
        (EraChoice::Legacy, Era::Legacy),
    ] {
        let client = Client::connect_http_with(&fixture.url, options(choice))
            .await
            .unwrap();
        exercise(&client, era, true).await;
    }
}

#[tokio::test]
async fn typescript_sdk_server_over_stdio_falls_back_to_legacy() {
    sdks(); // ts_server.mjs finds the SDK in target/interop/node
    let args = [script("ts_server.mjs").to_string_lossy().into_owned()];
    let client = Client::connect_stdio_with("node", &args, options(EraChoice::Auto))
        .await
        .unwrap();
    exercise(&client, Era::Legacy, true).await;
}

#[tokio::test]
async fn typescript_sdk_server_over_http_falls_back_to_legacy() {
    sdks(); // ts_server.mjs finds the SDK in target/interop/node
    let fixture = HttpFixture::start(Path::new("node"), &[&script("ts_server.mjs")]);
    let client = Client::connect_http_with(&fixture.url, options(EraChoice::Auto))
        .await
        .unwrap();
    exercise(&client, Era::Legacy, true).await;
}
