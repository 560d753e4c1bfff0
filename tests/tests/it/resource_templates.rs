//! Resource templates as a user writes them from the README, read end to
//! end through `Server::serve_io` over an in-memory pipe: a simple `{title}`
//! keeps the `.` of `a.md`, a reserved `{+path}` keeps its `/`, values are
//! percent-decoded, and URIs the templates cannot produce are not found.

use std::time::Duration;

use mcp_toolkit_runtime::mcp_resource;
use mcp_toolkit_runtime::server::Server;
use mcp_toolkit_runtime::transport::StdioConfig;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

/// A note by title.
#[mcp_resource("notes://{title}", mime_type = "text/markdown")]
fn note(title: String) -> Option<String> {
    match title.as_str() {
        "a.md" => Some("# A".to_owned()),
        "café au lait.md" => Some("# Café".to_owned()),
        _ => None,
    }
}

/// A file below the root, by its path.
#[mcp_resource("files:///{+path}", mime_type = "text/plain")]
fn file(path: String) -> Option<String> {
    (path == "docs/guide/intro.md").then(|| "intro".to_owned())
}

struct Client {
    input: DuplexStream,
    output: Lines<BufReader<DuplexStream>>,
    next_id: i64,
}

impl Client {
    /// Starts the server and completes the (legacy) handshake.
    async fn start() -> Self {
        let server = Server::builder(mcp_toolkit_runtime::server_info!())
            .register(mcp_toolkit_runtime::definitions![note, file])
            .build()
            .expect("server builds");
        let (input, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, output) = tokio::io::duplex(1 << 16);
        tokio::spawn(server.serve_io(server_in, server_out, StdioConfig::default()));
        let mut client = Client {
            input,
            output: BufReader::new(output).lines(),
            next_id: 0,
        };
        let reply = client
            .request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}),
            )
            .await;
        assert!(reply.get("result").is_some(), "{reply}");
        client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client
    }

    async fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.input.write_all(&line).await.unwrap();
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let line = tokio::time::timeout(Duration::from_secs(5), self.output.next_line())
            .await
            .expect("reply in time")
            .unwrap()
            .expect("stream open");
        let reply: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    /// The text of `uri`, or the error the server answered.
    async fn read(&mut self, uri: &str) -> Result<String, Value> {
        let reply = self.request("resources/read", json!({"uri": uri})).await;
        match reply.get("result") {
            Some(result) => Ok(result["contents"][0]["text"]
                .as_str()
                .unwrap_or_else(|| panic!("no text in {reply}"))
                .to_owned()),
            None => Err(reply["error"].clone()),
        }
    }
}

#[tokio::test]
async fn a_simple_variable_reads_a_title_with_a_dot() {
    let mut client = Client::start().await;
    assert_eq!(client.read("notes://a.md").await, Ok("# A".to_owned()));
}

#[tokio::test]
async fn template_values_are_percent_decoded() {
    let mut client = Client::start().await;
    assert_eq!(
        client.read("notes://caf%C3%A9%20au%20lait.md").await,
        Ok("# Café".to_owned())
    );
}

#[tokio::test]
async fn a_reserved_variable_reads_a_path_with_slashes() {
    let mut client = Client::start().await;
    assert_eq!(
        client.read("files:///docs/guide/intro.md").await,
        Ok("intro".to_owned())
    );
}

#[tokio::test]
async fn uris_no_template_produces_are_not_found() {
    let mut client = Client::start().await;
    // `/` is not part of a simple value, and `%zz` is no escape.
    for uri in ["notes://a/b.md", "notes://bad%zz.md", "notes://%+1"] {
        let error = client.read(uri).await.expect_err(uri);
        assert!(
            error["message"]
                .as_str()
                .is_some_and(|m| m.contains("Resource not found")),
            "{uri}: {error}"
        );
    }
}

#[tokio::test]
async fn templates_are_listed_as_written() {
    let mut client = Client::start().await;
    let reply = client.request("resources/templates/list", json!({})).await;
    let mut templates: Vec<&str> = reply["result"]["resourceTemplates"]
        .as_array()
        .unwrap_or_else(|| panic!("{reply}"))
        .iter()
        .filter_map(|t| t["uriTemplate"].as_str())
        .collect();
    templates.sort_unstable();
    assert_eq!(templates, ["files:///{+path}", "notes://{title}"]);
}
