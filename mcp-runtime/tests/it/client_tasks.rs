//! Tools run as tasks from the client side (`Client::call_tool_as_task`,
//! the tasks extension of 2026-07-28): our client against our server over
//! Streamable HTTP on 127.0.0.1, polling to the result, answering a
//! question, cancelling, a server that answers at once and the legacy era;
//! and against a small server over a pipe that answers with hostile poll
//! intervals and repeats answered questions.

use crate::client_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_toolkit_runtime::client::{
    Client, ClientError, ConnectOptions, EraChoice, InputHandler, MAX_POLL_INTERVAL,
    MIN_POLL_INTERVAL, TaskHandle, TaskState,
};
use mcp_toolkit_runtime::protocol::{
    CallToolResult, ClientCapabilities, ElicitationCapability, Era, InputRequests, InputResponse,
    InputResponses, TASKS_EXTENSION, TaskStatus,
};
use mcp_toolkit_runtime::server::{
    BoxFuture, Server, ServerOptions, TaskSupport, ToolCall, ToolDef,
};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::Notify;

/// The bound on every wait here.
const WAIT: Duration = Duration::from_secs(10);

/// The `pollIntervalMs` our server suggests here: above the client's
/// floor, so the client's waits are the server's.
const POLL: Duration = Duration::from_millis(60);

/// Tools for every case: `render` works 300 ms in a task, `ask` asks a
/// name from within its task, `sleepy` sleeps a minute and notifies
/// `cancelled` when its cancellation token fires, `quick` finishes without
/// waiting (optional task support, so no task), `quick_required` likewise
/// but only ever runs as a task, `plain` has no task support, and `boom`
/// panics in its task.
fn server(cancelled: Arc<Notify>) -> Server {
    let render = ToolDef::new("render", |call: ToolCall| async move {
        call.context().start_task().await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        Ok(CallToolResult::text("rendered"))
    })
    .task_support(TaskSupport::Optional);
    let ask = client_support::asking_task_tool();
    let sleepy = ToolDef::new("sleepy", move |call: ToolCall| {
        let cancelled = cancelled.clone();
        async move {
            let token = call.context().cancellation_token().clone();
            tokio::spawn(async move {
                token.cancelled().await;
                cancelled.notify_one();
            });
            call.context().start_task().await;
            tokio::time::sleep(Duration::from_secs(60)).await;
            Ok(CallToolResult::text("slept"))
        }
    })
    .task_support(TaskSupport::Optional);
    let quick = |name: &str, support| {
        ToolDef::new(name, |_: ToolCall| async move {
            Ok(CallToolResult::text("at once"))
        })
        .task_support(support)
    };
    let boom = ToolDef::new("boom", |call: ToolCall| async move {
        call.context().start_task().await;
        panic!("boom on purpose")
    })
    .task_support(TaskSupport::Optional);
    let options = ServerOptions {
        task_poll_interval: POLL,
        ..ServerOptions::default()
    };
    Server::builder(mcp_toolkit_runtime::server_info!())
        .options(options)
        .tool(render)
        .tool(ask)
        .tool(sleepy)
        .tool(quick("quick", TaskSupport::Optional))
        .tool(quick("quick_required", TaskSupport::Required))
        .tool(quick("plain", TaskSupport::Forbidden))
        .tool(boom)
        .build()
        .unwrap()
}

/// Serves [`server`] over HTTP on 127.0.0.1; returns its URL.
async fn serve(cancelled: Arc<Notify>) -> (String, tokio::task::JoinHandle<std::io::Result<()>>) {
    client_support::serve_on_loopback(server(cancelled), HttpConfig::default()).await
}

/// Options of a client that can elicit, answering through `handler` when
/// there is one. The tasks extension is not among its capabilities:
/// `call_tool_as_task` declares it on its own requests.
fn options(era: EraChoice, handler: Option<Arc<dyn InputHandler>>) -> ConnectOptions {
    ConnectOptions {
        era,
        capabilities: ClientCapabilities {
            elicitation: Some(ElicitationCapability::default()),
            ..ClientCapabilities::default()
        },
        request_timeout: WAIT,
        input_handler: handler,
        ..ConnectOptions::default()
    }
}

/// A 2026-07-28 client of our server over HTTP.
async fn connect(
    handler: Option<Arc<dyn InputHandler>>,
) -> (Client, tokio::task::JoinHandle<std::io::Result<()>>) {
    let (url, serving) = serve(Arc::default()).await;
    let client = Client::connect_http_with(&url, options(EraChoice::Modern, handler))
        .await
        .unwrap();
    assert_eq!(client.server().era, Era::Modern);
    (client, serving)
}

fn text(result: &CallToolResult) -> &str {
    result.content[0].as_text().unwrap_or_default()
}

/// Answers every question with the name "Ada", counting the questions.
#[derive(Default)]
struct Ada(AtomicUsize);

impl InputHandler for Ada {
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>> {
        self.0.fetch_add(requests.len(), Ordering::SeqCst);
        let responses = requests.into_keys().map(|key| (key, ada())).collect();
        Box::pin(async move { Ok(responses) })
    }
}

fn ada() -> InputResponse {
    serde_json::from_value(json!({"action": "accept", "content": {"name": "Ada"}})).unwrap()
}

#[tokio::test]
async fn a_long_tool_runs_as_a_task_polled_to_its_result() {
    let (client, serving) = connect(None).await;
    let mut render = client
        .call_tool_as_task("render", &json!({}))
        .await
        .unwrap();
    assert!(render.id().is_some(), "{render:?}");
    assert_eq!(render.task().unwrap().status, TaskStatus::Working);
    assert_eq!(render.poll_interval(), POLL);
    assert_eq!(render.poll().await.unwrap(), TaskState::Working);

    let started = Instant::now();
    let result = render.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "rendered");
    assert_eq!(render.task().unwrap().status, TaskStatus::Completed);
    assert!(started.elapsed() < Duration::from_secs(5));
    serving.abort();
}

#[tokio::test]
async fn a_question_from_a_task_is_answered_through_the_handle() {
    let (client, serving) = connect(None).await;
    let mut ask = client.call_tool_as_task("ask", &json!({})).await.unwrap();
    assert!(ask.id().is_some());

    // No input handler: waiting stops at the question...
    let waited = ask.result_within(WAIT).await;
    assert!(
        matches!(waited, Err(ClientError::InputRequired)),
        "{waited:?}"
    );
    // ...which the caller answers itself.
    let TaskState::InputRequired(questions) = ask.poll().await.unwrap() else {
        panic!("the task should wait for its answer: {ask:?}");
    };
    assert_eq!(questions.keys().collect::<Vec<_>>(), ["name"]);
    ask.answer([("name".to_owned(), ada())].into())
        .await
        .unwrap();
    let result = ask.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "hello Ada");
    serving.abort();
}

#[tokio::test]
async fn the_input_handler_answers_a_task_question_once() {
    let ada = Arc::new(Ada::default());
    let (client, serving) = connect(Some(ada.clone())).await;
    let mut ask = client.call_tool_as_task("ask", &json!({})).await.unwrap();
    let result = ask.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "hello Ada");
    assert_eq!(ada.0.load(Ordering::SeqCst), 1);
    serving.abort();
}

#[tokio::test]
async fn cancelling_a_task_fires_the_tools_cancellation_token() {
    let cancelled = Arc::new(Notify::new());
    let (url, serving) = serve(cancelled.clone()).await;
    let client = Client::connect_http_with(&url, options(EraChoice::Modern, None))
        .await
        .unwrap();
    let mut sleepy = client
        .call_tool_as_task("sleepy", &json!({}))
        .await
        .unwrap();
    let id = sleepy.id().unwrap().to_owned();
    sleepy.cancel().await.unwrap();
    tokio::time::timeout(WAIT, cancelled.notified())
        .await
        .expect("the tool's cancellation token fires");

    let waited = sleepy.result_within(WAIT).await;
    assert!(
        matches!(&waited, Err(ClientError::TaskCancelled(task)) if *task == id),
        "{waited:?}"
    );
    assert_eq!(sleepy.poll().await.unwrap(), TaskState::Cancelled);
    serving.abort();
}

#[tokio::test]
async fn a_tool_that_answers_at_once_gives_its_result_through_the_same_handle() {
    let (client, serving) = connect(None).await;
    for tool in ["quick", "plain"] {
        let mut quick = client.call_tool_as_task(tool, &json!({})).await.unwrap();
        assert_eq!(quick.id(), None, "{tool}");
        assert!(quick.task().is_none(), "{tool}");
        let TaskState::Completed(result) = quick.poll().await.unwrap() else {
            panic!("{tool} answered at once: {quick:?}");
        };
        assert_eq!(text(&result), "at once");
        // Nothing to answer or stop: no request, no error.
        quick.answer(InputResponses::new()).await.unwrap();
        quick.cancel().await.unwrap();
        let result = quick.result_within(WAIT).await.unwrap();
        assert_eq!(text(&result), "at once", "{tool}");
    }
    // A tool that runs only as a task is a task that completed already.
    let mut required = client
        .call_tool_as_task("quick_required", &json!({}))
        .await
        .unwrap();
    assert!(required.id().is_some());
    let result = required.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "at once");
    serving.abort();
}

#[tokio::test]
async fn a_failed_task_is_its_json_rpc_error() {
    let (client, serving) = connect(None).await;
    let mut boom = client.call_tool_as_task("boom", &json!({})).await.unwrap();
    assert!(boom.id().is_some());
    match boom.result_within(WAIT).await {
        Err(ClientError::Protocol(error)) => {
            assert_eq!(error.code, -32603, "{error:?}");
            // The panic's own message stays in the server's log.
            assert!(error.message.contains("panicked"), "{error:?}");
            assert!(!error.message.contains("boom on purpose"), "{error:?}");
        }
        other => panic!("expected the task's error, got {other:?}"),
    }
    serving.abort();
}

#[tokio::test]
async fn the_legacy_era_has_no_tasks() {
    let (url, serving) = serve(Arc::default()).await;
    let client = Client::connect_http_with(&url, options(EraChoice::Legacy, None))
        .await
        .unwrap();
    assert_eq!(client.server().era, Era::Legacy);
    let call = client.call_tool_as_task("render", &json!({})).await;
    assert!(matches!(call, Err(ClientError::NotInEra(_))), "{call:?}");
    let resumed = client.resume_task("t-1");
    assert!(
        matches!(resumed, Err(ClientError::NotInEra(_))),
        "{resumed:?}"
    );
    serving.abort();
}

#[tokio::test]
async fn a_handle_resumed_by_id_polls_the_same_task() {
    let (client, serving) = connect(None).await;
    let render = client
        .call_tool_as_task("render", &json!({}))
        .await
        .unwrap();
    let mut resumed = client.resume_task(render.id().unwrap()).unwrap();
    assert!(resumed.task().is_none(), "nothing is known before a poll");
    let result = resumed.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "rendered");
    serving.abort();
}

/// What the hostile server below saw.
#[derive(Default)]
struct Seen {
    /// `tasks/get` requests.
    polls: AtomicUsize,
    /// `tasks/update` requests.
    updates: AtomicUsize,
}

/// A 2026-07-28 server over a pipe whose `tools/call` creates the task
/// `t-1` and whose `tasks/get` answers, for the n-th poll (from 0), the
/// status fields `status(n)`, with `pollIntervalMs` `interval_ms`. Every
/// `tasks/*` request must declare the extension.
async fn hostile(
    interval_ms: u64,
    status: impl Fn(usize) -> Value + Send + 'static,
    handler: Option<Arc<dyn InputHandler>>,
) -> (Client, Arc<Seen>) {
    let (client_out, server_in) = tokio::io::duplex(1 << 16);
    let (mut server_out, client_in) = tokio::io::duplex(1 << 16);
    let seen = Arc::new(Seen::default());
    let counts = seen.clone();
    tokio::spawn(async move {
        let task = json!({
            "taskId": "t-1", "status": "working",
            "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z",
            "ttlMs": null, "pollIntervalMs": interval_ms,
        });
        let mut lines = BufReader::new(server_in).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let request: Value = serde_json::from_str(&line).unwrap();
            let method = request["method"].as_str().unwrap_or_default();
            if method.starts_with("tasks/") {
                let capabilities =
                    &request["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
                assert!(
                    capabilities["extensions"].get(TASKS_EXTENSION).is_some(),
                    "{request}"
                );
                assert!(capabilities.get("elicitation").is_some(), "{request}");
            }
            let mut result = match method {
                "server/discover" => {
                    json!({"supportedVersions": ["2026-07-28"], "capabilities": {}})
                }
                "tools/call" => json!({"resultType": "task"}),
                "tasks/get" => {
                    let n = counts.polls.fetch_add(1, Ordering::SeqCst);
                    status(n)
                }
                "tasks/update" => {
                    counts.updates.fetch_add(1, Ordering::SeqCst);
                    json!({})
                }
                _ => json!({}),
            };
            if matches!(method, "tools/call" | "tasks/get") {
                let mut merged = task.clone();
                merged
                    .as_object_mut()
                    .unwrap()
                    .extend(result.as_object().unwrap().clone());
                result = merged;
            }
            result
                .as_object_mut()
                .unwrap()
                .entry("resultType")
                .or_insert("complete".into());
            let reply = json!({"jsonrpc": "2.0", "id": request["id"], "result": result});
            let mut line = serde_json::to_vec(&reply).unwrap();
            line.push(b'\n');
            if server_out.write_all(&line).await.is_err() {
                return;
            }
        }
    });
    let client = Client::connect_io(client_in, client_out, options(EraChoice::Modern, handler))
        .await
        .unwrap();
    (client, seen)
}

async fn start(client: &Client) -> TaskHandle {
    let handle = client.call_tool_as_task("work", &json!({})).await.unwrap();
    assert_eq!(handle.id(), Some("t-1"));
    handle
}

#[tokio::test]
async fn a_zero_poll_interval_does_not_make_the_client_spin() {
    let (client, seen) = hostile(0, |_| json!({"status": "working"}), None).await;
    let mut task = start(&client).await;
    assert_eq!(task.poll_interval(), MIN_POLL_INTERVAL);
    let limit = Duration::from_millis(500);
    let waited = task.result_within(limit).await;
    assert!(matches!(waited, Err(ClientError::Timeout)), "{waited:?}");
    // One poll at once, then one per MIN_POLL_INTERVAL at most.
    let polls = seen.polls.load(Ordering::SeqCst);
    let most = (limit.as_millis() / MIN_POLL_INTERVAL.as_millis()) as usize + 2;
    assert!((2..=most).contains(&polls), "{polls} polls in {limit:?}");
}

#[tokio::test]
async fn a_huge_poll_interval_is_capped_and_the_wait_ends_on_time() {
    let (client, seen) = hostile(u64::MAX, |_| json!({"status": "working"}), None).await;
    let mut task = start(&client).await;
    assert_eq!(task.poll_interval(), MAX_POLL_INTERVAL);
    let started = Instant::now();
    let waited = task.result_within(Duration::from_millis(300)).await;
    assert!(matches!(waited, Err(ClientError::Timeout)), "{waited:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(seen.polls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_question_the_server_repeats_is_answered_once() {
    // The question stays open for five polls (the server has not caught
    // up with the answer), then the task completes.
    let status = |n: usize| match n {
        0..=4 => json!({
            "status": "input_required",
            "inputRequests": {"q": {"method": "elicitation/create", "params": {
                "message": "name?",
                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
            }}}
        }),
        _ => {
            json!({"status": "completed", "result": {"content": [{"type": "text", "text": "done"}]}})
        }
    };
    let ada = Arc::new(Ada::default());
    let (client, seen) = hostile(0, status, Some(ada.clone())).await;
    let mut task = start(&client).await;
    let result = task.result_within(WAIT).await.unwrap();
    assert_eq!(text(&result), "done");
    assert_eq!(ada.0.load(Ordering::SeqCst), 1);
    assert_eq!(seen.updates.load(Ordering::SeqCst), 1);
    assert_eq!(seen.polls.load(Ordering::SeqCst), 6);
}

#[tokio::test]
async fn an_answer_about_another_task_or_without_its_result_is_refused() {
    let (client, _) = hostile(0, |_| json!({"taskId": "t-2"}), None).await;
    let mut task = start(&client).await;
    let polled = task.poll().await;
    assert!(
        matches!(&polled, Err(ClientError::InvalidResponse(why)) if why.contains("t-2")),
        "{polled:?}"
    );

    let (client, _) = hostile(0, |_| json!({"status": "completed"}), None).await;
    let mut task = start(&client).await;
    let polled = task.poll().await;
    assert!(
        matches!(&polled, Err(ClientError::InvalidResponse(why)) if why.contains("result")),
        "{polled:?}"
    );
}
