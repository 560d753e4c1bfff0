//! Example MCP servers. Each binary in `src/bin` is one server; `demo`
//! generates and uses a typed client.
//!
//! Every example takes the same command line:
//!
//! - `--http ADDR`: serve Streamable HTTP at `http://ADDR/mcp` (ADDR is
//!   `IP:PORT`, or a bare port for `127.0.0.1:PORT`; port 0 picks a free
//!   one) instead of stdio;
//! - `--state-key-file PATH`: seal the `requestState` of multi-round-trip
//!   requests with the key in PATH (64 hex digits, surrounding whitespace
//!   ignored). Give every instance behind a load balancer the same key, so
//!   that any of them can take the next round. The environment variable
//!   `MCP_STATE_KEY` (64 hex digits) does the same; the flag wins. Without
//!   either, each process makes up a random key.
//! - `--auth-issuer ISSUER_URL`: with `--http`, make the server an OAuth
//!   2.1 protected resource that accepts JWT access tokens from that
//!   issuer (`https://`, or `http://` on loopback); tools declared with
//!   `scopes` need them. `--resource URL` names the server's canonical URL,
//!   the tokens' audience (default: `http://ADDR/mcp` as bound).
//! - `--redis-url URL`: share tasks and list-change announcements with the
//!   other instances of the server through Redis or Valkey
//!   (`redis://HOST:PORT/`), so that any instance behind a load balancer
//!   serves any request. Give every instance the same `--state-key-file`
//!   too. (The `redis` feature, on by default.)
//!
//! `--http` needs the `http` feature, `--mount` the `client` feature,
//! `--auth-issuer` the `jwt` feature; all are on by default (see
//! `Cargo.toml`).

use std::net::SocketAddr;
use std::path::PathBuf;

use mcp_runtime::server::{ServerBuilder, ServerOptions, StateKey};

/// The environment variable that may carry the request state key.
pub const STATE_KEY_ENV: &str = "MCP_STATE_KEY";

const USAGE: &str = "usage: [--http IP:PORT | --http PORT] [--state-key-file PATH] \
                     [--auth-issuer ISSUER_URL [--resource URL]] [--mount PREFIX=URL]... \
                     [--redis-url URL]";

#[cfg(feature = "client")]
#[allow(missing_docs)] // generated code documents what the server documents
#[rustfmt::skip] // byte-identical to what mcp-codegen emits; see tests/generated_client.rs
pub mod echo_client;

/// Typed clients mcp-codegen generated from third-party servers: the
/// reference servers `@modelcontextprotocol/server-everything` and
/// `@modelcontextprotocol/server-filesystem` (npm), and
/// `tests/interop/py_rich_server.py` (Python SDK). Byte-identical to what
/// mcp-codegen emits; see tests/codegen_e2e.rs.
#[cfg(feature = "client")]
#[allow(missing_docs)]
pub mod generated {
    #[rustfmt::skip]
    pub mod everything_client;
    #[rustfmt::skip]
    pub mod filesystem_client;
    #[rustfmt::skip]
    pub mod py_rich_client;
}

/// Sends `tracing` output to stderr (stdout carries only protocol messages),
/// filtered by `RUST_LOG` (default `warn`). With `RUST_LOG=mcp_runtime=info`
/// every request's span is written when it closes: method, name, id, era,
/// duration and its trace (`trace_id`, `span_id`, `parent_span_id`).
///
/// `RUST_LOG` takes levels and `target=level` pairs (`Targets`' syntax);
/// `EnvFilter`'s span and field filters are left out, because its regex
/// engine would add about 0.7 MB to every example binary.
pub fn init_logging() {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = std::env::var("RUST_LOG")
        .ok()
        .and_then(|directives| directives.parse::<Targets>().ok())
        .unwrap_or_else(|| Targets::new().with_default(LevelFilter::WARN));
    tracing_subscriber::fmt()
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_writer(std::io::stderr)
        .finish()
        .with(filter)
        .init();
}

/// Adds what every `--mount PREFIX=URL` names to `builder`: the server at
/// the Streamable HTTP `URL`, its tools and prompts as `PREFIX_NAME`
/// (see `mcp_runtime::client::Client::mount`).
pub async fn mount_all(
    builder: ServerBuilder,
) -> Result<ServerBuilder, Box<dyn std::error::Error>> {
    let args = Args::parse(std::env::args().skip(1))?;
    mount(builder, args.mounts).await
}

#[cfg(feature = "client")]
async fn mount(
    mut builder: ServerBuilder,
    mounts: Vec<(String, String)>,
) -> Result<ServerBuilder, Box<dyn std::error::Error>> {
    for (prefix, url) in mounts {
        let upstream = mcp_runtime::client::Client::connect_http(&url)
            .await
            .map_err(|e| format!("cannot mount {url}: {e}"))?;
        builder = builder.register(upstream.mount(&prefix).await?);
    }
    Ok(builder)
}

/// Without the `client` feature there is nothing to reach a server with.
#[cfg(not(feature = "client"))]
async fn mount(
    builder: ServerBuilder,
    mounts: Vec<(String, String)>,
) -> Result<ServerBuilder, Box<dyn std::error::Error>> {
    match mounts.is_empty() {
        true => Ok(builder),
        false => Err("--mount needs the examples built with the `client` feature".into()),
    }
}

/// The server options the command line asks for: the shared request state
/// key from `--state-key-file` or `MCP_STATE_KEY`, defaults otherwise.
pub fn server_options() -> Result<ServerOptions, Box<dyn std::error::Error>> {
    let args = Args::parse(std::env::args().skip(1))?;
    let mut options = ServerOptions::default();
    let key = match args.state_key_file {
        Some(path) => Some(
            std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        ),
        None => std::env::var(STATE_KEY_ENV).ok(),
    };
    if let Some(text) = key {
        options.request_state_key = parse_state_key(&text)?;
    }
    Ok(options)
}

/// `builder` with what the command line asks of every server: the
/// [`server_options`], and the state shared through `--redis-url`.
pub fn configure(builder: ServerBuilder) -> Result<ServerBuilder, Box<dyn std::error::Error>> {
    let args = Args::parse(std::env::args().skip(1))?;
    let builder = builder.options(server_options()?);
    match args.redis_url {
        #[cfg(feature = "redis")]
        Some(url) => Ok(builder.shared_state(mcp_runtime::server::SharedState::redis(&url)?)),
        #[cfg(not(feature = "redis"))]
        Some(_) => Err("--redis-url needs the examples built with the `redis` feature".into()),
        None => Ok(builder),
    }
}

/// Serves `server` the way the command line asks: Streamable HTTP with
/// `--http ADDR` until Ctrl-C, printing `listening on http://IP:PORT/mcp` to
/// stderr once bound; stdio otherwise.
pub async fn serve(server: mcp_runtime::server::Server) -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse(std::env::args().skip(1))?;
    match args.http {
        Some(addr) => serve_http(server, addr, &args).await,
        None if args.auth_issuer.is_some() => Err(format!(
            "--auth-issuer needs --http: a stdio server takes credentials from its environment; {USAGE}"
        )
        .into()),
        None => Ok(server.serve_stdio().await?),
    }
}

/// Streamable HTTP at `http://ADDR/mcp` until Ctrl-C.
#[cfg(feature = "http")]
async fn serve_http(
    server: mcp_runtime::server::Server,
    addr: SocketAddr,
    args: &Args,
) -> Result<(), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let mut config = mcp_runtime::transport::HttpConfig::default();
    let url = format!("http://{}{}", listener.local_addr()?, config.path);
    if let Some(issuer) = &args.auth_issuer {
        let resource = args.resource.clone().unwrap_or_else(|| url.clone());
        config.auth = Some(jwt_auth(&resource, issuer)?);
        eprintln!("protected resource {resource}; tokens from {issuer}");
    }
    eprintln!("listening on {url}");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    Ok(server.serve_http_with(listener, config, ctrl_c).await?)
}

/// Without the `http` feature the examples speak stdio only, as a server
/// that calls nothing but `serve_stdio` would be built.
#[cfg(not(feature = "http"))]
async fn serve_http(
    _server: mcp_runtime::server::Server,
    _addr: SocketAddr,
    _args: &Args,
) -> Result<(), Box<dyn std::error::Error>> {
    Err("--http needs the examples built with the `http` feature".into())
}

/// Authorization by JWT access tokens from `issuer`, for `resource`.
#[cfg(all(feature = "http", feature = "jwt"))]
fn jwt_auth(
    resource: &str,
    issuer: &str,
) -> Result<mcp_runtime::server::auth::AuthConfig, Box<dyn std::error::Error>> {
    Ok(mcp_runtime::server::auth::AuthConfig::jwt(
        resource, issuer,
    )?)
}

/// Without the `jwt` feature there is no verifier to check tokens with.
#[cfg(all(feature = "http", not(feature = "jwt")))]
fn jwt_auth(
    _resource: &str,
    _issuer: &str,
) -> Result<mcp_runtime::server::auth::AuthConfig, Box<dyn std::error::Error>> {
    Err("--auth-issuer needs the examples built with the `jwt` feature".into())
}

/// The command line of every example.
#[derive(Debug, Default, PartialEq)]
struct Args {
    http: Option<SocketAddr>,
    state_key_file: Option<PathBuf>,
    auth_issuer: Option<String>,
    resource: Option<String>,
    mounts: Vec<(String, String)>,
    redis_url: Option<String>,
}

impl Args {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
        let mut parsed = Args::default();
        while let Some(arg) = args.next() {
            let value = args
                .next()
                .ok_or_else(|| format!("`{arg}` needs a value; {USAGE}"))?;
            match arg.as_str() {
                "--http" => parsed.http = Some(http_addr(&value)?),
                "--state-key-file" => parsed.state_key_file = Some(value.into()),
                "--auth-issuer" => parsed.auth_issuer = Some(value),
                "--resource" => parsed.resource = Some(value),
                "--redis-url" => parsed.redis_url = Some(value),
                "--mount" => {
                    let (prefix, url) = value
                        .split_once('=')
                        .ok_or_else(|| format!("--mount takes PREFIX=URL; {USAGE}"))?;
                    parsed.mounts.push((prefix.to_owned(), url.to_owned()));
                }
                _ => return Err(format!("unknown argument `{arg}`; {USAGE}")),
            }
        }
        if parsed.resource.is_some() && parsed.auth_issuer.is_none() {
            return Err(format!("--resource needs --auth-issuer; {USAGE}"));
        }
        Ok(parsed)
    }
}

/// `IP:PORT`, or a bare port on 127.0.0.1.
fn http_addr(value: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = value.parse::<u16>() {
        return Ok((std::net::Ipv4Addr::LOCALHOST, port).into());
    }
    value
        .parse()
        .map_err(|e| format!("`{value}` is not IP:PORT ({e}); {USAGE}"))
}

/// A state key written as 64 hex digits.
fn parse_state_key(text: &str) -> Result<StateKey, String> {
    let mut bytes = [0; 32];
    hex::decode_to_slice(text.trim(), &mut bytes)
        .map_err(|e| format!("the request state key must be 64 hex digits: {e}"))?;
    Ok(StateKey::new(bytes))
}

#[cfg(test)]
mod tests {
    use super::{Args, parse_state_key};

    fn parse(args: &[&str]) -> Result<Args, String> {
        Args::parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn http_flag() {
        assert_eq!(parse(&[]), Ok(Args::default()));
        let http = |args: &[&str]| parse(args).map(|a| a.http.map(|a| a.to_string()));
        assert_eq!(http(&["--http", "8080"]), Ok(Some("127.0.0.1:8080".into())));
        assert_eq!(http(&["--http", "0.0.0.0:1"]), Ok(Some("0.0.0.0:1".into())));
        assert!(parse(&["--http"]).is_err());
        assert!(parse(&["--http", "localhost"]).is_err());
        assert!(parse(&["--stdio"]).is_err());
    }

    #[test]
    fn state_key_flag() {
        let args = parse(&["--state-key-file", "/k", "--http", "1"]).unwrap();
        assert_eq!(args.state_key_file, Some("/k".into()));
        assert!(args.http.is_some());
        assert!(parse_state_key(&format!("{}\n", "ab".repeat(32))).is_ok());
        assert!(parse_state_key("abcd").is_err());
        assert!(parse_state_key(&"zz".repeat(32)).is_err());
    }
}
