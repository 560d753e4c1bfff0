//! The main job, end to end: serve annotated tools, generate a typed client
//! from the live server, and call the server through it.
//!
//! 1. Starts `echo-server` (tools written with `#[mcp_tool]`) on Streamable
//!    HTTP at 127.0.0.1 on a free port.
//! 2. Runs `mcp-codegen generate --url` against it and compares the result
//!    with the client committed in `examples/src/echo_client.rs`, which
//!    this crate compiles, so a schema change shows up as a diff.
//! 3. Connects that typed client, checks the schema fingerprints, and calls
//!    `echo` and `add`: a wrong argument type would not compile.
//!
//! Run: `cargo build -p mcp-examples -p mcp-toolkit-codegen --features mcp-examples/full && cargo run -p mcp-examples --features full --bin demo`.
//! It takes no arguments, and refuses any.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mcp_examples::Example;
use mcp_examples::echo_client::{AddArgs, EchoArgs, EchoClient};
use mcp_toolkit_runtime::client::Client;

/// Kills the server when the demo ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A binary built next to this one.
fn sibling(name: &str) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let path = std::env::current_exe()?.with_file_name(name);
    if !path.exists() {
        return Err(format!(
            "{} is not built; run `cargo build -p mcp-examples -p mcp-toolkit-codegen --features mcp-examples/full` first",
            path.display()
        )
        .into());
    }
    Ok(path)
}

/// Starts echo-server over HTTP and returns it with its endpoint URL.
fn start_server() -> Result<(Running, String), Box<dyn std::error::Error>> {
    let mut child = Command::new(sibling("echo-server")?)
        .args(["--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    let server = Running(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(url) = line.strip_prefix("listening on ") {
                let _ = tx.send(url.trim().to_owned());
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(30))
        .map_err(|_| "echo-server did not start")?;
    Ok((server, url))
}

/// The demo chooses everything itself: it takes none of the shared options.
const EXAMPLE: Example = Example {
    name: env!("CARGO_BIN_NAME"),
    flags: &[],
};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    EXAMPLE.command_line()?;
    let (_server, url) = start_server()?;
    println!("1. echo-server serves its #[mcp_tool] functions at {url}");

    let generated = std::env::temp_dir().join(format!("echo_client_{}.rs", std::process::id()));
    let output = Command::new(sibling("mcp-codegen")?)
        .args([
            "generate",
            "--url",
            &url,
            "--client-name",
            "EchoClient",
            "-o",
        ])
        .arg(&generated)
        .output()?;
    if !output.status.success() {
        let why = String::from_utf8_lossy(&output.stderr);
        return Err(format!("mcp-codegen generate failed: {why}").into());
    }
    let fresh = std::fs::read_to_string(&generated)?;
    let _ = std::fs::remove_file(&generated);
    let committed = include_str!("../echo_client.rs");
    if fresh == committed {
        println!(
            "2. mcp-codegen generated a typed client identical to examples/src/echo_client.rs"
        );
    } else {
        println!(
            "2. the server's tools changed: regenerate examples/src/echo_client.rs with\n   \
             mcp-codegen generate --url {url} --client-name EchoClient -o examples/src/echo_client.rs"
        );
    }

    let client = EchoClient::new(Client::connect_http(&url).await?);
    client.verify().await?;
    let era = client.inner().server().protocol_version.clone();
    println!("3. connected over protocol {era}; the schema fingerprints match");
    let echoed = client
        .echo(&EchoArgs {
            text: "hello, typed world".into(),
        })
        .await?;
    println!(
        "   echo(\"hello, typed world\") -> {:?}",
        echoed[0].as_text().unwrap_or_default()
    );
    let sum = client.add(&AddArgs { a: 2, b: 40 }).await?;
    println!("   add(2, 40) -> {{ sum: {} }}", sum.sum);
    Ok(())
}
