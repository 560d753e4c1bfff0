//! The command line the example servers share, and the rule that keeps it
//! honest: each binary names the options it acts on ([`Example`]), and any
//! other shared option is refused at startup rather than silently ignored.
//! What a named option does is applied here, in [`CommandLine::serve`], so
//! naming one is acting on it.

use std::net::SocketAddr;
use std::path::PathBuf;

use mcp_toolkit_runtime::server::{Server, ServerBuilder, StateKey};

/// The environment variable that may carry the request state key.
pub const STATE_KEY_ENV: &str = "MCP_STATE_KEY";

/// An option of the shared command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// `--http ADDR`: serve Streamable HTTP at `http://ADDR/mcp` (ADDR is
    /// `IP:PORT`, or a bare port for `127.0.0.1:PORT`; port 0 picks a free
    /// one) instead of stdio. (The `http` feature.)
    Http,
    /// `--state-key-file PATH`: seal the `requestState` of multi-round-trip
    /// requests with the key in PATH (64 hex digits, surrounding whitespace
    /// ignored), so that any instance sharing the key can take the next
    /// round. [`STATE_KEY_ENV`] does the same; the flag wins. Without
    /// either, each process makes up a random key.
    StateKeyFile,
    /// `--auth-issuer ISSUER_URL [--resource URL]`: with `--http`, accept
    /// only JWT access tokens from that issuer (`https://`, or `http://` on
    /// loopback); `--resource` names the server's canonical URL, the
    /// tokens' audience (default: `http://ADDR/mcp` as bound). (The `jwt`
    /// feature.)
    AuthIssuer,
    /// `--mount PREFIX=URL` (repeatable): serve the tools and prompts of the
    /// server at the Streamable HTTP `URL` as `PREFIX_NAME`. (The `client`
    /// feature.)
    Mount,
    /// `--redis-url URL`: share tasks and list-change announcements with
    /// the other instances through Redis or Valkey (`redis://HOST:PORT/`).
    /// (The `redis` feature.)
    RedisUrl,
}

impl Flag {
    /// The option an argument spells; `--resource` belongs to
    /// [`Flag::AuthIssuer`].
    fn spelled(arg: &str) -> Option<Flag> {
        Some(match arg {
            "--http" => Flag::Http,
            "--state-key-file" => Flag::StateKeyFile,
            "--auth-issuer" | "--resource" => Flag::AuthIssuer,
            "--mount" => Flag::Mount,
            "--redis-url" => Flag::RedisUrl,
            _ => return None,
        })
    }

    /// How a usage line shows it.
    fn usage(self) -> &'static str {
        match self {
            Flag::Http => "[--http IP:PORT | --http PORT]",
            Flag::StateKeyFile => "[--state-key-file PATH]",
            Flag::AuthIssuer => "[--auth-issuer ISSUER_URL [--resource URL]]",
            Flag::Mount => "[--mount PREFIX=URL]...",
            Flag::RedisUrl => "[--redis-url URL]",
        }
    }
}

/// An example binary: its name, for messages, and the shared options it
/// acts on.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The binary's name (`env!("CARGO_BIN_NAME")`).
    pub name: &'static str,
    /// The options it takes; [`command_line`](Self::command_line) refuses
    /// every other.
    pub flags: &'static [Flag],
}

impl Example {
    /// This process's arguments, refusing any shared option this example
    /// does not take (naming it and why), unknown arguments, and options
    /// that need another one.
    pub fn command_line(&self) -> Result<CommandLine, String> {
        self.parse(std::env::args().skip(1))
    }

    /// Reads `args` as [`command_line`](Self::command_line) does.
    fn parse(&self, mut args: impl Iterator<Item = String>) -> Result<CommandLine, String> {
        let mut parsed = CommandLine::default();
        while let Some(arg) = args.next() {
            let flag = Flag::spelled(&arg)
                .ok_or_else(|| format!("unknown argument `{arg}`; {}", self.usage()))?;
            if !self.flags.contains(&flag) {
                return Err(format!(
                    "{} does not act on `{arg}`, so it refuses it rather than ignore it; {}",
                    self.name,
                    self.usage()
                ));
            }
            let value = args
                .next()
                .ok_or_else(|| format!("`{arg}` needs a value; {}", self.usage()))?;
            match flag {
                Flag::Http => {
                    parsed.http = Some(http_addr(&value).map_err(|e| self.with_usage(e))?)
                }
                Flag::StateKeyFile => parsed.state_key_file = Some(value.into()),
                Flag::AuthIssuer if arg == "--resource" => parsed.resource = Some(value),
                Flag::AuthIssuer => parsed.auth_issuer = Some(value),
                Flag::RedisUrl => parsed.redis_url = Some(value),
                Flag::Mount => {
                    let (prefix, url) = value
                        .split_once('=')
                        .ok_or_else(|| self.with_usage("--mount takes PREFIX=URL".into()))?;
                    parsed.mounts.push((prefix.to_owned(), url.to_owned()));
                }
            }
        }
        if parsed.resource.is_some() && parsed.auth_issuer.is_none() {
            return Err(self.with_usage("--resource needs --auth-issuer".into()));
        }
        if parsed.auth_issuer.is_some() && parsed.http.is_none() {
            return Err(self.with_usage(
                "--auth-issuer needs --http: a stdio server takes credentials from its \
                 environment"
                    .into(),
            ));
        }
        parsed.state_key_env = self.flags.contains(&Flag::StateKeyFile);
        Ok(parsed)
    }

    /// `usage: NAME [OPTION]...` with the options this example takes.
    fn usage(&self) -> String {
        let options: Vec<&str> = self.flags.iter().map(|flag| flag.usage()).collect();
        format!("usage: {} {}", self.name, options.join(" "))
            .trim_end()
            .to_owned()
    }

    fn with_usage(&self, message: String) -> String {
        format!("{message}; {}", self.usage())
    }
}

/// What the command line asks of a server; only [`Example::command_line`]
/// makes one, so it holds only options the example takes.
#[derive(Debug, Default)]
pub struct CommandLine {
    http: Option<SocketAddr>,
    state_key_file: Option<PathBuf>,
    /// Whether [`STATE_KEY_ENV`] is read (the example takes a state key).
    state_key_env: bool,
    auth_issuer: Option<String>,
    resource: Option<String>,
    mounts: Vec<(String, String)>,
    redis_url: Option<String>,
}

impl CommandLine {
    /// Builds `builder` with what the command line asks (the request state
    /// key, the binary's other options kept; shared state; mounted servers)
    /// and serves it: Streamable HTTP with `--http ADDR` until Ctrl-C,
    /// printing `listening on http://IP:PORT/mcp` to stderr once bound;
    /// stdio otherwise.
    pub async fn serve(self, builder: ServerBuilder) -> Result<(), Box<dyn std::error::Error>> {
        let server = self.server(builder).await?;
        match self.http {
            Some(addr) => serve_http(server, addr, &self).await,
            None => Ok(server.serve_stdio().await?),
        }
    }

    /// `builder` with what the command line asks, built.
    async fn server(&self, builder: ServerBuilder) -> Result<Server, Box<dyn std::error::Error>> {
        let mut builder = match self.state_key()? {
            Some(key) => builder.request_state_key(key),
            None => builder,
        };
        if let Some(url) = &self.redis_url {
            builder = shared_state(builder, url)?;
        }
        Ok(mount(builder, &self.mounts).await?.build()?)
    }

    /// The key from `--state-key-file`, else from [`STATE_KEY_ENV`].
    fn state_key(&self) -> Result<Option<StateKey>, String> {
        let text = match &self.state_key_file {
            Some(path) => Some(
                std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            ),
            None if self.state_key_env => std::env::var(STATE_KEY_ENV).ok(),
            None => None,
        };
        text.as_deref().map(parse_state_key).transpose()
    }
}

/// `builder` sharing its state through the Redis server at `url`.
#[cfg(feature = "redis")]
fn shared_state(
    builder: ServerBuilder,
    url: &str,
) -> Result<ServerBuilder, Box<dyn std::error::Error>> {
    Ok(builder.shared_state(mcp_toolkit_runtime::server::SharedState::redis(url)?))
}

/// Without the `redis` feature there is no store to share state through.
#[cfg(not(feature = "redis"))]
fn shared_state(
    _builder: ServerBuilder,
    _url: &str,
) -> Result<ServerBuilder, Box<dyn std::error::Error>> {
    Err("--redis-url needs the examples built with the `redis` feature".into())
}

/// Adds what every `--mount PREFIX=URL` names to `builder`: the server at
/// the Streamable HTTP `URL`, its tools and prompts as `PREFIX_NAME`
/// (see `mcp_toolkit_runtime::client::Client::mount`).
#[cfg(feature = "client")]
async fn mount(
    mut builder: ServerBuilder,
    mounts: &[(String, String)],
) -> Result<ServerBuilder, Box<dyn std::error::Error>> {
    for (prefix, url) in mounts {
        let upstream = mcp_toolkit_runtime::client::Client::connect_http(url)
            .await
            .map_err(|e| {
                format!(
                    "cannot mount {}: {e}",
                    mcp_toolkit_runtime::redact::RedactedUrl::new(url)
                )
            })?;
        builder = builder.register(upstream.mount(prefix).await?);
    }
    Ok(builder)
}

/// Without the `client` feature there is nothing to reach a server with.
#[cfg(not(feature = "client"))]
async fn mount(
    builder: ServerBuilder,
    mounts: &[(String, String)],
) -> Result<ServerBuilder, Box<dyn std::error::Error>> {
    match mounts.is_empty() {
        true => Ok(builder),
        false => Err("--mount needs the examples built with the `client` feature".into()),
    }
}

/// Streamable HTTP at `http://ADDR/mcp` until Ctrl-C.
#[cfg(feature = "http")]
async fn serve_http(
    server: Server,
    addr: SocketAddr,
    command_line: &CommandLine,
) -> Result<(), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let mut config = mcp_toolkit_runtime::transport::HttpConfig::default();
    let url = format!("http://{}{}", listener.local_addr()?, config.path);
    if let Some(issuer) = &command_line.auth_issuer {
        let resource = command_line.resource.clone().unwrap_or_else(|| url.clone());
        config.auth = Some(jwt_auth(&resource, issuer)?);
        eprintln!(
            "protected resource {}; tokens from {}",
            mcp_toolkit_runtime::redact::RedactedUrl::new(&resource),
            mcp_toolkit_runtime::redact::RedactedUrl::new(issuer)
        );
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
    _server: Server,
    _addr: SocketAddr,
    _command_line: &CommandLine,
) -> Result<(), Box<dyn std::error::Error>> {
    Err("--http needs the examples built with the `http` feature".into())
}

/// Authorization by JWT access tokens from `issuer`, for `resource`.
#[cfg(all(feature = "http", feature = "jwt"))]
fn jwt_auth(
    resource: &str,
    issuer: &str,
) -> Result<mcp_toolkit_runtime::server::auth::AuthConfig, Box<dyn std::error::Error>> {
    Ok(mcp_toolkit_runtime::server::auth::AuthConfig::jwt(
        resource, issuer,
    )?)
}

/// Without the `jwt` feature there is no verifier to check tokens with.
#[cfg(all(feature = "http", not(feature = "jwt")))]
fn jwt_auth(
    _resource: &str,
    _issuer: &str,
) -> Result<mcp_toolkit_runtime::server::auth::AuthConfig, Box<dyn std::error::Error>> {
    Err("--auth-issuer needs the examples built with the `jwt` feature".into())
}

/// `IP:PORT`, or a bare port on 127.0.0.1.
fn http_addr(value: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = value.parse::<u16>() {
        return Ok((std::net::Ipv4Addr::LOCALHOST, port).into());
    }
    value
        .parse()
        .map_err(|e| format!("`{value}` is not IP:PORT ({e})"))
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
    use super::{CommandLine, Example, Flag, parse_state_key};

    const EVERY: Example = Example {
        name: "every",
        flags: &[
            Flag::Http,
            Flag::StateKeyFile,
            Flag::AuthIssuer,
            Flag::Mount,
            Flag::RedisUrl,
        ],
    };

    fn parse(example: Example, args: &[&str]) -> Result<CommandLine, String> {
        example.parse(args.iter().map(|s| s.to_string()))
    }

    /// A state key from the command line joins the options the binary set
    /// instead of replacing them: a page size of one still pages.
    #[tokio::test]
    async fn a_state_key_keeps_the_binarys_other_options() {
        use mcp_toolkit_runtime::protocol::CallToolResult;
        use mcp_toolkit_runtime::server::{Server, ServerOptions, ToolCall, ToolDef};
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("state.key");
        std::fs::write(&key, "5eed".repeat(16)).unwrap();
        let command_line = parse(EVERY, &["--state-key-file", key.to_str().unwrap()]).unwrap();
        let tool =
            |name: &str| ToolDef::new(name, |_: ToolCall| async { Ok(CallToolResult::text("")) });
        let builder = Server::builder(mcp_toolkit_runtime::server_info!())
            .options(ServerOptions {
                page_size: 1,
                ..ServerOptions::default()
            })
            .tool(tool("a"))
            .tool(tool("b"));
        let server = command_line.server(builder).await.unwrap();

        let (client, server_io) = tokio::io::duplex(1 << 16);
        let (input, output) = tokio::io::split(server_io);
        let config = mcp_toolkit_runtime::transport::StdioConfig::default();
        tokio::spawn(server.serve_io(input, output, config));
        let (reader, mut writer) = tokio::io::split(client);
        let list = serde_json::json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/list",
            "params": {"_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"}
            }}
        });
        writer
            .write_all(format!("{list}\n").as_bytes())
            .await
            .unwrap();
        let mut line = String::new();
        let mut reader = tokio::io::BufReader::new(reader);
        tokio::time::timeout(
            std::time::Duration::from_secs(10),
            reader.read_line(&mut line),
        )
        .await
        .expect("an answer in time")
        .unwrap();
        let reply: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            reply["result"]["tools"].as_array().map(Vec::len),
            Some(1),
            "{reply}"
        );
        assert!(reply["result"]["nextCursor"].is_string(), "{reply}");
    }

    #[test]
    fn http_flag() {
        let http = |args: &[&str]| parse(EVERY, args).map(|a| a.http.map(|a| a.to_string()));
        assert_eq!(http(&[]), Ok(None));
        assert_eq!(http(&["--http", "8080"]), Ok(Some("127.0.0.1:8080".into())));
        assert_eq!(http(&["--http", "0.0.0.0:1"]), Ok(Some("0.0.0.0:1".into())));
        assert!(parse(EVERY, &["--http"]).is_err());
        assert!(parse(EVERY, &["--http", "localhost"]).is_err());
        assert!(parse(EVERY, &["--stdio"]).is_err());
    }

    #[test]
    fn state_key_flag() {
        let args = parse(EVERY, &["--state-key-file", "/k", "--http", "1"]).unwrap();
        assert_eq!(args.state_key_file, Some("/k".into()));
        assert!(args.http.is_some());
        assert!(parse_state_key(&format!("{}\n", "ab".repeat(32))).is_ok());
        assert!(parse_state_key("abcd").is_err());
        assert!(parse_state_key(&"zz".repeat(32)).is_err());
    }

    #[test]
    fn auth_flags_need_their_partners() {
        let auth = ["--auth-issuer", "https://issuer.example"];
        assert!(parse(EVERY, &auth).unwrap_err().contains("needs --http"));
        assert!(parse(EVERY, &[&auth[..], &["--http", "0"]].concat()).is_ok());
        let resource = ["--http", "0", "--resource", "http://127.0.0.1/mcp"];
        assert!(
            parse(EVERY, &resource)
                .unwrap_err()
                .contains("needs --auth-issuer")
        );
    }

    /// A flag the example does not name is refused, before its value is
    /// even read, with a message naming the flag and the example.
    #[test]
    fn options_an_example_does_not_take_are_refused() {
        let http_only = Example {
            name: "http-only",
            flags: &[Flag::Http],
        };
        assert!(parse(http_only, &["--http", "0"]).is_ok());
        for flag in [
            "--state-key-file",
            "--auth-issuer",
            "--resource",
            "--mount",
            "--redis-url",
        ] {
            let error = parse(http_only, &["--http", "0", flag]).unwrap_err();
            assert!(
                error.starts_with(&format!("http-only does not act on `{flag}`")),
                "{error}"
            );
            assert!(
                error.ends_with("usage: http-only [--http IP:PORT | --http PORT]"),
                "{error}"
            );
        }
        let none = Example {
            name: "none",
            flags: &[],
        };
        assert!(parse(none, &[]).is_ok());
        assert!(
            parse(none, &["--http", "0"])
                .unwrap_err()
                .contains("none does not act on")
        );
        assert!(
            parse(none, &["extra"])
                .unwrap_err()
                .starts_with("unknown argument `extra`")
        );
    }

    /// [`STATE_KEY_ENV`](super::STATE_KEY_ENV) is read only by an example
    /// that takes a state key.
    #[test]
    fn the_state_key_variable_follows_the_flag() {
        assert!(parse(EVERY, &[]).unwrap().state_key_env);
        let http_only = Example {
            name: "http-only",
            flags: &[Flag::Http],
        };
        assert!(!parse(http_only, &[]).unwrap().state_key_env);
    }
}
