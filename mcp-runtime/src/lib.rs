//! The Model Context Protocol runtime: typed protocol messages for both eras
//! (2026-07-28 and 2024-11-05 through 2025-11-25), a concurrent JSON-RPC
//! engine, the server registry and router, the stdio and Streamable HTTP
//! transports, and a client.
//!
//! # A server
//!
//! Write ordinary functions and annotate them. Parameters become the input
//! schema (JSON Schema 2020-12), the doc comment the description, and a
//! return type that is `Serialize + JsonSchema` the output schema with
//! `structuredContent`; an `Err` becomes a tool result with `isError: true`.
//! Mistakes that can be known when compiling (a duplicate name, a parameter
//! type without a schema, a bad URI template) are compile errors.
//!
//! ```no_run
//! use mcp_toolkit_runtime::mcp_tool;
//! use mcp_toolkit_runtime::server::{Server, ToolError};
//! use schemars::JsonSchema;
//! use serde::Serialize;
//!
//! /// Echo the text back unchanged.
//! ///
//! /// # Arguments
//! ///
//! /// * `text` - The text to echo.
//! #[mcp_tool]
//! fn echo(text: String) -> String {
//!     text
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! struct Sum {
//!     sum: i64,
//! }
//!
//! /// Add two integers.
//! #[mcp_tool(read_only)]
//! fn add(a: i64, b: i64) -> Result<Sum, ToolError> {
//!     let sum = a.checked_add(b).ok_or_else(|| ToolError::new("overflow"))?;
//!     Ok(Sum { sum })
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let server = Server::builder(mcp_toolkit_runtime::server_info!())
//!         .register(mcp_toolkit_runtime::definitions![echo, add])
//!         .build()?;
//!     // Or `server.serve_http("127.0.0.1:8080").await?` for Streamable HTTP at `/mcp`.
//!     server.serve_stdio().await?;
//!     Ok(())
//! }
//! ```
//!
//! The same server answers clients of both protocol eras; nothing in the
//! code above depends on which one connects. Resources and prompts work the
//! same way with [`mcp_resource`] and [`mcp_prompt`]; methods that share
//! state go in an `impl` block marked [`mcp_server`]. A handler that needs
//! the request itself (to report progress, notice cancellation, or ask the
//! client a question with [`server::RequestContext::elicit`]) takes a
//! [`server::RequestContext`] parameter, which is left out of the schema.
//!
//! # A client
//!
//! [`client::Client`] connects over stdio (spawning the server) or HTTP and
//! agrees on an era by itself. For a typed client, generate one from the live
//! server with `mcp-codegen generate --url http://127.0.0.1:8080/mcp -o
//! src/client.rs`: each tool becomes a method whose arguments are a struct, so
//! a wrong call is a compile error.
//!
//! ```no_run
//! # #[cfg(feature = "client")]
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_toolkit_runtime::client::Client;
//! use serde_json::json;
//!
//! let client = Client::connect_http("http://127.0.0.1:8080/mcp").await?;
//! let result = client.call_tool("add", &json!({"a": 2, "b": 40})).await?;
//! println!("{:?}", result.structured_content);
//! # Ok(())
//! # }
//! ```
//!
//! # How a request flows
//!
//! Data flows one way, and each stage lives in the module named for it:
//!
//! | stage | module |
//! | --- | --- |
//! | transport: bytes in and out | [`transport::stdio`], [`transport::http`] |
//! | authorization (protected HTTP only): bearer or DPoP-bound token, principal, scopes | `transport::http::auth`, [`server::auth`] |
//! | frame: one line, or one HTTP body | `transport::stdio`, `transport::http::body` |
//! | envelope: JSON-RPC request, notification or response | [`jsonrpc`] |
//! | classify: the [`protocol::Method`], `_meta`, the era, what a 2026-07-28 client declares, the HTTP headers that mirror the body | `server::engine::classify` |
//! | era: legacy `initialize`, and the request context | `server::engine::request`, `server::engine::era` |
//! | middleware: the server's layers, which may answer first | `server::engine::intercept`, [`server::middleware`] |
//! | route: one `match` over [`protocol::Method`] | `server::engine::route` |
//! | input rounds: answers in, open questions out | `server::engine::rounds` |
//! | validate, handler, result: schemas checked around the user's code | `server::engine::invoke`, [`schema`] |
//! | shape: `resultType`, `ttlMs` and `cacheScope` for 2026-07-28, then the response frame | `server::engine::shape` |
//! | what handlers are made of (definitions, the registry) | `server::registry` |
//! | what the macros target | `server::derive`, `__private` |
//!
//! `jsonrpc`, `protocol`, `canonical`, `oauth`, [`redact`] and [`lifetime`]
//! are leaves: they import nothing of this crate but one another
//! (`protocol` re-exports `jsonrpc`'s error codes, `oauth` finds a URL's
//! authority by `redact`'s rule). Outgoing HTTP (the client's
//! transport, an issuer's metadata and keys) is built in one place,
//! `outbound`. Every lifetime or limit a peer or a configuration names
//! passes through [`lifetime::bounded`] before it meets a clock. Nothing
//! imports from a later stage, and the crate has no import cycles.
//!
//! # Adding a method
//!
//! 1. Add its row to the table in `protocol/method.rs` ([`protocol::Method`]):
//!    the wire name (a constant in [`protocol::methods`]), the eras that
//!    define it, who answers it, the parameter its `Mcp-Name` header mirrors
//!    and whether middleware sees it. Its parameter and result types go in
//!    [`protocol`].
//! 2. `cargo check`. Every `match` that must decide about the new method
//!    fails until it does: the router (`server::engine::route`) and the
//!    cache hints of 2026-07-28 results (`server::engine::shape`).
//! 3. A result type with an optional `resultType` is listed in the
//!    `shaped!` table of `server::engine::shape`, so that it is shaped like
//!    every other.
//! 4. The header rules need nothing: the server checks, and the client
//!    sends, `Mcp-Name` by the table. The client's typed call, if the
//!    method deserves one, goes in [`client`].
//!
//! # Adding a transport
//!
//! A transport turns bytes into [`jsonrpc::Incoming`] messages and answers
//! them; it holds no protocol rule of its own. Per connection it keeps a
//! [`server::Session`]; per request it hands the server the request, a
//! `Peer` (where notifications and the server's own requests go) and an
//! `Inbound` (what the transport knows beyond the message: headers,
//! extensions, the verified principal) to `Server::handle_request`. A
//! transport that must know the era before it picks a session (HTTP:
//! stateless 2026-07-28 or a legacy session) classifies first
//! (`Decoded::era_asked`, `Server::classify`) and calls
//! `Server::handle_classified`; a classification's rejection is the
//! client's mistake (HTTP 400).
//!
//! # Where to look next
//!
//! - [`server::ServerBuilder`]: registration and [`server::ServerOptions`]
//!   (page size, cache hints, the key that seals multi-round state).
//! - [`server::LiveRegistry`] and [`server::Batch`]: tools, prompts,
//!   resources and templates added, replaced and removed while the server
//!   runs ([`server::ServerBuilder::live_registry`]), each change announced
//!   to the clients listening in both eras; `visible_with_scopes` and
//!   `visible_to` on a definition show it only to some callers.
//! - `server::shared` (the `redis` feature): several instances of one
//!   server sharing tasks and announcements through Redis.
//! - [`server::SkillDef`]: Agent Skills served with the Skills extension
//!   (`skills/list`, `skills/get`, files as `skill://` resources), and
//!   [`client::Client::load_skill`], which verifies them on the host side.
//! - [`transport::http::HttpConfig`]: limits and allow-lists of the HTTP
//!   transport (127.0.0.1 and strict `Host`/`Origin` checks by default).
//! - [`transport::stdio::StdioConfig`]: line and concurrency limits of stdio.
//! - [`server::auth`]: the server as an OAuth 2.1 protected resource
//!   (metadata, 401/403 challenges, JWT or introspected tokens, scopes per
//!   tool, DPoP-bound tokens); [`oauth`]: the challenge and metadata
//!   documents both sides read, and the DPoP proof checks.
//! - [`client::Client::call_tool_as_task`] and [`client::TaskHandle`]: a
//!   tool run as a task (the tasks extension, 2026-07-28) polled, answered,
//!   cancelled and awaited with a deadline from the client side.
//! - [`client::ConnectOptions`]: headers and bearer tokens for `https://`
//!   servers; [`client::ClientError`] says what failed (TLS, DNS, 401, 403).
//!
//! # Cargo features
//!
//! None is on by default: as it comes, the crate serves stdio, with the
//! macros and the built-in argument validator. Each of these adds one part:
//!
//! - `http`: Streamable HTTP, [`Server::serve_http`](server::Server::serve_http)
//!   and `transport::http` (hyper), the protected-resource side of
//!   authorization (`server::auth`'s verifiers, `oauth`), and
//!   [`RequestContext::http_headers`](server::RequestContext::http_headers).
//!   `client`, `tls`, `jwt` and `opentelemetry` turn it on. Without it a
//!   server speaks stdio only and compiles no HTTP stack.
//! - `validation`: tool arguments and structured output checked
//!   by the `jsonschema` crate, every keyword of every draft. Without it, a
//!   built-in validator checks the keywords schemars emits for Rust types
//!   and [`server::ServerBuilder::build`] refuses a schema with any other
//!   validation keyword (`pattern`, `if`, ...); see [`schema`].
//! - `skills`: [`server::SkillDef`] and
//!   [`server::ServerBuilder::skill`], a server serving Agent Skills.
//! - `client`: [`client::Client`] and everything built on it
//!   (generated clients and [`codegen`], what their code calls;
//!   [`client::Client::mount`]; skills on the host side).
//! - `codegen` (with `client`): [`codegen`], what generated code calls; on
//!   its own for a types-only module (`mcp-codegen --types-only`) in a
//!   crate without the client.
//! - `tls`: `https://` through rustls, trusting the system's roots
//!   plus `SSL_CERT_FILE` / `SSL_CERT_DIR`.
//! - `jwt`: [`server::auth::JwtVerifier`], and DPoP-bound tokens
//!   ([`server::auth::DpopPolicy`], [`oauth::dpop`]).
//! - `opentelemetry`: request spans joined to OpenTelemetry (the caller's
//!   span as the server span's parent, the current OpenTelemetry span sent
//!   by the client) and an OTLP/HTTP exporter, `trace::otlp`; see
//!   [`trace`].
//! - `redis`: `server::SharedState`, tasks and announcements shared by the
//!   instances of a server through Redis or Valkey.
//!
//! A server with the defaults carries no HTTP, client, TLS, JWT or
//! general-purpose schema validator (the example echo server with `http`
//! alone: 3.75 MB stripped, against 16.8 MB with all six), and a stdio-only
//! server builds without hyper and its crates.

// These docs link the items of every feature. docs.rs (every feature) has
// them all; a build without some cannot resolve those links,
// which is no fault of the docs.
#![cfg_attr(
    not(all(feature = "client", feature = "skills", feature = "jwt")),
    allow(rustdoc::broken_intra_doc_links)
)]
// On docs.rs, which passes `--cfg docsrs` to every build, every item a
// feature gates says which: with no features on by default, a reader must
// learn where `client` or `serve_http` come from.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod canonical;
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "codegen")]
pub mod codegen;
#[cfg(any(feature = "skills", feature = "client"))]
mod frontmatter;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
pub mod jsonrpc;
pub mod lifetime;
#[cfg(feature = "http")]
pub mod oauth;
#[cfg(feature = "http")]
mod outbound;
pub mod protocol;
pub mod redact;
pub mod schema;
pub mod server;
mod sync;
pub mod trace;
pub mod transport;
#[cfg(not(all(feature = "http", feature = "jwt")))]
#[doc(hidden)]
pub mod without_feature;

/// Crates that generated code refers to, so that a crate using generated
/// clients needs no direct dependency on them.
pub mod reexports {
    /// The `http` crate, whose header types [`ConnectOptions::headers`](crate::client::ConnectOptions::headers) holds.
    #[cfg(feature = "http")]
    pub use hyper::http;
    pub use serde;
    pub use serde_json;
}
#[doc(hidden)]
pub mod __private;

pub use mcp_toolkit_macros::{mcp_prompt, mcp_resource, mcp_server, mcp_tool};
/// Re-exported so that users derive `JsonSchema` without a direct dependency.
pub use schemars;
