//! `rmcp-echo`: the tools of [`rmcp_echo`] served over stdio.
//!
//! Transport: by default `rmcp::transport::stdio()` (the documented one, which
//! runs every read and write on Tokio's blocking pool, like `echo-server`);
//! `--pipes` uses `rmcp::transport::stdio_pipes()`, rmcp's non-blocking Linux
//! FIFO transport (falls back to `stdio()` when stdin/stdout are not pipes).

use rmcp::ServiceExt;
use rmcp_echo::EchoServer;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pipes = std::env::args().skip(1).any(|a| a == "--pipes");
    let service = if pipes {
        EchoServer::default()
            .serve(rmcp::transport::stdio_pipes())
            .await?
    } else {
        EchoServer::default()
            .serve(rmcp::transport::stdio())
            .await?
    };
    service.waiting().await?;
    Ok(())
}
