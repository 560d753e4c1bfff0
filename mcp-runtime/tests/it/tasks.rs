//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) end to
//! end: over an in-memory stdio pipe for the lifecycle, the questions, the
//! limits and the eras, and over HTTP for the routing headers and for tasks
//! that outlive the POST that created them. (One file, like every other
//! feature's tests here, so that the extension's behaviour reads in one place.)

use crate::http_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::protocol::{CallToolResult, TASKS_EXTENSION};
use mcp_toolkit_runtime::server::{
    InputError, Server, ServerOptions, TaskSupport, ToolCall, ToolDef, ToolError,
};
use mcp_toolkit_runtime::transport::{HttpConfig, StdioConfig};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

use http_support::{bounded, post};

const MISSING_CAPABILITY: i64 = -32021;
const INVALID_PARAMS: i64 = -32602;
const METHOD_NOT_FOUND: i64 = -32601;
const INTERNAL_ERROR: i64 = -32603;

/// The `_meta` of a 2026-07-28 request from a client that can elicit and,
/// with `tasks`, declares the extension.
fn meta(tasks: bool) -> Value {
    let mut capabilities = json!({"elicitation": {}});
    if tasks {
        capabilities["extensions"] = json!({ TASKS_EXTENSION: {} });
    }
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

struct Client {
    input: DuplexStream,
    output: Lines<BufReader<DuplexStream>>,
    next_id: i64,
}

impl Client {
    fn start(server: Server) -> Self {
        let (input, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, output) = tokio::io::duplex(1 << 16);
        tokio::spawn(server.serve_io(server_in, server_out, StdioConfig::default()));
        Client {
            input,
            output: BufReader::new(output).lines(),
            next_id: 1,
        }
    }

    /// Sends a request and returns the whole reply (`result` or `error`).
    async fn raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.input.write_all(&line).await.unwrap();
        let line = bounded(self.output.next_line())
            .await
            .unwrap()
            .expect("stream open");
        let reply: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    /// A 2026-07-28 request, declaring the extension when `tasks`.
    async fn request(&mut self, method: &str, mut params: Value, tasks: bool) -> Value {
        params["_meta"] = meta(tasks);
        self.raw(method, params).await
    }

    async fn call(&mut self, tool: &str, arguments: Value, tasks: bool) -> Value {
        self.request(
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
            tasks,
        )
        .await
    }

    /// Calls `tool` as a task and returns the task's id.
    async fn start_task(&mut self, tool: &str, arguments: Value) -> String {
        let reply = self.call(tool, arguments, true).await;
        assert_eq!(reply["result"]["resultType"], "task", "{reply}");
        reply["result"]["taskId"].as_str().unwrap().to_owned()
    }

    /// `tasks/get`: the task, or the error.
    async fn get(&mut self, task_id: &str) -> Value {
        self.request("tasks/get", json!({"taskId": task_id}), true)
            .await
    }

    async fn cancel(&mut self, task_id: &str) -> Value {
        self.request("tasks/cancel", json!({"taskId": task_id}), true)
            .await
    }

    /// Polls `tasks/get` until the task's status is `status`.
    async fn wait_for(&mut self, task_id: &str, status: &str) -> Value {
        for _ in 0..250 {
            let reply = self.get(task_id).await;
            if reply["result"]["status"] == status {
                return reply["result"].clone();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("task {task_id} never reached {status}");
    }
}

fn error_code(reply: &Value) -> i64 {
    reply["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error: {reply}"))
}

/// Sleeps `ms` milliseconds, then answers; sets `dropped` when its future
/// is dropped before it finished.
fn sleepy(dropped: Arc<AtomicBool>) -> ToolDef {
    ToolDef::new("sleepy", move |call: ToolCall| {
        let dropped = dropped.clone();
        async move {
            struct Guard(Arc<AtomicBool>, bool);
            impl Drop for Guard {
                fn drop(&mut self) {
                    if !self.1 {
                        self.0.store(true, Ordering::SeqCst);
                    }
                }
            }
            let mut guard = Guard(dropped, false);
            let ms: u64 = call.argument("ms")?;
            tokio::time::sleep(Duration::from_millis(ms)).await;
            guard.1 = true;
            Ok(CallToolResult::text(format!("slept {ms} ms")))
        }
    })
    .input_schema(json!({"type": "object", "properties": {"ms": {"type": "integer"}}}))
    .task_support(TaskSupport::Optional)
}

fn question(message: &str) -> Value {
    json!({
        "method": "elicitation/create",
        "params": {
            "message": message,
            "requestedSchema": {"type": "object", "properties": {"answer": {"type": "string"}}}
        }
    })
}

/// The `answer` a client gave to `key`.
async fn ask(call: &ToolCall, key: &str) -> Result<String, ToolError> {
    let request = serde_json::from_value(question(key)).unwrap();
    let answer = call
        .context()
        .ask_as(key, request)
        .await
        .map_err(|e: InputError| ToolError::new(e.to_string()))?;
    let answer = serde_json::to_value(answer)?;
    Ok(answer["content"]["answer"]
        .as_str()
        .unwrap_or_default()
        .to_owned())
}

fn answer(text: &str) -> Value {
    json!({"action": "accept", "content": {"answer": text}})
}

fn tools(dropped: Arc<AtomicBool>) -> Vec<ToolDef> {
    vec![
        sleepy(dropped),
        ToolDef::new("quick", |_call: ToolCall| async {
            Ok(CallToolResult::text("quick"))
        })
        .task_support(TaskSupport::Optional),
        ToolDef::new("quick_required", |_call: ToolCall| async {
            Ok(CallToolResult::text("quick and required"))
        })
        .task_support(TaskSupport::Required),
        ToolDef::new("plain", |_call: ToolCall| async {
            Ok(CallToolResult::text("plain"))
        }),
        ToolDef::new("oops", |call: ToolCall| async move {
            call.context().start_task().await;
            Err(ToolError::new("oops"))
        })
        .task_support(TaskSupport::Optional),
        ToolDef::new("boom", |call: ToolCall| async move {
            call.context().start_task().await;
            panic!("boom")
        })
        .task_support(TaskSupport::Optional),
        ToolDef::new("two_questions", |call: ToolCall| async move {
            call.context().start_task().await;
            let (first, second) = tokio::join!(ask(&call, "first"), ask(&call, "second"));
            Ok(CallToolResult::text(format!("{} and {}", first?, second?)))
        })
        .task_support(TaskSupport::Optional),
        // Asks `second` first; `first` is read once `second` waits.
        ToolDef::new("second_waits_first_read", |call: ToolCall| async move {
            call.context().start_task().await;
            let (second, first) = tokio::join!(ask(&call, "second"), async {
                tokio::task::yield_now().await;
                ask(&call, "first").await
            });
            Ok(CallToolResult::text(format!("{} and {}", first?, second?)))
        })
        .task_support(TaskSupport::Optional),
        ToolDef::new("gather_then_work", |call: ToolCall| async move {
            let name = ask(&call, "name").await?;
            call.context().start_task().await;
            let id = call.context().task_id().unwrap_or("none").to_owned();
            Ok(CallToolResult::text(format!("hello {name} from {id}")))
        })
        .task_support(TaskSupport::Required),
        ToolDef::new("progress_note", |call: ToolCall| async move {
            call.context().start_task().await;
            call.context()
                .report_progress(1.0, Some(2.0), Some("halfway"))
                .await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            Ok(CallToolResult::text("noted"))
        })
        .task_support(TaskSupport::Optional),
    ]
}

fn server_with(options: ServerOptions, dropped: Arc<AtomicBool>) -> Server {
    let mut builder = Server::builder(mcp_toolkit_runtime::server_info!()).options(options);
    for tool in tools(dropped) {
        builder = builder.tool(tool);
    }
    builder.build().unwrap()
}

fn client() -> Client {
    Client::start(server_with(ServerOptions::default(), Arc::default()))
}

#[tokio::test]
async fn discover_announces_the_extension_only_when_a_tool_supports_tasks() {
    let mut client = client();
    let reply = client.request("server/discover", json!({}), false).await;
    assert_eq!(
        reply["result"]["capabilities"]["extensions"][TASKS_EXTENSION],
        json!({}),
        "{reply}"
    );
    assert!(reply["result"]["capabilities"].get("tasks").is_none());

    // The last word on task support is the one that counts.
    let plain = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(
            ToolDef::new("plain", |_call: ToolCall| async {
                Ok(CallToolResult::text("plain"))
            })
            .task_support(TaskSupport::Optional)
            .task_support(TaskSupport::Forbidden),
        )
        .build()
        .unwrap();
    let mut client = Client::start(plain);
    let reply = client.request("server/discover", json!({}), true).await;
    assert!(
        reply["result"]["capabilities"]["extensions"]
            .get(TASKS_EXTENSION)
            .is_none(),
        "{reply}"
    );
    let reply = client.get("anything").await;
    assert_eq!(error_code(&reply), METHOD_NOT_FOUND, "{reply}");
}

#[tokio::test]
async fn a_live_registry_runs_a_task_tool_added_after_build() {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .live_registry()
        .build()
        .unwrap();
    let registry = server.registry().unwrap();
    let mut client = Client::start(server);
    let reply = client.request("server/discover", json!({}), true).await;
    assert_eq!(
        reply["result"]["capabilities"]["extensions"][TASKS_EXTENSION],
        json!({}),
        "{reply}"
    );
    let reply = client.get("anything").await;
    assert_eq!(error_code(&reply), INVALID_PARAMS, "no such task: {reply}");

    registry
        .add_tool(sleepy(Arc::default()).task_support(TaskSupport::Optional))
        .unwrap();
    let task_id = client.start_task("sleepy", json!({"ms": 10})).await;
    let done = client.wait_for(&task_id, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"], "slept 10 ms",
        "{done}"
    );
}

#[tokio::test]
async fn a_waiting_handler_becomes_a_task_whose_result_tasks_get_inlines() {
    let mut client = client();
    let reply = client.call("sleepy", json!({"ms": 200}), true).await;
    let created = &reply["result"];
    assert_eq!(created["resultType"], "task", "{reply}");
    assert_eq!(created["status"], "working");
    for key in [
        "result",
        "error",
        "inputRequests",
        "requestState",
        "task",
        "ttl",
    ] {
        assert!(created.get(key).is_none(), "{key} in {created}");
    }
    assert_eq!(created["ttlMs"], 3_600_000);
    assert_eq!(created["pollIntervalMs"], 1000);
    let created_at = created["createdAt"].as_str().unwrap();
    assert!(
        created_at.ends_with('Z') && created_at.len() == 24,
        "{created_at}"
    );
    let task_id = created["taskId"].as_str().unwrap();
    assert_eq!(task_id.len(), 36, "a UUID: {task_id}");

    // Findable at once, and working while the handler sleeps.
    let working = client.get(task_id).await;
    assert_eq!(working["result"]["resultType"], "complete", "{working}");
    assert_eq!(working["result"]["status"], "working");
    assert!(working["result"].get("result").is_none());

    let done = client.wait_for(task_id, "completed").await;
    assert_eq!(done["taskId"], task_id);
    assert_eq!(done["result"]["content"][0]["text"], "slept 200 ms");
    assert_eq!(done["result"]["resultType"], "complete");
    assert!(done["result"].get("_meta").is_none());
    assert!(done.get("error").is_none() && done.get("requestState").is_none());
    // An ended task stays until its TTL is over.
    let again = client.get(task_id).await;
    assert_eq!(again["result"]["status"], "completed", "{again}");
}

#[tokio::test]
async fn without_the_extension_an_optional_tool_answers_and_a_required_one_fails() {
    let mut client = client();
    let reply = client.call("sleepy", json!({"ms": 10}), false).await;
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    assert_eq!(reply["result"]["content"][0]["text"], "slept 10 ms");
    assert!(reply["result"].get("taskId").is_none());

    let reply = client.call("quick_required", json!({}), false).await;
    assert_eq!(error_code(&reply), MISSING_CAPABILITY, "{reply}");
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"]["extensions"][TASKS_EXTENSION],
        json!({})
    );

    // A tool without task support never becomes a task, whatever the
    // client declares or sends.
    let reply = client
        .request(
            "tools/call",
            json!({"name": "plain", "arguments": {}, "task": {"ttl": 1000}}),
            true,
        )
        .await;
    assert_eq!(reply["result"]["content"][0]["text"], "plain", "{reply}");
}

#[tokio::test]
async fn a_handler_done_at_once_answers_directly_unless_its_tool_is_required() {
    let mut client = client();
    let reply = client.call("quick", json!({}), true).await;
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    assert_eq!(reply["result"]["content"][0]["text"], "quick");

    let task_id = client.start_task("quick_required", json!({})).await;
    let done = client.get(&task_id).await;
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["result"]["content"][0]["text"],
        "quick and required"
    );
}

#[tokio::test]
async fn a_tool_error_completes_the_task_and_a_panic_fails_it() {
    let mut client = client();
    let task_id = client.start_task("oops", json!({})).await;
    let done = client.wait_for(&task_id, "completed").await;
    assert_eq!(done["result"]["isError"], true, "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "oops");

    let task_id = client.start_task("boom", json!({})).await;
    let failed = client.wait_for(&task_id, "failed").await;
    assert_eq!(failed["error"]["code"], INTERNAL_ERROR, "{failed}");
    // The panic's own message stays in the server's log.
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("panicked") && !message.contains("boom"),
        "{failed}"
    );
    assert!(failed.get("result").is_none());
    let status = failed["statusMessage"].as_str().unwrap();
    assert!(
        status.contains("panicked") && !status.contains("boom"),
        "{failed}"
    );
}

#[tokio::test]
async fn questions_in_a_task_wait_for_tasks_update_one_key_at_a_time() {
    let mut client = client();
    let task_id = client.start_task("two_questions", json!({})).await;
    let waiting = client.wait_for(&task_id, "input_required").await;
    let keys: Vec<&String> = waiting["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["first", "second"], "{waiting}");
    assert_eq!(
        waiting["inputRequests"]["first"]["method"],
        "elicitation/create"
    );
    assert!(waiting.get("requestState").is_none());

    // A partial answer, plus keys that are not open: acknowledged, the
    // unknown keys ignored even when malformed.
    let ack = client
        .request(
            "tasks/update",
            json!({"taskId": task_id, "inputResponses": {
                "first": answer("one"), "never-asked": {"bogus": true}
            }}),
            true,
        )
        .await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let still = client.get(&task_id).await;
    assert_eq!(still["result"]["status"], "input_required", "{still}");
    let keys: Vec<&String> = still["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["second"]);

    // An unreadable answer to an open key is refused and delivers nothing.
    let refused = client
        .request(
            "tasks/update",
            json!({"taskId": task_id, "inputResponses": {"second": 42}}),
            true,
        )
        .await;
    assert_eq!(error_code(&refused), INVALID_PARAMS, "{refused}");

    client
        .request(
            "tasks/update",
            json!({"taskId": task_id, "inputResponses": {"second": answer("two")}}),
            true,
        )
        .await;
    let done = client.wait_for(&task_id, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"], "one and two",
        "{done}"
    );
}

#[tokio::test]
async fn questions_before_the_first_wait_are_input_required_rounds() {
    let mut client = client();
    let round = client.call("gather_then_work", json!({}), true).await;
    let result = &round["result"];
    assert_eq!(result["resultType"], "input_required", "{round}");
    assert!(result.get("taskId").is_none());
    assert!(result["inputRequests"].get("name").is_some());

    let reply = client
        .request(
            "tools/call",
            json!({
                "name": "gather_then_work", "arguments": {},
                "inputResponses": {"name": answer("Alice")},
                "requestState": result["requestState"],
            }),
            true,
        )
        .await;
    assert_eq!(reply["result"]["resultType"], "task", "{reply}");
    assert!(reply["result"].get("requestState").is_none());
    let task_id = reply["result"]["taskId"].as_str().unwrap();
    let done = client.wait_for(task_id, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"],
        format!("hello Alice from {task_id}"),
        "the task sees the round's answer and its own id"
    );
}

#[tokio::test]
async fn an_answer_of_the_wrong_type_read_in_a_task_fails_it_with_32602() {
    let mut client = client();
    wrong_first_answer_fails_the_task(&mut client, "two_questions", Some(answer("b"))).await;
}

/// Once an answer failed to read, the task fails: a question its handler
/// asks afterwards is refused at once, and one already waiting is taken
/// back, instead of keeping the task waiting for an answer that could
/// change nothing.
#[tokio::test]
async fn no_question_waits_after_an_answer_failed_to_read_in_a_task() {
    let mut client = client();
    wrong_first_answer_fails_the_task(&mut client, "two_questions", None).await;
    wrong_first_answer_fails_the_task(&mut client, "second_waits_first_read", None).await;
}

/// Calls `tool` as a task with a sampling result as the answer to its
/// elicitation `first` (and `second`, if given), and checks that the task
/// fails with -32602 naming `first`.
async fn wrong_first_answer_fails_the_task(client: &mut Client, tool: &str, second: Option<Value>) {
    let sampled = json!({"role": "assistant", "model": "m",
        "content": {"type": "text", "text": "hi"}});
    let mut responses = json!({ "first": sampled });
    if let Some(second) = second {
        responses["second"] = second;
    }
    let params = json!({"name": tool, "arguments": {}, "inputResponses": responses});
    let reply = client.request("tools/call", params, true).await;
    assert_eq!(reply["result"]["resultType"], "task", "{reply}");
    let task_id = reply["result"]["taskId"].as_str().unwrap();
    let failed = client.wait_for(task_id, "failed").await;
    assert_eq!(failed["error"]["code"], INVALID_PARAMS, "{failed}");
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("inputResponses.first: "), "{failed}");
}

#[tokio::test]
async fn cancel_drops_the_handler_and_acknowledges_again_once_ended() {
    let dropped = Arc::new(AtomicBool::new(false));
    let mut client = Client::start(server_with(ServerOptions::default(), dropped.clone()));
    let task_id = client.start_task("sleepy", json!({"ms": 60_000})).await;
    let ack = client.cancel(&task_id).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let cancelled = client.wait_for(&task_id, "cancelled").await;
    assert!(cancelled.get("result").is_none(), "{cancelled}");
    bounded(async {
        while !dropped.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    let ack = client.cancel(&task_id).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");

    // A finished task stays completed when cancelled afterwards.
    let task_id = client.start_task("sleepy", json!({"ms": 1})).await;
    client.wait_for(&task_id, "completed").await;
    client.cancel(&task_id).await;
    assert_eq!(client.get(&task_id).await["result"]["status"], "completed");
}

#[tokio::test]
async fn task_methods_need_the_extension_and_a_known_task() {
    let mut client = client();
    let task_id = client.start_task("sleepy", json!({"ms": 60_000})).await;
    for (method, params) in [
        ("tasks/get", json!({"taskId": task_id})),
        (
            "tasks/update",
            json!({"taskId": task_id, "inputResponses": {}}),
        ),
        ("tasks/cancel", json!({"taskId": task_id})),
    ] {
        let reply = client.request(method, params.clone(), false).await;
        assert_eq!(error_code(&reply), MISSING_CAPABILITY, "{method}: {reply}");
        assert!(
            reply["error"]["data"]["requiredCapabilities"]["extensions"]
                .get(TASKS_EXTENSION)
                .is_some()
        );
        let unknown = json!({"taskId": "no-such-task", "inputResponses": {}});
        let reply = client.request(method, unknown, true).await;
        assert_eq!(error_code(&reply), INVALID_PARAMS, "{method}: {reply}");
    }
    // The 2025-11-25 methods that SEP-2663 removed.
    for method in ["tasks/result", "tasks/list"] {
        let reply = client
            .request(method, json!({"taskId": task_id}), true)
            .await;
        assert_eq!(error_code(&reply), METHOD_NOT_FOUND, "{method}: {reply}");
    }
}

#[tokio::test]
async fn progress_in_a_task_becomes_its_status_message() {
    let mut client = client();
    let task_id = client.start_task("progress_note", json!({})).await;
    for _ in 0..100 {
        let task = client.get(&task_id).await;
        if task["result"]["statusMessage"] == "halfway" {
            assert_eq!(task["result"]["status"], "working");
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the progress message never showed");
}

#[tokio::test]
async fn the_store_is_bounded_and_tasks_vanish_when_their_ttl_ends() {
    let dropped = Arc::new(AtomicBool::new(false));
    let options = ServerOptions {
        max_tasks: 1,
        task_ttl: Duration::from_millis(300),
        ..ServerOptions::default()
    };
    let mut client = Client::start(server_with(options, dropped.clone()));
    let first = client.start_task("sleepy", json!({"ms": 60_000})).await;
    let created = client.get(&first).await;
    assert_eq!(created["result"]["ttlMs"], 300, "{created}");

    let full = client.call("sleepy", json!({"ms": 60_000}), true).await;
    assert_eq!(error_code(&full), INTERNAL_ERROR, "{full}");

    tokio::time::sleep(Duration::from_millis(500)).await;
    let gone = client.get(&first).await;
    assert_eq!(error_code(&gone), INVALID_PARAMS, "{gone}");
    assert!(
        dropped.load(Ordering::SeqCst),
        "work still running at the end of the TTL is stopped"
    );
    client.start_task("sleepy", json!({"ms": 10})).await;
}

#[tokio::test]
async fn legacy_clients_never_get_tasks() {
    let mut client = client();
    let reply = client
        .raw(
            "initialize",
            json!({"protocolVersion": "2025-11-25",
                   "capabilities": {"extensions": { TASKS_EXTENSION: {} }},
                   "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert!(reply.get("result").is_some(), "{reply}");
    assert!(
        reply["result"]["capabilities"].get("extensions").is_none(),
        "initialize does not announce the 2026-07-28 extension: {reply}"
    );
    let reply = client
        .raw(
            "tools/call",
            json!({"name": "sleepy", "arguments": {"ms": 1}}),
        )
        .await;
    assert_eq!(
        reply["result"]["content"][0]["text"], "slept 1 ms",
        "{reply}"
    );
    let reply = client
        .raw("tools/call", json!({"name": "quick_required"}))
        .await;
    assert_eq!(error_code(&reply), MISSING_CAPABILITY, "{reply}");
    let reply = client.raw("tasks/get", json!({"taskId": "x"})).await;
    assert_eq!(error_code(&reply), METHOD_NOT_FOUND, "{reply}");
}

/// Runs only as a task.
#[mcp_tool(task_support = "required")]
async fn macro_job() -> String {
    "made by a macro".to_owned()
}

#[tokio::test]
async fn the_macro_attribute_sets_task_support() {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![macro_job])
        .build()
        .unwrap();
    let mut client = Client::start(server);
    let reply = client.call("macro_job", json!({}), false).await;
    assert_eq!(error_code(&reply), MISSING_CAPABILITY, "{reply}");
    let task_id = client.start_task("macro_job", json!({})).await;
    let done = client.wait_for(&task_id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "made by a macro");
}

/// Over HTTP: `Mcp-Name` must carry the task id, and a task keeps running
/// after the POST that created it has been answered (which cancels that
/// request).
#[tokio::test]
async fn over_http_tasks_outlive_their_post_and_route_by_task_id() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = server_with(ServerOptions::default(), Arc::default());
    let serving = tokio::spawn(server.serve_http_with(
        listener,
        HttpConfig::default(),
        std::future::pending(),
    ));
    async fn send(
        addr: std::net::SocketAddr,
        method: &str,
        name: &str,
        mut params: Value,
    ) -> http_support::Reply {
        params["_meta"] = meta(true);
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let headers = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
            ("mcp-name", name),
        ];
        post(addr, &headers, &body).await
    }

    let arguments = json!({"name": "sleepy", "arguments": {"ms": 300}});
    let created = send(addr, "tools/call", "sleepy", arguments).await;
    let task_id = created.json()["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no task: {}", created.text()))
        .to_owned();

    let wrong = send(
        addr,
        "tasks/get",
        "another-task",
        json!({"taskId": task_id}),
    )
    .await;
    assert_eq!(wrong.status, 400, "{}", wrong.text());
    assert_eq!(wrong.json()["error"]["code"], -32020);

    let mut status = Value::Null;
    for _ in 0..100 {
        let reply = send(addr, "tasks/get", &task_id, json!({"taskId": task_id})).await;
        assert_eq!(reply.status, 200, "{}", reply.text());
        status = reply.json()["result"]["status"].clone();
        if status == "completed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status, "completed");
    serving.abort();
}
