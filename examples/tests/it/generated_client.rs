//! `examples/src/echo_client.rs` is exactly what mcp-codegen generates from
//! the live echo-server (as the demo and the CLI read it: its whole
//! listing), so the committed typed client never drifts from the server's
//! tools (regenerate it as the demo explains when this fails).

use mcp_toolkit_codegen::{Options, Source};

#[tokio::test]
async fn the_committed_echo_client_matches_the_live_server() {
    let source = Source::Stdio(env!("CARGO_BIN_EXE_echo-server").to_owned());
    let listing = source
        .listing()
        .await
        .expect("list what echo-server offers");
    let options = Options {
        client_name: "EchoClient".into(),
        ..Options::default()
    };
    let generated = mcp_toolkit_codegen::generate_listing(&listing, &options).expect("generate");
    let committed = include_str!("../../src/echo_client.rs");
    assert!(
        generated.code == committed,
        "examples/src/echo_client.rs is stale: run the demo for the regeneration command"
    );
}
