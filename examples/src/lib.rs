//! Example MCP servers. Each binary in `src/bin` is one server; `demo`
//! generates and uses a typed client.

#[allow(missing_docs)] // generated code documents what the server documents
#[rustfmt::skip] // byte-identical to what mcp-codegen emits; see tests/generated_client.rs
pub mod echo_client;

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

/// Serves `server` the way the command line asks: `--http ADDR` serves
/// Streamable HTTP at `http://ADDR/mcp` (ADDR is `IP:PORT`, or a bare port
/// for `127.0.0.1:PORT`; port 0 picks a free one) until Ctrl-C, printing
/// `listening on http://IP:PORT/mcp` to stderr once bound; without it, the
/// server speaks stdio.
pub async fn serve(server: mcp_runtime::server::Server) -> Result<(), Box<dyn std::error::Error>> {
    match http_addr(std::env::args().skip(1))? {
        Some(addr) => {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            let config = mcp_runtime::transport::HttpConfig::default();
            eprintln!(
                "listening on http://{}{}",
                listener.local_addr()?,
                config.path
            );
            let ctrl_c = async {
                let _ = tokio::signal::ctrl_c().await;
            };
            server.serve_http_with(listener, config, ctrl_c).await?;
        }
        None => server.serve_stdio().await?,
    }
    Ok(())
}

/// The address after `--http`, if any.
fn http_addr(
    mut args: impl Iterator<Item = String>,
) -> Result<Option<std::net::SocketAddr>, String> {
    let usage = "usage: [--http IP:PORT | --http PORT]";
    let Some(arg) = args.next() else {
        return Ok(None);
    };
    if arg != "--http" {
        return Err(format!("unknown argument `{arg}`; {usage}"));
    }
    let value = args.next().ok_or(usage)?;
    if let Some(extra) = args.next() {
        return Err(format!("unexpected argument `{extra}`; {usage}"));
    }
    if let Ok(port) = value.parse::<u16>() {
        return Ok(Some((std::net::Ipv4Addr::LOCALHOST, port).into()));
    }
    value
        .parse()
        .map(Some)
        .map_err(|e| format!("`{value}` is not IP:PORT ({e}); {usage}"))
}

#[cfg(test)]
mod tests {
    use super::http_addr;

    fn parse(args: &[&str]) -> Result<Option<String>, String> {
        http_addr(args.iter().map(|s| s.to_string())).map(|a| a.map(|a| a.to_string()))
    }

    #[test]
    fn http_flag() {
        assert_eq!(parse(&[]), Ok(None));
        assert_eq!(
            parse(&["--http", "8080"]),
            Ok(Some("127.0.0.1:8080".into()))
        );
        assert_eq!(
            parse(&["--http", "0.0.0.0:1"]),
            Ok(Some("0.0.0.0:1".into()))
        );
        assert!(parse(&["--http"]).is_err());
        assert!(parse(&["--http", "localhost"]).is_err());
        assert!(parse(&["--stdio"]).is_err());
    }
}
