//! Every full snapshot module (argument and output types plus the client
//! over `mcp_toolkit_runtime::client`) compiles against the real runtime, and its
//! embedded fingerprints are the runtime's fingerprints of the corpus tools.

include!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/snapshots/clients.rs"
));

#[test]
fn embedded_fingerprints_match_the_runtime() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/output.json"
    ))
    .unwrap();
    let tools = mcp_toolkit_codegen::parse_tools(&text).unwrap();
    let expected: Vec<(String, String)> = tools
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                mcp_toolkit_runtime::client::tool_fingerprint(t),
            )
        })
        .collect();
    let embedded: Vec<(String, String)> = output::McpClient::FINGERPRINTS
        .iter()
        .map(|(n, f)| ((*n).to_owned(), (*f).to_owned()))
        .collect();
    assert_eq!(embedded, expected);
}
