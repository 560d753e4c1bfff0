//! Where the tools come from: a saved `tools/list`, a server started over
//! stdio, or a server at a Streamable HTTP URL (either era; the runtime's
//! client negotiates it).

use std::path::PathBuf;

use mcp_runtime::client::Client;
use mcp_runtime::protocol::Tool;

use crate::error::Error;
use crate::input::parse_tools;

/// A source of tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A saved `tools/list` result or JSON-RPC response.
    File(PathBuf),
    /// A command line (split like a POSIX shell) that starts a stdio server.
    Stdio(String),
    /// The URL of a Streamable HTTP endpoint.
    Url(String),
}

impl Source {
    /// Reads or fetches the tools.
    pub async fn tools(&self) -> Result<Vec<Tool>, Error> {
        let client_error = |e: mcp_runtime::client::ClientError| Error::Client(e.to_string());
        match self {
            Source::File(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
                    path: path.display().to_string(),
                    source,
                })?;
                parse_tools(&text)
            }
            Source::Stdio(command) => {
                let words = shlex::split(command)
                    .filter(|w| !w.is_empty())
                    .ok_or_else(|| {
                        Error::Option(format!("cannot split the command `{command}`"))
                    })?;
                let client = Client::connect_stdio(&words[0], &words[1..])
                    .await
                    .map_err(client_error)?;
                client.list_tools().await.map_err(client_error)
            }
            Source::Url(url) => {
                let client = Client::connect_http(url).await.map_err(client_error)?;
                client.list_tools().await.map_err(client_error)
            }
        }
    }

    /// [`Source::tools`] on a runtime of its own, for `build.rs` and the CLI.
    pub fn tools_blocking(&self) -> Result<Vec<Tool>, Error> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::Client(format!("cannot start a tokio runtime: {e}")))?
            .block_on(self.tools())
    }
}
