//! Example MCP servers. Each binary in `src/bin` is one server.

/// Sends `tracing` output to stderr (stdout carries only protocol messages),
/// filtered by `RUST_LOG` (default `warn`).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}
