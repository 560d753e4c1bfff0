//! The Host: many MCP servers behind one catalogue, with a policy and the
//! user's consent before calls, using the `mcp-host` library.
//!
//! The configuration is the `mcpServers` format of Claude Desktop, Cursor
//! and VS Code (normally `.mcp.json`; parsed from a string here), plus a
//! `policy`. It names this package's `echo-server` and `notes-server`
//! binaries and one server that cannot start: that one is reported failed
//! and the others keep working.
//!
//! Prerequisite: the two server binaries, built next to this example by
//! `cargo build -p mcp-examples`.
//!
//! Run: `cargo build -q -p mcp-examples && cargo run -q -p mcp-examples --example host`.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use mcp_toolkit_host::{CallOptions, Config, Consent, ConsentRequest, Host, HostOptions};
use serde_json::json;

/// The user's answer to "may this tool run?": here, yes for the notes
/// server and no for anything else. A real host shows a dialog.
struct NotesOnly;

impl Consent for NotesOnly {
    fn confirm<'a>(
        &'a self,
        request: &'a ConsentRequest,
    ) -> Pin<Box<dyn Future<Output = bool> + Send + 'a>> {
        let yes = request.server == "notes";
        println!(
            "  consent asked for {}.{} ({}): {}",
            request.server,
            request.tool,
            request.reason,
            if yes { "yes" } else { "no" }
        );
        Box::pin(async move { yes })
    }
}

/// A server binary built by `cargo build -p mcp-examples`: this example is
/// target/debug/examples/host, the servers are in target/debug.
fn server_binary(name: &str) -> Result<String, Box<dyn std::error::Error>> {
    let exe = std::env::current_exe()?;
    let path = exe
        .parent()
        .and_then(|dir| dir.parent())
        .ok_or("no target dir")?
        .join(name);
    if !path.exists() {
        return Err(format!(
            "{} is missing: run `cargo build -p mcp-examples` first",
            path.display()
        )
        .into());
    }
    Ok(path.display().to_string())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = json!({
        "mcpServers": {
            "echo": { "command": server_binary("echo-server")? },
            "notes": { "command": server_binary("notes-server")? },
            "broken": { "command": "/nonexistent/mcp-server" }
        },
        "policy": { "deny": ["notes.clear_notes"] }
    });
    // `${VAR}` references would be looked up with the closure.
    let config = Config::parse(&config.to_string(), |name| std::env::var(name).ok())?;
    let host = Host::start(config, HostOptions::default()).await;

    for server in host.servers() {
        match &server.state {
            Ok(version) => println!(
                "server {}: ready ({version}, {} tools)",
                server.name, server.tools
            ),
            Err(why) => println!("server {}: unavailable: {why}", server.name),
        }
    }
    let names: Vec<String> = host.tools().iter().map(|entry| entry.name()).collect();
    println!("catalogue: {}", names.join(", "));

    let consent = NotesOnly;
    let mut options = CallOptions::new(&consent);
    options.timeout = Duration::from_secs(10);
    let calls = [
        // Read-only: no consent needed.
        ("echo.add", json!({"a": 2, "b": 40})),
        // May have side effects: the user is asked first.
        (
            "notes.add_note",
            json!({"title": "todo", "text": "ship it"}),
        ),
        ("echo.echo", json!({"text": "hi"})),
        // Denied by the policy, checked against the schema, or unavailable:
        // refused before anything is sent.
        ("notes.clear_notes", json!({})),
        ("echo.add", json!({"a": "two", "b": 40})),
        ("broken.anything", json!({})),
    ];
    for (tool, arguments) in calls {
        match host.call(tool, arguments, &options).await {
            Ok(outcome) => {
                let result = &outcome.result;
                let shown = result
                    .structured_content
                    .clone()
                    .unwrap_or_else(|| json!(result.content[0].as_text()));
                println!("{tool} -> {shown} (from server {})", outcome.server);
            }
            Err(error) => println!(
                "{tool} -> refused (exit code {}): {error}",
                error.exit_code()
            ),
        }
    }
    host.shutdown(Duration::from_secs(1)).await;
    Ok(())
}
