//! Tasks (2026-07-28 extension `io.modelcontextprotocol/tasks`): a long
//! tool call that answers at once with a task id, runs on in the
//! background, and is polled with `tasks/get` or stopped with
//! `tasks/cancel`.
//!
//! A tool opts in with `#[mcp_tool(task_support = "optional")]` (or
//! `"required"`). When the client declares the extension, the handler
//! starts within the request and, as soon as it has to wait, the client
//! gets `resultType: "task"`. Questions a task asks later appear as its
//! `inputRequests` and are answered with `tasks/update` (see
//! `conformance-server`'s `confirm_delete`). The client has no typed task
//! API yet, so this example sends the task methods with `Client::request`
//! and decodes them into the protocol types.
//!
//! Run: `cargo run -p mcp-examples --example tasks`.

use std::collections::BTreeMap;
use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::protocol::{CreateTaskResult, GetTaskResult, TASKS_EXTENSION, TaskAck};
use mcp_toolkit_runtime::server::Server;
use serde_json::json;

/// Build a report, one page every 100 ms.
///
/// # Arguments
///
/// * `pages` - How many pages to build (at most 100).
#[mcp_tool(task_support = "optional")]
async fn build_report(pages: u64) -> String {
    for _ in 0..pages.min(100) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    format!("a report of {pages} pages")
}

/// Polls `tasks/get` until the task ends, printing each new status.
async fn wait_for_end(
    client: &Client,
    task_id: &str,
) -> Result<GetTaskResult, Box<dyn std::error::Error>> {
    let mut last = None;
    loop {
        let task: GetTaskResult = client
            .request("tasks/get", &json!({"taskId": task_id}))
            .await?;
        if last != Some(task.task.status) {
            println!("  tasks/get -> {:?}", task.task.status);
            last = Some(task.task.status);
        }
        if task.task.status.is_terminal() {
            return Ok(task);
        }
        // The server suggests how often to poll.
        let poll = task.task.poll_interval_ms.unwrap_or(100).clamp(20, 1000);
        tokio::time::sleep(Duration::from_millis(poll)).await;
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![build_report])
        .build()?;

    // Tasks belong to the 2026-07-28 era; the client declares the extension.
    let mut options = ConnectOptions {
        era: EraChoice::Modern,
        ..ConnectOptions::default()
    };
    options.capabilities.extensions = Some(BTreeMap::from([(
        TASKS_EXTENSION.to_owned(),
        Default::default(),
    )]));
    let client = Client::connect_in_memory(server, options).await?;

    // 1. A call that has to wait comes back at once as a task.
    let call = json!({"name": "build_report", "arguments": {"pages": 3}});
    let created: CreateTaskResult = client.request("tools/call", &call).await?;
    println!(
        "tools/call -> task {} ({:?})",
        created.task.task_id, created.task.status
    );
    let done = wait_for_end(&client, &created.task.task_id).await?;
    // A completed task carries the tool's result.
    let text = done
        .result
        .as_ref()
        .and_then(|r| r["content"][0]["text"].as_str());
    println!("  result: {:?}", text.unwrap_or_default());

    // 2. Another one, stopped with tasks/cancel: its handler is dropped.
    let call = json!({"name": "build_report", "arguments": {"pages": 50}});
    let created: CreateTaskResult = client.request("tools/call", &call).await?;
    println!(
        "tools/call -> task {} ({:?})",
        created.task.task_id, created.task.status
    );
    let _: TaskAck = client
        .request("tasks/cancel", &json!({"taskId": created.task.task_id}))
        .await?;
    println!("  tasks/cancel sent");
    wait_for_end(&client, &created.task.task_id).await?;
    Ok(())
}
