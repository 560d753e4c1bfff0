//! The runtime's task client (`Client::call_tool_as_task`, the tasks
//! extension of 2026-07-28) against `conformance-server --http` in another
//! process: its task fixtures polled to their results at the server's own
//! interval, questions asked from within a task (one, and two at once) and
//! before it, a cancel, a tool error, a failed task, and a tool that
//! answers at once.

use crate::support;

use std::path::Path;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use mcp_toolkit_runtime::client::{
    Client, ClientError, ConnectOptions, EraChoice, InputHandler, TaskState,
};
use mcp_toolkit_runtime::protocol::{
    ClientCapabilities, ElicitationCapability, InputRequests, InputResponses, TaskStatus,
};
use mcp_toolkit_runtime::server::{BoxFuture, Era};
use serde_json::{Value, json};
use support::interop::HttpFixture;

/// The bound on every wait here (the server suggests polling every second).
const WAIT: Duration = Duration::from_secs(20);

fn fixture() -> HttpFixture {
    HttpFixture::start(Path::new(env!("CARGO_BIN_EXE_conformance-server")), &[])
}

/// Accepts every form: each string field "Ada", each boolean `true`.
/// Records the keys of the questions it was shown.
#[derive(Default)]
struct Accept(Mutex<Vec<String>>);

impl InputHandler for Accept {
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>> {
        let mut responses = InputResponses::new();
        for (key, request) in requests {
            let request = serde_json::to_value(request).unwrap();
            let fields = request["params"]["requestedSchema"]["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            let content: serde_json::Map<String, Value> = fields
                .into_iter()
                .map(|(name, schema)| {
                    let value = match schema["type"].as_str() {
                        Some("boolean") => json!(true),
                        _ => json!("Ada"),
                    };
                    (name, value)
                })
                .collect();
            let answer = json!({"action": "accept", "content": content});
            responses.insert(key.clone(), serde_json::from_value(answer).unwrap());
            self.0.lock().unwrap().push(key);
        }
        Box::pin(async move { Ok(responses) })
    }
}

async fn connect(url: &str, handler: Option<Arc<Accept>>) -> Client {
    let options = ConnectOptions {
        era: EraChoice::Modern,
        capabilities: ClientCapabilities {
            elicitation: Some(ElicitationCapability::default()),
            ..ClientCapabilities::default()
        },
        input_handler: handler.map(|h| h as Arc<dyn InputHandler>),
        ..ConnectOptions::default()
    };
    let client = Client::connect_http_with(url, options).await.unwrap();
    assert_eq!(client.server().era, Era::Modern);
    client
}

fn text(result: &mcp_toolkit_runtime::protocol::CallToolResult) -> &str {
    result.content[0].as_text().unwrap_or_default()
}

#[tokio::test]
async fn a_slow_tool_is_polled_to_its_result_in_another_process() {
    let fixture = fixture();
    let client = connect(&fixture.url, None).await;
    let arguments = json!({"seconds": 0.5, "label": "pi"});
    let mut task = client
        .call_tool_as_task("slow_compute", &arguments)
        .await
        .unwrap();
    assert!(task.id().is_some(), "{task:?}");
    assert_eq!(task.task().unwrap().status, TaskStatus::Working);
    let result = task.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "Computed pi in 0.5 s");
}

#[tokio::test]
async fn questions_from_a_task_in_another_process_are_answered() {
    let fixture = fixture();
    let accept = Arc::new(Accept::default());
    let client = connect(&fixture.url, Some(accept.clone())).await;

    let mut task = client
        .call_tool_as_task("confirm_delete", &json!({"filename": "a.txt"}))
        .await
        .unwrap();
    assert!(task.id().is_some());
    let result = task.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "Deleted a.txt");

    let mut task = client
        .call_tool_as_task("multi_input", &json!({}))
        .await
        .unwrap();
    let result = task.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), r#"Received name="Ada" confirm=true"#);

    // Asked before the task exists: an input_required round of the call.
    let mut task = client
        .call_tool_as_task("test_tool_with_task", &json!({}))
        .await
        .unwrap();
    assert!(task.id().is_some());
    let result = task.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "Hello, Ada, from a task!");

    let mut asked = accept.0.lock().unwrap().clone();
    asked.sort();
    assert_eq!(asked, ["confirm", "confirm_delete", "name", "user_name"]);
}

#[tokio::test]
async fn the_same_handle_covers_cancels_errors_and_answers_at_once() {
    let fixture = fixture();
    let client = connect(&fixture.url, None).await;

    let mut slow = client
        .call_tool_as_task("slow_compute", &json!({"seconds": 600}))
        .await
        .unwrap();
    slow.cancel().await.unwrap();
    let waited = slow.result_within(WAIT).await;
    assert!(
        matches!(waited, Err(ClientError::TaskCancelled(_))),
        "{waited:?}"
    );

    // A tool error completes the task; the result says so.
    let mut failing = client
        .call_tool_as_task("failing_job", &json!({}))
        .await
        .unwrap();
    let result = failing.result_within(WAIT).await.unwrap();
    assert_eq!(result.is_error, Some(true));

    // A JSON-RPC error fails it.
    let mut broken = client
        .call_tool_as_task("protocol_error_job", &json!({}))
        .await
        .unwrap();
    match broken.result_within(WAIT).await {
        Err(ClientError::Protocol(error)) => assert_eq!(error.code, -32603, "{error:?}"),
        other => panic!("expected the task's error, got {other:?}"),
    }

    let mut greet = client
        .call_tool_as_task("greet", &json!({"name": "Ada"}))
        .await
        .unwrap();
    assert_eq!(greet.id(), None);
    let TaskState::Completed(result) = greet.poll().await.unwrap() else {
        panic!("greet answers at once");
    };
    assert_eq!(text(&result), "Hello, Ada!");
}
