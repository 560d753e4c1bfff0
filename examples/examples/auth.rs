//! Authorization: an MCP server as an OAuth 2.1 protected resource, and a
//! client that sends a bearer token.
//!
//! `HttpConfig::auth` makes the HTTP transport publish its Protected
//! Resource Metadata (RFC 9728), answer a request without a valid token
//! with 401 and a `WWW-Authenticate` challenge, and a token that lacks a
//! tool's scopes (`#[mcp_tool(scopes = [...])]`) with 403
//! `insufficient_scope`. Handlers take the verified `Option<Principal>`.
//!
//! To run offline, tokens here are checked by a [`TokenVerifier`] of our
//! own that knows two fixed demo tokens. In production use
//! `AuthConfig::jwt(resource, issuer)` (a `JwtVerifier` checks signature,
//! issuer, audience and expiry against the issuer's keys) or an
//! `IntrospectionVerifier` (RFC 7662); clients then get tokens with the
//! OAuth flow of `mcp_toolkit_runtime::client::auth` instead of a fixed one.
//!
//! Run: `cargo run -p mcp-examples --example auth`.

use mcp_toolkit_runtime::client::{Client, ConnectOptions};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::Server;
use mcp_toolkit_runtime::server::auth::{
    AuthConfig, Principal, TokenError, TokenVerifier, VerifyFuture,
};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::json;

/// Accepts two demo tokens: one that may read, one that may also write.
struct DemoTokens;

impl TokenVerifier for DemoTokens {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(async move {
            let scope = match token {
                "demo-reader" => "notes:read",
                "demo-writer" => "notes:read notes:write",
                // The text goes back to the client: never echo the token.
                _ => return Err(TokenError::Invalid("unknown token".into())),
            };
            let claims = json!({"sub": token.replace("demo-", ""), "scope": scope});
            Ok(Principal::from_claims(
                claims.as_object().cloned().unwrap_or_default(),
            ))
        })
    }
}

/// Read the notes.
#[mcp_tool(read_only, scopes = ["notes:read"])]
fn read_notes(principal: Option<Principal>) -> String {
    let who = principal.and_then(|p| p.subject).unwrap_or_default();
    format!("no notes yet, {who}")
}

/// Add a note.
#[mcp_tool(scopes = ["notes:write"])]
fn add_note(text: String) -> String {
    format!("added {text:?}")
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![read_notes, add_note])
        .build()?;

    // The resource is the server's own URL (the tokens' audience), so bind first.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    let auth = AuthConfig::new(&url, DemoTokens)?
        // Named in the metadata, so that OAuth clients know where to go.
        .authorization_server("https://auth.example.com")?;
    println!(
        "protected resource {url}; metadata at {}",
        auth.metadata_url()
    );
    let config = HttpConfig {
        auth: Some(auth),
        ..HttpConfig::default()
    };
    tokio::spawn(server.serve_http_with(listener, config, std::future::pending()));

    // 1. No token: 401, with a challenge that points to the metadata.
    match Client::connect_http(&url).await {
        Ok(_) => return Err("connected without a token".into()),
        Err(error) => println!("without a token: {error}"),
    }

    // 2. A token that may read: reading works, writing is 403.
    let reader = ConnectOptions::default().bearer_token("demo-reader")?;
    let client = Client::connect_http_with(&url, reader).await?;
    let notes = client.call_tool("read_notes", &json!({})).await?;
    println!(
        "reader: read_notes -> {:?}",
        notes.content[0].as_text().unwrap_or_default()
    );
    match client.call_tool("add_note", &json!({"text": "hi"})).await {
        Ok(result) => return Err(format!("a reader wrote: {result:?}").into()),
        Err(error) => println!("reader: add_note -> {error}"),
    }

    // 3. A token with both scopes may write.
    let writer = ConnectOptions::default().bearer_token("demo-writer")?;
    let client = Client::connect_http_with(&url, writer).await?;
    let added = client.call_tool("add_note", &json!({"text": "hi"})).await?;
    println!(
        "writer: add_note -> {:?}",
        added.content[0].as_text().unwrap_or_default()
    );
    Ok(())
}
