//! The runtime's client drives the echo-server binary over stdio, in both eras.

use crate::support;

use std::path::Path;

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::server::Era;
use serde_json::json;
use support::interop::HttpFixture;

#[derive(serde::Deserialize)]
struct Sum {
    sum: i64,
}

#[tokio::test]
async fn client_calls_echo_server_in_both_eras() {
    for (choice, era) in [
        (EraChoice::Auto, Era::Modern),
        (EraChoice::Legacy, Era::Legacy),
    ] {
        let options = ConnectOptions {
            era: choice,
            ..ConnectOptions::default()
        };
        let client = Client::connect_stdio_with(env!("CARGO_BIN_EXE_echo-server"), &[], options)
            .await
            .unwrap();
        assert_eq!(client.server().era, era);
        assert_eq!(
            client.server().server_info.as_ref().unwrap().name,
            "mcp-examples"
        );
        let content = client
            .call_tool_content("echo", &json!({"text": "hello"}))
            .await
            .unwrap();
        assert_eq!(content[0].as_text(), Some("hello"));
        let sum: Sum = client
            .call_tool_as("add", &json!({"a": 2, "b": 40}))
            .await
            .unwrap();
        assert_eq!(sum.sum, 42);
    }
}

#[tokio::test]
async fn client_calls_echo_server_over_http_in_both_eras() {
    let fixture = HttpFixture::start(Path::new(env!("CARGO_BIN_EXE_echo-server")), &[]);
    for (choice, era) in [
        (EraChoice::Auto, Era::Modern),
        (EraChoice::Legacy, Era::Legacy),
    ] {
        let options = ConnectOptions {
            era: choice,
            ..ConnectOptions::default()
        };
        let client = Client::connect_http_with(&fixture.url, options)
            .await
            .unwrap();
        assert_eq!(client.server().era, era);
        let content = client
            .call_tool_content("echo", &json!({"text": "héllo wörld"}))
            .await
            .unwrap();
        assert_eq!(content[0].as_text(), Some("héllo wörld"));
        let sum: Sum = client
            .call_tool_as("add", &json!({"a": 2, "b": 40}))
            .await
            .unwrap();
        assert_eq!(sum.sum, 42);
    }
}
