//! `mcp-codegen`: generate a typed Rust client from an MCP server's tools,
//! or check a generated client against a server for drift.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use mcp_codegen::{Options, Source, Visibility};

#[derive(Parser)]
#[command(
    name = "mcp-codegen",
    version,
    about = "Typed Rust clients from an MCP server's tools/list"
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
        #[arg(long, default_value = "::mcp_runtime")]
        runtime_path: String,
        /// Emit only the argument and output types, no client.
        #[arg(long)]
        types_only: bool,
    },
    /// Compare a server's tools with a generated file; exit 1 on breaking changes.
    Check {
        #[command(flatten)]
        source: SourceArgs,
        /// The generated file.
        #[arg(long)]
        against: PathBuf,
    },
}

#[derive(Args)]
#[group(required = true, multiple = false)]
struct SourceArgs {
    /// A saved tools/list result or JSON-RPC response.
    #[arg(long)]
    from: Option<PathBuf>,
    /// A command starting a stdio server, e.g. "npx -y @modelcontextprotocol/server-everything".
    #[arg(long)]
    stdio: Option<String>,
    /// A Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp.
    #[arg(long)]
    url: Option<String>,
}

impl SourceArgs {
    fn source(self) -> Result<Source, mcp_codegen::Error> {
        match (self.from, self.stdio, self.url) {
            (Some(path), _, _) => Ok(Source::File(path)),
            (_, Some(command), _) => Ok(Source::Stdio(command)),
            (_, _, Some(url)) => Ok(Source::Url(url)),
            _ => Err(mcp_codegen::Error::Option(
                "give one of --from, --stdio or --url".into(),
            )),
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, mcp_codegen::Error> {
    match cli.command {
        Command::Generate {
            source,
            output,
            client_name,
            visibility,
            runtime_path,
            types_only,
        } => {
            let options = Options {
                client_name,
                visibility: visibility.parse::<Visibility>()?,
                runtime_path,
                emit_client: !types_only,
                ..Options::default()
            };
            let source = source.source()?;
            match output {
                Some(path) => {
                    let generated = mcp_codegen::generate_to(&source, &path, &options)?;
                    eprintln!("wrote {} ({} tools)", path.display(), generated.tools.len());
                }
                None => print!(
                    "{}",
                    mcp_codegen::generate(&source.tools_blocking()?, &options)?.code
                ),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { source, against } => {
            let report = mcp_codegen::check(&source.source()?, &against)?;
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
