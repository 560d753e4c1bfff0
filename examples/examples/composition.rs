//! Composition: one server that also serves the tools (and prompts,
//! resources, templates) of other servers, each under a prefix.
//!
//! - `weather` runs as its own Streamable HTTP server (on a free port of
//!   127.0.0.1, here in this process; any MCP server at a URL works), and
//!   is reached through an ordinary HTTP client.
//! - `math` lives in this process and is reached in memory.
//!
//! [`Client::mount`] turns a connected client into definitions that the
//! front server registers like its own: `weather_forecast`, `math_add`.
//! The front server checks arguments against the mounted tool's schema
//! before forwarding, and passes results and errors through unchanged.
//! `echo-server --mount PREFIX=URL` does the same from the command line.
//!
//! Run: `cargo run -p mcp-examples --example composition`.

use mcp_toolkit_runtime::client::{Client, ConnectOptions};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::Server;
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::json;

/// Tell the weather in a city.
#[mcp_tool]
fn forecast(city: String) -> String {
    format!("sunny in {city}")
}

/// Add two integers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Say which server answers.
#[mcp_tool]
fn about() -> String {
    "the front server, composing weather and math".to_owned()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The weather server, served over HTTP on a free port.
    let weather = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![forecast])
        .build()?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let weather_url = format!("http://{}/mcp", listener.local_addr()?);
    let serving = weather.serve_http_with(listener, HttpConfig::default(), std::future::pending());
    tokio::spawn(serving);
    println!("weather server at {weather_url}");

    // The math server, in this process.
    let math = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![add])
        .build()?;

    // The front server: its own tool, plus both servers mounted under a prefix.
    let weather_client = Client::connect_http(&weather_url).await?;
    let math_client = Client::connect_in_memory(math, ConnectOptions::default()).await?;
    let front = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![about])
        .register(weather_client.mount("weather").await?)
        .register(math_client.mount("math").await?)
        .build()?;

    // A client of the front server sees one server with every tool.
    let client = Client::connect_in_memory(front, ConnectOptions::default()).await?;
    let mut names: Vec<String> = client
        .list_tools()
        .await?
        .into_iter()
        .map(|t| t.name)
        .collect();
    names.sort();
    println!("front server tools: {}", names.join(", "));

    let sunny = client
        .call_tool("weather_forecast", &json!({"city": "Lisbon"}))
        .await?;
    println!(
        "weather_forecast(Lisbon) -> {:?}",
        sunny.content[0].as_text().unwrap_or_default()
    );
    let sum = client
        .call_tool("math_add", &json!({"a": 2, "b": 40}))
        .await?;
    println!(
        "math_add(2, 40) -> {}",
        sum.structured_content.unwrap_or_default()
    );

    // Wrong arguments are caught by the front server, against math's schema.
    let bad = client.call_tool("math_add", &json!({"a": "two"})).await?;
    println!(
        "math_add(a: \"two\") -> isError: {:?}",
        bad.content[0].as_text().unwrap_or_default()
    );
    Ok(())
}
