//! A client connected to a [`Server`] in the same process, without a child
//! process or a socket: the way to unit-test a server.

use super::{Client, ClientError, ConnectOptions};
use crate::server::Server;
use crate::transport::StdioConfig;

/// The size of each direction's in-memory pipe.
const PIPE_BYTES: usize = 1 << 16;

impl Client {
    /// Serves `server` on a task of its own and connects to it over an
    /// in-memory pipe, exactly as over stdio: every message is encoded,
    /// framed and decoded, in the era `options` ask for. The server stops
    /// when the client (every clone of it) is dropped.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_toolkit_runtime::client::{Client, ConnectOptions};
    /// use mcp_toolkit_runtime::protocol::CallToolResult;
    /// use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
    ///
    /// let hello = ToolDef::new("hello", |_call: ToolCall| async {
    ///     Ok(CallToolResult::text("hi"))
    /// });
    /// let server = Server::builder(mcp_toolkit_runtime::server_info!()).tool(hello).build()?;
    /// let client = Client::connect_in_memory(server, ConnectOptions::default()).await?;
    /// let result = client.call_tool("hello", &serde_json::json!({})).await?;
    /// assert_eq!(result.content[0].as_text(), Some("hi"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn connect_in_memory(
        server: Server,
        options: ConnectOptions,
    ) -> Result<Client, ClientError> {
        let (client_out, server_in) = tokio::io::duplex(PIPE_BYTES);
        let (server_out, client_in) = tokio::io::duplex(PIPE_BYTES);
        tokio::spawn(server.serve_io(server_in, server_out, StdioConfig::default()));
        Client::connect_io(client_in, client_out, options).await
    }
}
