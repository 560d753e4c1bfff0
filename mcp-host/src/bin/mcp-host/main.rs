//! `mcp-host`: the servers of an `mcpServers` configuration behind one
//! command line, or behind one MCP server (`mcp-host serve`, a gateway).
//!
//! Exit status: 0 done, 1 the tool reported an error, 2 usage or arguments
//! invalid against the schema (nothing sent), 3 refused by policy or not
//! confirmed, 4 timed out, 5 server unavailable (for `tools`: every
//! configured server; each one that failed is named on stderr, with why).

use std::io::{BufRead, IsTerminal, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand};
use mcp_toolkit_host::{
    AlwaysAllow, CallOptions, Config, Consent, ConsentRequest, GatewayConsent, GatewayOptions,
    Host, HostError, HostOptions, NeverAllow, OAuthGrant, ServerConfig,
};
use mcp_toolkit_runtime::client::auth::{AuthorizationStep, LoopbackBrowser};
use serde_json::{Map, Value, json};

mod serve;

/// How long servers get to stop after their input closes.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(500);

#[derive(Parser)]
#[command(
    name = "mcp-host",
    version,
    about = "Many MCP servers behind one command line"
)]
struct Cli {
    /// The configuration, in the `mcpServers` format.
    #[arg(long, default_value = ".mcp.json", global = true)]
    config: PathBuf,
    /// Seconds a server may take to start and list its tools.
    #[arg(long, default_value_t = 30.0, global = true)]
    connect_timeout: f64,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Each server, its state and protocol version.
    Servers,
    /// The merged catalogue: every tool as SERVER.TOOL.
    Tools {
        /// One JSON array instead of lines.
        #[arg(long)]
        json: bool,
    },
    /// Calls SERVER.TOOL with key=value arguments (values read as JSON when they parse, else as strings).
    Call {
        /// SERVER.TOOL.
        tool: String,
        /// key=value arguments.
        arguments: Vec<String>,
        /// All arguments as one JSON object (key=value ones are added to it).
        #[arg(long)]
        args: Option<String>,
        /// Seconds without progress before the call is cancelled.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Seconds in all before the call is cancelled, progress or not.
        #[arg(long, default_value_t = 600.0)]
        max_timeout: f64,
        /// Allow a tool with side effects without asking.
        #[arg(long)]
        yes: bool,
    },
    /// Serves every allowed tool as SERVER.TOOL from one MCP server (a gateway), over stdio.
    Serve {
        /// Serve Streamable HTTP at http://ADDR/mcp instead (ADDR is IP:PORT; port 0 picks one). Beyond a loopback address, callers must authenticate.
        #[arg(long, value_name = "ADDR")]
        http: Option<SocketAddr>,
        #[command(flatten)]
        auth: serve::AuthArgs,
        /// Seconds without progress before a call is cancelled.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Seconds in all before a call is cancelled, progress or not.
        #[arg(long, default_value_t = 600.0)]
        max_timeout: f64,
        /// Allow tools with side effects without asking (else the client is asked through elicitation, or the call refused).
        #[arg(long)]
        yes: bool,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    match run(Cli::parse()).await {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("mcp-host: {error}");
            if matches!(&error, HostError::Refused { why, .. } if why.starts_with("not confirmed"))
            {
                eprintln!("mcp-host: pass --yes to allow a tool that may have side effects");
            }
            ExitCode::from(error.exit_code())
        }
    }
}

/// A loopback listener for the browser's redirect, when a server's `oauth`
/// entry has the user authorize.
async fn browser_if_needed(
    config: &Config,
) -> Result<Option<Arc<dyn AuthorizationStep>>, HostError> {
    let needed = config.servers.values().any(|server| {
        matches!(server, ServerConfig::Http { oauth: Some(oauth), .. }
            if oauth.grant == OAuthGrant::AuthorizationCode)
    });
    if !needed {
        return Ok(None);
    }
    let browser = LoopbackBrowser::bind()
        .await
        .map_err(|e| HostError::Usage(format!("cannot listen for the OAuth redirect: {e}")))?;
    Ok(Some(Arc::new(browser)))
}

async fn run(cli: Cli) -> Result<u8, HostError> {
    let config = Config::load(&cli.config)?;
    let host_options = HostOptions {
        connect_timeout: seconds(cli.connect_timeout, "--connect-timeout")?,
        authorization_step: browser_if_needed(&config).await?,
        ..HostOptions::default()
    };
    match cli.command {
        Command::Servers => {
            let host = Host::start(config, host_options).await;
            let servers = host.servers();
            host.shutdown(SHUTDOWN_GRACE).await;
            for server in servers {
                match server.state {
                    Ok(version) => {
                        println!("{}\tready\t{version}\t{} tools", server.name, server.tools)
                    }
                    Err(why) => println!("{}\tfailed\t{why}", server.name),
                }
            }
            Ok(0)
        }
        Command::Tools { json } => {
            let host = Host::start(config, host_options).await;
            let tools = host.tools();
            let servers = host.servers();
            host.shutdown(SHUTDOWN_GRACE).await;
            let failed = report_failures(&servers);
            if !servers.is_empty() && failed == servers.len() {
                let names: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
                return Err(HostError::Unavailable {
                    server: names.join(", "),
                    why: "no configured server could be used".into(),
                });
            }
            if json {
                let list: Vec<Value> = tools
                    .iter()
                    .map(|entry| {
                        json!({
                            "name": entry.name(),
                            "server": entry.server,
                            "tool": entry.tool.name,
                            "description": entry.tool.description,
                            "annotations": entry.tool.annotations,
                        })
                    })
                    .collect();
                println!(
                    "{}",
                    serde_json::to_string_pretty(&list).unwrap_or_default()
                );
            } else {
                for entry in tools {
                    let hints = entry.tool.annotations.as_ref();
                    let mut flags = Vec::new();
                    if hints.and_then(|a| a.read_only_hint) == Some(true) {
                        flags.push("read-only");
                    }
                    if hints.and_then(|a| a.destructive_hint) == Some(true) {
                        flags.push("destructive");
                    }
                    let flags = if flags.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", flags.join(", "))
                    };
                    let description = entry.tool.description.as_deref().unwrap_or("");
                    let first_line = description.lines().next().unwrap_or("");
                    println!("{}{flags}\t{first_line}", entry.name());
                }
            }
            Ok(0)
        }
        Command::Serve {
            http,
            auth,
            timeout,
            max_timeout,
            yes,
        } => {
            init_logging();
            let options = GatewayOptions {
                consent: if yes {
                    GatewayConsent::AllowAll
                } else {
                    GatewayConsent::AskClient
                },
                timeout: seconds(timeout, "--timeout")?,
                max_timeout: seconds(max_timeout, "--max-timeout")?,
                ..GatewayOptions::default()
            };
            let transport = serve::transport(http, &auth).await?;
            let host_options = HostOptions {
                withheld_env: auth.secret_vars(),
                ..host_options
            };
            let host = Host::start(config, host_options).await;
            serve::serve(host, transport, options, SHUTDOWN_GRACE).await
        }
        Command::Call {
            tool,
            arguments,
            args,
            timeout,
            max_timeout,
            yes,
        } => {
            let arguments = parse_arguments(args.as_deref(), &arguments)?;
            let server = tool
                .split_once('.')
                .map(|(s, _)| s.to_owned())
                .unwrap_or_default();
            let host = Host::start_only(config, &[server], host_options).await;
            let consent: Box<dyn Consent> = if yes {
                Box::new(AlwaysAllow)
            } else if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
                Box::new(Terminal)
            } else {
                Box::new(NeverAllow)
            };
            let options = CallOptions {
                timeout: seconds(timeout, "--timeout")?,
                max_timeout: seconds(max_timeout, "--max-timeout")?,
                consent: consent.as_ref(),
                on_progress: None,
            };
            let outcome = host.call(&tool, arguments, &options).await;
            // A call given up on is cancelled at the server, and the
            // servers stopped politely, before we exit.
            host.shutdown(SHUTDOWN_GRACE).await;
            let outcome = outcome?;
            let result = &outcome.result;
            match (&result.structured_content, result.is_error.unwrap_or(false)) {
                (Some(content), false) => {
                    println!(
                        "{}",
                        serde_json::to_string_pretty(content).unwrap_or_default()
                    );
                }
                _ => {
                    let texts: Vec<&str> =
                        result.content.iter().filter_map(|b| b.as_text()).collect();
                    println!("{}", texts.join("\n"));
                }
            }
            Ok(if result.is_error.unwrap_or(false) {
                1
            } else {
                0
            })
        }
    }
}

/// Says on stderr why each server that failed is unavailable; returns how
/// many failed. The catalogue on stdout leaves their tools out.
fn report_failures(servers: &[mcp_toolkit_host::ServerStatus]) -> usize {
    let mut failed = 0;
    for server in servers {
        if let Err(why) = &server.state {
            eprintln!("mcp-host: server {}: {why}", server.name);
            failed += 1;
        }
    }
    failed
}

/// `tracing` to stderr (stdout may be the gateway's stdio transport),
/// filtered by `RUST_LOG` (default `warn`; `mcp_toolkit_host::audit=info` shows
/// every call). `RUST_LOG` takes levels and `target=level` pairs
/// (`Targets`' syntax, which needs no regex engine).
fn init_logging() {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = std::env::var("RUST_LOG")
        .ok()
        .and_then(|directives| directives.parse::<Targets>().ok())
        .unwrap_or_else(|| Targets::new().with_default(LevelFilter::WARN));
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .finish()
        .with(filter)
        .init();
}

fn seconds(value: f64, flag: &str) -> Result<Duration, HostError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| HostError::Usage(format!("{flag} takes a positive number of seconds")))
}

/// `--args` and `key=value` pairs as one JSON object.
fn parse_arguments(args: Option<&str>, pairs: &[String]) -> Result<Value, HostError> {
    let mut object = match args {
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(object)) => object,
            _ => return Err(HostError::Usage("--args takes a JSON object".into())),
        },
        None => Map::new(),
    };
    for pair in pairs {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| HostError::Usage(format!("`{pair}` is not key=value")))?;
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
        object.insert(key.to_owned(), value);
    }
    Ok(Value::Object(object))
}

/// Asks on the terminal.
struct Terminal;

impl Consent for Terminal {
    fn confirm<'a>(
        &'a self,
        request: &'a ConsentRequest,
    ) -> Pin<Box<dyn std::future::Future<Output = bool> + Send + 'a>> {
        let prompt = format!(
            "{}.{} may have side effects ({}).\narguments: {}\nAllow? [y/N] ",
            request.server, request.tool, request.reason, request.arguments
        );
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut stderr = std::io::stderr();
                let _ = write!(stderr, "{prompt}");
                let _ = stderr.flush();
                let mut answer = String::new();
                let _ = std::io::stdin().lock().read_line(&mut answer);
                matches!(answer.trim(), "y" | "Y" | "yes")
            })
            .await
            .unwrap_or(false)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_value_arguments_are_json_when_they_parse() {
        let args = parse_arguments(
            Some(r#"{"x": 1}"#),
            &["a=2".into(), "b=two".into(), "c={\"d\":true}".into()],
        )
        .unwrap();
        assert_eq!(args, json!({"x": 1, "a": 2, "b": "two", "c": {"d": true}}));
        assert!(parse_arguments(None, &["novalue".into()]).is_err());
        assert!(parse_arguments(Some("[1]"), &[]).is_err());
    }
}
