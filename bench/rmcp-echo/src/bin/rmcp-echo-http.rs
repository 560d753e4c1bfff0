//! `rmcp-echo-http [--http IP:PORT [--stateless]]`: the tools of
//! [`rmcp_echo`] served over Streamable HTTP at `http://IP:PORT/mcp`, or
//! over stdio (`rmcp::transport::stdio()`) without `--http`. It carries
//! both transports, as `echo-server` does, so its size is the one
//! `bench/size.sh` compares.
//!
//! rmcp's `StreamableHttpService` nested in an axum `Router` and run by
//! `axum::serve`, as rmcp's docs and tests do, with `TCP_NODELAY` on every
//! accepted connection. By default with rmcp's default configuration
//! (`legacy_session_mode: true`: `initialize` opens a session, answers are
//! SSE streams); with `--stateless`, `legacy_session_mode: false` and
//! `json_response: true` (no session, plain JSON answers), rmcp's cheapest
//! documented mode. 2026-07-28 requests are stateless in both.

use std::net::SocketAddr;

use axum::serve::ListenerExt;
use rmcp::transport::{
    StreamableHttpServerConfig, StreamableHttpService,
    streamable_http_server::session::local::LocalSessionManager,
};
use rmcp_echo::EchoServer;

const USAGE: &str = "usage: rmcp-echo-http [--http IP:PORT [--stateless]]";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut addr, mut stateless) = (None, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--stateless" => stateless = true,
            "--http" => {
                let value = args.next().ok_or(USAGE)?;
                addr = Some(
                    value
                        .parse::<SocketAddr>()
                        .map_err(|e| format!("--http {value}: {e}"))?,
                );
            }
            _ => return Err(format!("unknown argument {arg:?}; {USAGE}").into()),
        }
    }
    let Some(addr) = addr else {
        use rmcp::ServiceExt;
        let service = EchoServer::default()
            .serve(rmcp::transport::stdio())
            .await?;
        service.waiting().await?;
        return Ok(());
    };

    let mut config = StreamableHttpServerConfig::default();
    if stateless {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
    }
    // rmcp asks for a factory; cloning one prepared server (rather than
    // building the tool router per session or stateless request, as rmcp's
    // examples do) is the cheaper of the two.
    let prototype = EchoServer::default();
    let service: StreamableHttpService<EchoServer, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(prototype.clone()), Default::default(), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    let listener = listener.tap_io(|tcp| {
        // Without it a response written in pieces (SSE) can wait for the
        // client's delayed ACK.
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router).await?;
    Ok(())
}
