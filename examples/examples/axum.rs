//! Mounting the MCP endpoint in an axum application, next to the app's
//! own routes and under its layers.
//!
//! [`McpService`] is a tower `Service`: `route_service("/mcp", service)`
//! puts it in a `Router` with every check `serve_http` makes (Host and
//! Origin, body limits, both protocol eras). A handler reaches the HTTP
//! request through its [`RequestContext`]: the headers the client sent and
//! the extensions outer axum/tower layers set, here an `Extension` with the
//! tenant this deployment serves.
//!
//! Run: `cargo run -p mcp-examples --example axum`.

use axum::Router;
use axum::routing::get;
use mcp_toolkit_runtime::client::{Client, ConnectOptions};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::{RequestContext, Server};
use mcp_toolkit_runtime::transport::HttpConfig;
use mcp_toolkit_runtime::transport::http::McpService;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Application state an outer axum layer puts into every request.
#[derive(Clone)]
struct Tenant(&'static str);

/// Say which tenant and which client this request comes from.
#[mcp_tool]
fn whereami(context: RequestContext) -> String {
    // Set by the `axum::Extension` layer below; `None` over stdio.
    let tenant = context.http_extension::<Tenant>().map_or("none", |t| t.0);
    // A header the client sent with the request; `None` over stdio.
    let origin = context
        .http_headers()
        .and_then(|headers| headers.get("x-request-origin"))
        .and_then(|value| value.to_str().ok())
        .unwrap_or("unknown");
    format!("tenant {tenant}, called from {origin}")
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![whereami])
        .build()?;

    // The app: its own route, the MCP endpoint, and a layer around both.
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route_service("/mcp", McpService::new(server, HttpConfig::default()))
        .layer(axum::Extension(Tenant("acme")));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    println!("axum serves http://{addr}/health and http://{addr}/mcp");

    // The app's own route answers as usual.
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let request = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply).await?;
    println!(
        "GET /health -> {:?}",
        reply.lines().next().unwrap_or_default()
    );

    // An MCP client sends a header of its own with every request.
    let mut options = ConnectOptions::default();
    options
        .headers
        .insert("x-request-origin", "ide-plugin".parse()?);
    let client = Client::connect_http_with(&format!("http://{addr}/mcp"), options).await?;
    let result = client.call_tool("whereami", &json!({})).await?;
    println!(
        "whereami() -> {:?}",
        result.content[0].as_text().unwrap_or_default()
    );
    Ok(())
}
