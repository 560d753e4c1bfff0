//! `mcp-codegen`: generate a typed Rust client from an MCP server's tools,
//! or check a generated client against a server for drift.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use mcp_toolkit_codegen::{Derives, Options, Source, Visibility};

#[derive(Parser)]
#[command(
    name = "mcp-codegen",
    version,
    about = "Typed Rust clients from an MCP server's tools, prompts and resources"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a Rust module with a typed client.
    Generate {
        #[command(flatten)]
        source: SourceArgs,
        #[command(flatten)]
        http: ConnectArgs,
        /// Output file (standard output when absent).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Name of the generated client type.
        #[arg(long, default_value = "McpClient")]
        client_name: String,
        /// Visibility of generated items: pub, pub(crate) or private.
        #[arg(long, default_value = "pub")]
        visibility: String,
        /// Path of the runtime crate in generated code.
        #[arg(long, default_value = "::mcp_toolkit_runtime")]
        runtime_path: String,
        /// Emit only the argument and output types, no client (every type then gets both serde
        /// directions). Their code needs mcp-toolkit-runtime's `codegen` feature (part of `client`).
        #[arg(long)]
        types_only: bool,
        /// Generate only these tools (comma-separated names), e.g. --tools read_file,search.
        /// `check` then reports the server's other tools as new, which is not breaking.
        #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
        tools: Option<Vec<String>>,
        /// Traits the types implement: `client` (what a client uses: Serialize on argument
        /// types, Deserialize on output types, Debug and Clone on all; compiles fastest) or
        /// `all` (both serde directions and PartialEq on every type, e.g. for a server, a
        /// test double, or comparing values).
        #[arg(long, value_name = "client|all", default_value = "client")]
        derives: String,
    },
    /// Compare a server's tools, prompts and resource templates with a generated file; exit 1
    /// on breaking changes.
    Check {
        #[command(flatten)]
        source: SourceArgs,
        #[command(flatten)]
        http: ConnectArgs,
        /// The generated file.
        #[arg(long)]
        against: PathBuf,
    },
}

#[derive(Args)]
#[group(required = true, multiple = false)]
struct SourceArgs {
    /// A saved tools/list result or JSON-RPC response (with "prompts", "resources" and
    /// "resourceTemplates" beside "tools" for those).
    #[arg(long)]
    from: Option<PathBuf>,
    /// A command starting a stdio server, e.g. "npx -y @modelcontextprotocol/server-everything".
    #[arg(long)]
    stdio: Option<String>,
    /// A Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp or https://mcp.example.com/mcp.
    /// https:// trusts the system's root certificates plus SSL_CERT_FILE and SSL_CERT_DIR.
    #[arg(long)]
    url: Option<String>,
    /// A host configuration in the mcpServers format (with --server NAME), e.g. .mcp.json.
    #[arg(long, requires = "server")]
    config: Option<PathBuf>,
}

/// How to reach the server: options of `--url`, `--config` and all sources.
#[derive(Args)]
struct ConnectArgs {
    /// A header sent with every request, as `Name: value` (repeatable), e.g. an API key.
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url")]
    header: Vec<String>,
    /// Send `Authorization: Bearer <token>` with the token read from this environment
    /// variable (kept off the command line, where other users could read it).
    #[arg(long, value_name = "VAR", requires = "url")]
    bearer_env: Option<String>,
    /// Authorize with OAuth 2.1 when the server asks for it: prints (and opens) the
    /// authorization URL and waits for the redirect on a loopback port.
    #[arg(long, requires = "url")]
    oauth: bool,
    /// The server of --config to read.
    #[arg(long, requires = "config")]
    server: Option<String>,
    /// Seconds a server gets to connect, and again to list its tools (with --oauth the
    /// user gets at least five minutes to approve).
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    timeout: f64,
}

impl ConnectArgs {
    /// `--timeout` as a duration.
    fn timeout(&self) -> Result<Duration, mcp_toolkit_codegen::Error> {
        Duration::try_from_secs_f64(self.timeout)
            .ok()
            .filter(|timeout| !timeout.is_zero())
            .ok_or_else(|| {
                mcp_toolkit_codegen::Error::Option(format!(
                    "--timeout takes a positive number of seconds, not {}",
                    self.timeout
                ))
            })
    }
}

impl SourceArgs {
    fn source(self, http: ConnectArgs) -> Result<Source, mcp_toolkit_codegen::Error> {
        if let (Some(path), Some(server)) = (self.config, http.server) {
            return Ok(Source::Config { path, server });
        }
        match (self.from, self.stdio, self.url) {
            (Some(path), _, _) => Ok(Source::File(path)),
            (_, Some(command), _) => Ok(Source::Stdio(command)),
            (_, _, Some(url)) => {
                let mut headers = Vec::new();
                for header in http.header {
                    let (name, value) = header.split_once(':').ok_or_else(|| {
                        mcp_toolkit_codegen::Error::Option(format!(
                            "--header takes `Name: value`, not `{header}`"
                        ))
                    })?;
                    headers.push((name.trim().to_owned(), value.trim().to_owned()));
                }
                if let Some(var) = http.bearer_env {
                    let token = std::env::var(&var).map_err(|_| {
                        mcp_toolkit_codegen::Error::Option(format!(
                            "--bearer-env {var}: the environment variable is not set"
                        ))
                    })?;
                    headers.push((
                        "Authorization".to_owned(),
                        format!("Bearer {}", token.trim()),
                    ));
                }
                Ok(Source::Url {
                    url,
                    headers,
                    oauth: http.oauth,
                })
            }
            _ => Err(mcp_toolkit_codegen::Error::Option(
                "give one of --from, --stdio, --url or --config".into(),
            )),
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, mcp_toolkit_codegen::Error> {
    match cli.command {
        Command::Generate {
            source,
            http,
            output,
            client_name,
            visibility,
            runtime_path,
            types_only,
            tools: only,
            derives,
        } => {
            let options = Options {
                client_name,
                visibility: visibility.parse::<Visibility>()?,
                runtime_path,
                emit_client: !types_only,
                only,
                derives: derives.parse::<Derives>()?,
                ..Options::default()
            };
            let timeout = http.timeout()?;
            let listing = source.source(http)?.listing_blocking_within(timeout)?;
            let generated = mcp_toolkit_codegen::generate_listing(&listing, &options)?;
            for note in &generated.notes {
                eprintln!("not generated: {note}");
            }
            match output {
                Some(path) => {
                    let generated = mcp_toolkit_codegen::write_if_changed(generated, &path)?;
                    eprintln!(
                        "wrote {} ({} tools, {} prompts, {} resource templates)",
                        path.display(),
                        generated.tools.len(),
                        generated.prompts.len(),
                        generated.resource_templates.len()
                    );
                }
                None => print!("{}", generated.code),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            source,
            http,
            against,
        } => {
            let timeout = http.timeout()?;
            let listing = source.source(http)?.listing_blocking_within(timeout)?;
            let report = mcp_toolkit_codegen::check_listing(&listing, &against)?;
            for change in &report.changes {
                println!("{change}");
            }
            if report.is_breaking() {
                println!("breaking: regenerate {}", against.display());
                Ok(ExitCode::from(1))
            } else {
                println!("compatible ({} changes)", report.changes.len());
                Ok(ExitCode::SUCCESS)
            }
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mcp-codegen: {e}");
            ExitCode::from(2)
        }
    }
}
