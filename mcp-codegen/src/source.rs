//! Where the tools (and prompts and resources) come from: a saved listing,
//! a server started over stdio, or a server at a Streamable HTTP URL
//! (either era; the runtime's client negotiates it).

use std::path::PathBuf;
use std::time::Duration;

use mcp_toolkit_runtime::client::auth::{LoopbackBrowser, OAuthConfig};
use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions};
use mcp_toolkit_runtime::jsonrpc::code::METHOD_NOT_FOUND;
use mcp_toolkit_runtime::protocol::Tool;
use mcp_toolkit_runtime::reexports::http::{HeaderName, HeaderValue};

use crate::error::Error;
use crate::input::{Listing, parse_listing, parse_tools};

/// How long a server may take to connect and list its tools, unless told
/// otherwise ([`Source::tools_within`]).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The shortest time a user gets to approve access in a browser (`--oauth`).
const USER_AUTHORIZATION_TIME: Duration = Duration::from_secs(300);

/// A source of tools.
#[derive(Clone, PartialEq, Eq)]
pub enum Source {
    /// A saved `tools/list` result or JSON-RPC response (with `prompts`,
    /// `resources` and `resourceTemplates` beside `tools`, when wanted).
    File(PathBuf),
    /// A command line (split like a POSIX shell) that starts a stdio server.
    Stdio(String),
    /// A Streamable HTTP endpoint (`http://`, or `https://` with the `tls`
    /// feature, a default one).
    Url {
        /// The endpoint.
        url: String,
        /// Headers sent with every request, such as an API key or
        /// `Authorization: Bearer ...`; kept out of debug output.
        headers: Vec<(String, String)>,
        /// Authorize with OAuth 2.1 when the server asks (interactively:
        /// the authorization URL is printed and opened in a browser, the
        /// redirect arrives on a loopback port).
        oauth: bool,
    },
    /// A server of a host configuration in the `mcpServers` format (see
    /// `mcp-host`), started or reached as the host would; the host exposes
    /// its tools only, so its listing has no prompts or resources. Needs
    /// the `config` feature (a default one): without it, reaching this
    /// source is an [`Error::Option`] that says so.
    Config {
        /// The configuration file.
        path: PathBuf,
        /// The server's name in it.
        server: String,
    },
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::File(path) => f.debug_tuple("File").field(path).finish(),
            Source::Stdio(command) => f.debug_tuple("Stdio").field(command).finish(),
            Source::Url {
                url,
                headers,
                oauth,
            } => {
                let names: Vec<_> = headers.iter().map(|(name, _)| name.as_str()).collect();
                f.debug_struct("Url")
                    .field("url", &mcp_toolkit_runtime::redact::RedactedUrl::new(url))
                    .field("header_names", &names)
                    .field("oauth", oauth)
                    .finish()
            }
            Source::Config { path, server } => f
                .debug_struct("Config")
                .field("path", path)
                .field("server", server)
                .finish(),
        }
    }
}

/// Connection options that bound connecting and listing by `timeout`, so
/// that a server that does not answer is reported with its cause within
/// it.
fn bounded(timeout: Duration) -> ConnectOptions {
    ConnectOptions {
        connect_timeout: Some(timeout),
        request_timeout: timeout,
        discover_timeout: (timeout / 3).min(Duration::from_secs(10)),
        ..ConnectOptions::default()
    }
}

/// A source, read or connected.
enum Reached {
    /// The text of a saved listing.
    File(String),
    /// A connected server.
    Client(Client),
    /// The tools a host got from a configured server.
    Tools(Vec<Tool>),
}

fn client_error(e: ClientError) -> Error {
    Error::Client(e.to_string())
}

impl Source {
    /// Reads or fetches the tools, within [`DEFAULT_TIMEOUT`].
    pub async fn tools(&self) -> Result<Vec<Tool>, Error> {
        self.tools_within(DEFAULT_TIMEOUT).await
    }

    /// Reads or fetches the tools; a server gets `timeout` to connect and
    /// `timeout` to list them (with `--oauth`, the user gets at least five
    /// minutes to approve).
    pub async fn tools_within(&self, timeout: Duration) -> Result<Vec<Tool>, Error> {
        match self.reach(timeout).await? {
            Reached::File(text) => parse_tools(&text),
            Reached::Client(client) => client.list_tools().await.map_err(client_error),
            Reached::Tools(tools) => Ok(tools),
        }
    }

    /// Reads or fetches the listing, within [`DEFAULT_TIMEOUT`].
    pub async fn listing(&self) -> Result<Listing, Error> {
        self.listing_within(DEFAULT_TIMEOUT).await
    }

    /// Reads or fetches the listing: the tools, and the prompts, static
    /// resources and resource templates of a server that has the
    /// capability (each list within `timeout`, as [`tools_within`]).
    ///
    /// [`tools_within`]: Self::tools_within
    pub async fn listing_within(&self, timeout: Duration) -> Result<Listing, Error> {
        match self.reach(timeout).await? {
            Reached::File(text) => parse_listing(&text),
            Reached::Client(client) => listing_of(&client).await.map_err(client_error),
            Reached::Tools(tools) => Ok(Listing::from(tools)),
        }
    }

    /// Reads the file, connects to the server, or gets the configured
    /// server's tools.
    async fn reach(&self, timeout: Duration) -> Result<Reached, Error> {
        match self {
            Source::File(path) => {
                std::fs::read_to_string(path)
                    .map(Reached::File)
                    .map_err(|source| Error::Io {
                        path: path.display().to_string(),
                        source,
                    })
            }
            Source::Stdio(command) => {
                let words = shlex::split(command)
                    .filter(|w| !w.is_empty())
                    .ok_or_else(|| {
                        Error::Option(format!("cannot split the command `{command}`"))
                    })?;
                let client = Client::connect_stdio_with(&words[0], &words[1..], bounded(timeout))
                    .await
                    .map_err(client_error)?;
                Ok(Reached::Client(client))
            }
            Source::Config { path, server } => Self::configured_tools(path, server, timeout)
                .await
                .map(Reached::Tools),
            Source::Url {
                url,
                headers,
                oauth,
            } => {
                let mut options = bounded(timeout);
                if *oauth {
                    let limit = timeout.max(USER_AUTHORIZATION_TIME);
                    options.connect_timeout = Some(limit);
                    let browser = LoopbackBrowser::bind().await.map_err(client_error)?;
                    let config = OAuthConfig::authorization_code("mcp-codegen", browser);
                    options.oauth = Some(std::sync::Arc::new(config));
                }
                for (name, value) in headers {
                    let name = HeaderName::try_from(name.as_str())
                        .map_err(|_| Error::Option(format!("`{name}` is not a header name")))?;
                    let mut value = HeaderValue::try_from(value.as_str()).map_err(|_| {
                        Error::Option(format!("the value of the header `{name}` is not valid"))
                    })?;
                    value.set_sensitive(true);
                    options.headers.append(name, value);
                }
                let client = Client::connect_http_with(url, options)
                    .await
                    .map_err(client_error)?;
                Ok(Reached::Client(client))
            }
        }
    }

    /// The tools of `server` in the host configuration at `path`.
    #[cfg(feature = "config")]
    async fn configured_tools(
        path: &std::path::Path,
        server: &str,
        timeout: Duration,
    ) -> Result<Vec<Tool>, Error> {
        let config =
            mcp_toolkit_host::Config::load(path).map_err(|e| Error::Option(e.to_string()))?;
        if !config.servers.contains_key(server) {
            return Err(Error::Option(format!(
                "{} has no server named {server}",
                path.display()
            )));
        }
        let names = [server.to_owned()];
        let options = mcp_toolkit_host::HostOptions {
            connect_timeout: timeout,
            ..mcp_toolkit_host::HostOptions::default()
        };
        let host = mcp_toolkit_host::Host::start_only(config, &names, options).await;
        if let Some(Err(why)) = host.servers().into_iter().next().map(|s| s.state) {
            return Err(Error::Client(format!("server {server}: {why}")));
        }
        Ok(host
            .tools()
            .into_iter()
            .map(|entry| entry.tool.clone())
            .collect())
    }

    /// Without the `config` feature there is no host to start the server.
    #[cfg(not(feature = "config"))]
    async fn configured_tools(
        path: &std::path::Path,
        server: &str,
        _timeout: Duration,
    ) -> Result<Vec<Tool>, Error> {
        Err(Error::Option(format!(
            "reading server {server} of {} needs mcp-toolkit-codegen's `config` feature",
            path.display()
        )))
    }

    /// [`Source::tools`] on a runtime of its own, for `build.rs` and the CLI.
    pub fn tools_blocking(&self) -> Result<Vec<Tool>, Error> {
        self.tools_blocking_within(DEFAULT_TIMEOUT)
    }

    /// [`Source::tools_within`] on a runtime of its own.
    pub fn tools_blocking_within(&self, timeout: Duration) -> Result<Vec<Tool>, Error> {
        block_on(self.tools_within(timeout))
    }

    /// [`Source::listing`] on a runtime of its own, for `build.rs` and the CLI.
    pub fn listing_blocking(&self) -> Result<Listing, Error> {
        self.listing_blocking_within(DEFAULT_TIMEOUT)
    }

    /// [`Source::listing_within`] on a runtime of its own.
    pub fn listing_blocking_within(&self, timeout: Duration) -> Result<Listing, Error> {
        block_on(self.listing_within(timeout))
    }
}

/// Runs `future` on a current-thread runtime of its own.
fn block_on<T>(future: impl Future<Output = Result<T, Error>>) -> Result<T, Error> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Client(format!("cannot start a tokio runtime: {e}")))?
        .block_on(future)
}

/// What a connected server lists, by its capabilities: its tools (unless it
/// offers prompts or resources and no tools), its prompts, and its static
/// resources and templates (none when it answers that it has no
/// `resources/templates/list`, as some servers with resources do).
async fn listing_of(client: &Client) -> Result<Listing, ClientError> {
    let capabilities = &client.server().capabilities;
    let (prompts, resources) = (
        capabilities.prompts.is_some(),
        capabilities.resources.is_some(),
    );
    let mut listing = Listing::default();
    if capabilities.tools.is_some() || !(prompts || resources) {
        listing.tools = client.list_tools().await?;
    }
    if prompts {
        listing.prompts = client.list_prompts().await?;
    }
    if resources {
        listing.resources = client.list_resources().await?;
        listing.resource_templates = match client.list_resource_templates().await {
            Err(ClientError::Protocol(e)) if e.code == METHOD_NOT_FOUND => Vec::new(),
            templates => templates?,
        };
    }
    Ok(listing)
}

#[cfg(all(test, not(feature = "config")))]
mod tests {
    use super::*;

    /// Without the `config` feature a configured server is refused, and
    /// the error names the feature (`cargo test -p mcp-toolkit-codegen
    /// --no-default-features --lib` runs this).
    #[test]
    fn a_configured_server_without_the_config_feature_names_it() {
        let source = Source::Config {
            path: "mcp.json".into(),
            server: "weather".into(),
        };
        let error = source.tools_blocking().unwrap_err();
        assert!(error.to_string().contains("`config` feature"), "{error}");
    }
}
