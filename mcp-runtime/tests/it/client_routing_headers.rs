//! Our client against our server over 2026-07-28 Streamable HTTP: the
//! `Mcp-Name` header the client sends and the one the server checks come
//! from the same table ([`Method::target`]), so no request of ours is
//! refused with -32020 (header mismatch); the tasks methods, which name
//! their task, included.

use crate::client_support;

use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::protocol::{
    CallToolResult, ClientCapabilities, ContentBlock, ElicitationCapability, Era, GetPromptResult,
    Method, PromptMessage, ReadResourceResult, Role, TASKS_EXTENSION,
};
use mcp_toolkit_runtime::server::{
    ListChanges, PromptDef, PromptRequest, ResourceDef, ResourceRead, Server, TaskSupport,
    ToolCall, ToolDef,
};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};

/// -32020: a routing header does not match the body.
const HEADER_MISMATCH: i64 = -32020;

/// The bound on every wait here.
const WAIT: Duration = Duration::from_secs(10);

/// Tools that run as tasks (`ask` asks one question, `sleepy` sleeps `ms`),
/// a resource, a prompt (something for every targeted method to find) and
/// list change announcements (for `subscriptions/listen`).
fn server() -> Server {
    let ask = client_support::asking_task_tool();
    let sleepy = ToolDef::new("sleepy", |call: ToolCall| async move {
        call.context().start_task().await;
        let ms: u64 = call.argument("ms")?;
        tokio::time::sleep(Duration::from_millis(ms)).await;
        Ok(CallToolResult::text("slept"))
    })
    .input_schema(json!({"type": "object", "properties": {"ms": {"type": "integer"}}}))
    .task_support(TaskSupport::Optional);
    let readme = ResourceDef::new("docs://readme", "readme", |read: ResourceRead| async move {
        Ok(ReadResourceResult::text(read.uri, None, "# readme"))
    });
    let greet = PromptDef::new("greet", |_: PromptRequest| async move {
        Ok(GetPromptResult {
            description: None,
            messages: vec![PromptMessage {
                role: Role::User,
                content: ContentBlock::text("hello"),
            }],
            result_type: None,
            meta: None,
        })
    });
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(ask)
        .tool(sleepy)
        .resource(readme)
        .prompt(greet)
        .list_changes(ListChanges::new())
        .build()
        .unwrap()
}

/// Serves [`server`] on 127.0.0.1 and connects a 2026-07-28 client that
/// declares the tasks extension and elicitation.
async fn connect() -> (Client, tokio::task::JoinHandle<std::io::Result<()>>) {
    let (url, serving) = client_support::serve_on_loopback(server(), HttpConfig::default()).await;
    let capabilities = ClientCapabilities {
        elicitation: Some(ElicitationCapability::default()),
        extensions: Some([(TASKS_EXTENSION.to_owned(), Default::default())].into()),
        ..ClientCapabilities::default()
    };
    let options = ConnectOptions {
        era: EraChoice::Modern,
        capabilities,
        request_timeout: WAIT,
        ..ConnectOptions::default()
    };
    let client = Client::connect_http_with(&url, options).await.unwrap();
    assert_eq!(client.server().era, Era::Modern);
    (client, serving)
}

/// Calls `tool` and returns the id of the task it became.
async fn start_task(client: &Client, tool: &str, arguments: Value) -> String {
    let params = json!({"name": tool, "arguments": arguments});
    let created: Value = client.request("tools/call", &params).await.unwrap();
    assert_eq!(created["resultType"], "task", "{created}");
    created["taskId"].as_str().unwrap().to_owned()
}

/// `tasks/get` until the task's status is `status` (bounded).
async fn wait_for(client: &Client, task_id: &str, status: &str) -> Value {
    for _ in 0..250 {
        let task: Value = client
            .request("tasks/get", &json!({"taskId": task_id}))
            .await
            .unwrap();
        if task["status"] == status {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {task_id} never reached {status}");
}

#[tokio::test]
async fn our_client_gets_updates_and_cancels_tasks_on_our_server() {
    let (client, serving) = connect().await;

    let task_id = start_task(&client, "ask", json!({})).await;
    let waiting = wait_for(&client, &task_id, "input_required").await;
    assert!(waiting["inputRequests"].get("name").is_some(), "{waiting}");
    let answer = json!({"action": "accept", "content": {"name": "Ada"}});
    let params = json!({"taskId": task_id, "inputResponses": {"name": answer}});
    let ack: Value = client.request("tasks/update", &params).await.unwrap();
    assert_eq!(ack, json!({"resultType": "complete"}));
    let done = wait_for(&client, &task_id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "hello Ada", "{done}");

    let task_id = start_task(&client, "sleepy", json!({"ms": 60_000})).await;
    let ack: Value = client
        .request("tasks/cancel", &json!({"taskId": task_id}))
        .await
        .unwrap();
    assert_eq!(ack, json!({"resultType": "complete"}));
    wait_for(&client, &task_id, "cancelled").await;
    serving.abort();
}

/// Plausible params for `method`, naming what the server has: the task
/// `task_id`, the `sleepy` tool, the `greet` prompt, the `docs://readme`
/// resource.
fn params_for(method: Method, task_id: &str) -> Value {
    match method {
        Method::TasksGet | Method::TasksCancel => json!({"taskId": task_id}),
        Method::TasksUpdate => json!({"taskId": task_id, "inputResponses": {}}),
        Method::CallTool => json!({"name": "sleepy", "arguments": {"ms": 1}}),
        Method::GetPrompt => json!({"name": "greet"}),
        Method::ReadResource | Method::SkillsGet | Method::ReadDirectory => {
            json!({"uri": "docs://readme"})
        }
        Method::Complete => json!({
            "ref": {"type": "ref/prompt", "name": "greet"},
            "argument": {"name": "who", "value": ""}
        }),
        Method::Listen => json!({"notifications": {"toolsListChanged": true}}),
        _ => json!({}),
    }
}

#[tokio::test]
async fn no_method_the_server_answers_is_refused_for_its_headers() {
    let (client, serving) = connect().await;
    let task_id = start_task(&client, "sleepy", json!({"ms": 60_000})).await;
    let modern = Method::ALL
        .iter()
        .filter(|m| m.served_by_server() && m.eras().contains(Era::Modern));
    for &method in modern {
        let params = params_for(method, &task_id);
        if let Some(target) = method.target() {
            assert!(params.get(target).is_some(), "{method} needs {target}");
        }
        let request = client.request::<_, Value>(method.name(), &params);
        // `subscriptions/listen` answers only when its stream ends: a
        // stream still open after a second was accepted.
        let limit = match method {
            Method::Listen => Duration::from_secs(1),
            _ => WAIT,
        };
        match tokio::time::timeout(limit, request).await {
            Ok(Err(ClientError::Protocol(error))) => {
                assert_ne!(error.code, HEADER_MISMATCH, "{method} {params}: {error:?}")
            }
            Ok(_) => {}
            Err(_) => assert_eq!(method, Method::Listen, "{method}: no answer"),
        }
    }
    serving.abort();
}
