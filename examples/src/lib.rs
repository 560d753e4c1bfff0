//! Example MCP servers. Each binary in `src/bin` is one server; `demo`
//! generates and uses a typed client.
//!
//! The servers share one command line ([`Example`], [`Flag`]): `--http
//! ADDR` (Streamable HTTP instead of stdio), `--state-key-file PATH`,
//! `--auth-issuer ISSUER_URL [--resource URL]`, `--mount PREFIX=URL` and
//! `--redis-url URL`. Each binary names the options it acts on and refuses
//! the others at startup, with a message naming the option, rather than
//! ignore them.
//!
//! `--http` needs the `http` feature, `--mount` the `client` feature,
//! `--auth-issuer` the `jwt` feature, `--redis-url` the `redis` feature:
//! `http` is the default, and `full` turns on every one (see `Cargo.toml`).

mod command_line;

pub use command_line::{CommandLine, Example, Flag, STATE_KEY_ENV};

#[cfg(feature = "client")]
#[allow(missing_docs)] // generated code documents what the server documents
#[rustfmt::skip] // byte-identical to what mcp-codegen emits; see tests/it/generated_client.rs
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
/// filtered by `RUST_LOG` (default `warn`). With `RUST_LOG=mcp_toolkit_runtime=info`
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
