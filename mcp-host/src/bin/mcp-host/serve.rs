//! `mcp-host serve`: the gateway, over stdio or Streamable HTTP, until
//! its input ends (stdio) or the process is told to stop (HTTP).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mcp_host::{GatewayOptions, Host, HostError};
use mcp_runtime::transport::HttpConfig;

/// Where the gateway serves.
pub enum Transport {
    /// This process's stdin and stdout.
    Stdio,
    /// Streamable HTTP at `http://ADDR/mcp`.
    Http(SocketAddr),
}

/// Serves `host`'s catalogue on `transport`, then stops its servers
/// within `grace`.
pub async fn serve(
    host: Host,
    transport: Transport,
    options: GatewayOptions,
    grace: Duration,
) -> Result<u8, HostError> {
    let host = Arc::new(host);
    let served = match host.gateway(options) {
        Ok(server) => {
            tracing::info!("gateway ready");
            match transport {
                Transport::Stdio => server.serve_stdio().await,
                Transport::Http(addr) => serve_http(server, addr).await,
            }
        }
        Err(error) => Err(std::io::Error::other(error)),
    };
    host.shutdown(grace).await;
    served
        .map(|()| 0)
        .map_err(|e| HostError::Usage(format!("serve: {e}")))
}

/// Streamable HTTP on `addr` until Ctrl-C or SIGTERM; says where on
/// stderr once it listens.
async fn serve_http(server: mcp_runtime::server::Server, addr: SocketAddr) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
    let config = HttpConfig::default();
    eprintln!(
        "mcp-host: listening on http://{}{}",
        listener.local_addr()?,
        config.path
    );
    server
        .serve_http_with(listener, config, stop_signal())
        .await
}

/// Resolves on Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
