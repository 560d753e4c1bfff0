//! Typed input handlers (`InputHandlers`) answer our server's questions in
//! both eras, in memory and over Streamable HTTP: each handler gets its
//! question's typed parameters and its answer reaches the tool; the
//! capabilities declared are exactly the handled kinds, and a kind without
//! a handler is declined. URL-mode elicitation: the question reaches the URL
//! handler (with its `elicitationId` in 2025-11-25 only), and
//! `notifications/elicitation/complete` (2025-11-25 only) reaches
//! `Client::elicitation_completions`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice, InputHandlers};
use mcp_toolkit_runtime::protocol::{
    CallToolResult, ElicitAction, ElicitRequestParams, ElicitResult, ElicitValue, Root,
    SamplingCapability,
};
use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef, ToolError};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};

const ERAS: [EraChoice; 2] = [EraChoice::Legacy, EraChoice::Modern];

#[derive(Clone, Copy, Debug)]
enum Transport {
    InMemory,
    Http,
}

fn name_question() -> ElicitRequestParams {
    serde_json::from_value(json!({
        "message": "Your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    }))
    .unwrap()
}

/// Asks for a name (form elicitation), a sample and the roots, and answers
/// with all three.
fn ask_all() -> ToolDef {
    ToolDef::new("ask_all", |call: ToolCall| async move {
        let context = call.context();
        let form = context.elicit(name_question()).await?;
        let Some(ElicitValue::String(name)) = form.content.and_then(|mut c| c.remove("name"))
        else {
            return Err(ToolError::new("no name"));
        };
        let question = serde_json::from_value(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}],
            "maxTokens": 20
        }))
        .unwrap();
        let sample = context.create_message(question).await?;
        let said = serde_json::to_value(&sample.content).unwrap()["text"].clone();
        let roots = context.list_roots().await?;
        let root = roots
            .roots
            .first()
            .map(|r| r.uri.clone())
            .unwrap_or_default();
        Ok(CallToolResult::text(format!(
            "{name}|{}|{}|{root}",
            said.as_str().unwrap_or_default(),
            sample.model
        )))
    })
}

/// Asks for the form only.
fn ask_name() -> ToolDef {
    ToolDef::new("ask_name", |call: ToolCall| async move {
        let answer = call.context().elicit(name_question()).await?;
        Ok(CallToolResult::text(format!("{:?}", answer.action)))
    })
}

/// Sends the user to a URL, then says the interaction finished.
fn sign_in() -> ToolDef {
    ToolDef::new("sign_in", |call: ToolCall| async move {
        let context = call.context();
        let answer = context
            .elicit_url(
                "Sign in to continue",
                "https://auth.example.com/start?session=42",
                "elicitation-42",
            )
            .await?;
        let sent = context.complete_elicitation("elicitation-42").await;
        Ok(CallToolResult::text(format!(
            "{:?}|sent={sent}",
            answer.action
        )))
    })
}

/// Asks for a sample only.
fn sample_only() -> ToolDef {
    ToolDef::new("sample_only", |call: ToolCall| async move {
        let question = serde_json::from_value(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}],
            "maxTokens": 5
        }))
        .unwrap();
        let sample = call.context().create_message(question).await?;
        Ok(CallToolResult::text(sample.model))
    })
}

fn server() -> Server {
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(ask_all())
        .tool(ask_name())
        .tool(sign_in())
        .tool(sample_only())
        .build()
        .unwrap()
}

async fn connect(transport: Transport, options: ConnectOptions) -> Client {
    match transport {
        Transport::InMemory => Client::connect_in_memory(server(), options).await.unwrap(),
        Transport::Http => {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let url = format!("http://{}/mcp", listener.local_addr().unwrap());
            tokio::spawn(server().serve_http_with(
                listener,
                HttpConfig::default(),
                std::future::pending(),
            ));
            Client::connect_http_with(&url, options).await.unwrap()
        }
    }
}

fn options(era: EraChoice, handlers: InputHandlers) -> ConnectOptions {
    ConnectOptions {
        era,
        ..ConnectOptions::default()
    }
    .input_handlers(handlers)
}

fn accept(content: Option<Value>) -> ElicitResult {
    ElicitResult {
        action: ElicitAction::Accept,
        content: content.map(|c| serde_json::from_value(c).unwrap()),
        meta: None,
    }
}

/// Handlers that answer everything, writing down what each one was asked.
fn recording_handlers(seen: Arc<Mutex<Vec<String>>>) -> InputHandlers {
    let (form_seen, sample_seen) = (seen.clone(), seen);
    InputHandlers::new()
        .on_elicit(move |form| {
            form_seen
                .lock()
                .unwrap()
                .push(format!("elicit: {}", form.message));
            async move { Ok(accept(Some(json!({"name": "Ada"})))) }
        })
        .on_create_message(move |params| {
            let asked = serde_json::to_value(&params.messages[0].content).unwrap()["text"].clone();
            sample_seen.lock().unwrap().push(format!(
                "sample: {} (max {})",
                asked.as_str().unwrap(),
                params.max_tokens
            ));
            async move {
                Ok(serde_json::from_value(json!({
                    "role": "assistant",
                    "content": {"type": "text", "text": "hi from the model"},
                    "model": "test-model"
                }))
                .unwrap())
            }
        })
        .roots(vec![Root {
            uri: "file:///project".into(),
            ..Root::default()
        }])
}

fn text(result: &CallToolResult) -> &str {
    result.content[0].as_text().unwrap()
}

#[tokio::test]
async fn each_typed_handler_answers_its_question_in_both_eras_and_transports() {
    for transport in [Transport::InMemory, Transport::Http] {
        for era in ERAS {
            let seen = Arc::new(Mutex::new(Vec::new()));
            let client = connect(transport, options(era, recording_handlers(seen.clone()))).await;
            let result = client.call_tool("ask_all", &json!({})).await.unwrap();
            assert_eq!(
                text(&result),
                "Ada|hi from the model|test-model|file:///project",
                "{transport:?} {era:?}"
            );
            assert_eq!(
                *seen.lock().unwrap(),
                ["elicit: Your name?", "sample: Say hi (max 20)"],
                "each handler asked once, with typed parameters ({transport:?} {era:?})"
            );
        }
    }
}

#[tokio::test]
async fn url_mode_reaches_its_handler_and_completion_reaches_the_app() {
    for transport in [Transport::InMemory, Transport::Http] {
        for era in ERAS {
            let asked = Arc::new(Mutex::new(Vec::new()));
            let recorded = asked.clone();
            let handlers = InputHandlers::new().on_url_elicit(move |params| {
                recorded
                    .lock()
                    .unwrap()
                    .push((params.message, params.url, params.elicitation_id));
                async { Ok(accept(None)) }
            });
            let client = connect(transport, options(era, handlers)).await;
            let mut completions = client.elicitation_completions();
            let result = client.call_tool("sign_in", &json!({})).await.unwrap();
            let legacy = era == EraChoice::Legacy;
            assert_eq!(
                text(&result),
                format!("Accept|sent={legacy}"),
                "{transport:?} {era:?}"
            );
            let id = legacy.then(|| "elicitation-42".to_owned());
            assert_eq!(
                *asked.lock().unwrap(),
                [(
                    "Sign in to continue".to_owned(),
                    "https://auth.example.com/start?session=42".to_owned(),
                    id
                )],
                "{transport:?} {era:?}"
            );
            let completed =
                tokio::time::timeout(Duration::from_millis(if legacy { 5000 } else { 300 }), {
                    completions.next()
                })
                .await;
            if legacy {
                let completed = completed.expect("a completion within 5 s").unwrap();
                assert_eq!(completed.elicitation_id, "elicitation-42", "{transport:?}");
            } else {
                assert!(
                    completed.is_err(),
                    "2026-07-28 has no elicitation/complete ({transport:?}): {completed:?}"
                );
            }
        }
    }
}

/// The -32021 error of a call, and its `requiredCapabilities`.
async fn missing_capability(client: &Client, tool: &str) -> Value {
    match client.call_tool(tool, &json!({})).await {
        Err(ClientError::Protocol(error)) if error.code == -32021 => {
            error.data.unwrap()["requiredCapabilities"].clone()
        }
        other => panic!("expected -32021 from {tool}, got {other:?}"),
    }
}

#[tokio::test]
async fn the_server_asks_only_in_the_modes_the_handlers_declare() {
    let form_only = || InputHandlers::new().on_elicit(|_| async { Ok(accept(None)) });
    let url_only = || InputHandlers::new().on_url_elicit(|_| async { Ok(accept(None)) });
    for era in ERAS {
        let client = connect(Transport::InMemory, options(era, form_only())).await;
        assert_eq!(
            missing_capability(&client, "sign_in").await,
            json!({"elicitation": {"url": {}}}),
            "{era:?}"
        );
        assert_eq!(
            missing_capability(&client, "sample_only").await,
            json!({"sampling": {}}),
            "{era:?}"
        );
        let client = connect(Transport::InMemory, options(era, url_only())).await;
        assert_eq!(
            missing_capability(&client, "ask_name").await,
            json!({"elicitation": {}}),
            "a URL-only client does not take forms ({era:?})"
        );
    }
}

#[tokio::test]
async fn a_kind_without_a_handler_is_declined() {
    for era in ERAS {
        let handlers = InputHandlers::new().on_elicit(|_| async { Ok(accept(None)) });
        let mut options = options(era, handlers);
        // Declared without a handler, so that the server asks.
        options.capabilities.sampling = Some(SamplingCapability::default());
        let client = connect(Transport::InMemory, options).await;
        let outcome = client.call_tool("sample_only", &json!({})).await;
        let why = match (era, outcome) {
            // 2026-07-28: the client cannot answer the round, so the call fails.
            (EraChoice::Modern, Err(ClientError::InputDeclined(why))) => why,
            // 2025-11-25: the server's request gets an error, which the tool
            // reports.
            (EraChoice::Legacy, Ok(result)) if result.is_error == Some(true) => {
                text(&result).to_owned()
            }
            (era, other) => panic!("{era:?}: {other:?}"),
        };
        assert!(
            why.contains("sampling, which this client has no handler for"),
            "{era:?}: {why}"
        );
    }
}
