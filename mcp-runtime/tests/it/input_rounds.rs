//! Asking the client for input mid-request: a server-to-client request in the
//! legacy era, an `input_required` round trip with a sealed `requestState`
//! in 2026-07-28; the same handler code serves both.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice, InputHandler};
use mcp_toolkit_runtime::protocol::{
    CallToolResult, ClientCapabilities, ElicitRequestParams, ElicitValue, InputRequest,
    InputRequests, InputResponse, InputResponses,
};
use mcp_toolkit_runtime::server::{
    BoxFuture, Era, InputError, Server, ServerOptions, StateKey, ToolCall, ToolDef, ToolError,
};
use mcp_toolkit_runtime::transport::StdioConfig;
use serde_json::{Value, json};

fn question(message: &str) -> ElicitRequestParams {
    serde_json::from_value(json!({
        "message": message,
        "requestedSchema": {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
    }))
    .unwrap()
}

/// Asks two questions in turn, then answers with both.
fn interview() -> ToolDef {
    ToolDef::new("interview", |call: ToolCall| async move {
        let context = call.context();
        let mut answers = Vec::new();
        for topic in ["name", "quest"] {
            let result = context
                .elicit(question(&format!("What is your {topic}?")))
                .await?;
            let Some(ElicitValue::String(answer)) =
                result.content.and_then(|mut c| c.remove("answer"))
            else {
                return Err(ToolError::new("no answer"));
            };
            answers.push(answer);
        }
        Ok(CallToolResult::text(answers.join(" / ")))
    })
}

fn server(key: StateKey) -> Server {
    Server::builder(mcp_toolkit_runtime::server_info!())
        .options(ServerOptions {
            request_state_key: key,
            ..ServerOptions::default()
        })
        .tool(interview())
        .build()
        .unwrap()
}

/// Answers every elicitation with the text of its message, reversed, and
/// counts the questions it saw.
struct Answers(Arc<AtomicUsize>);

impl InputHandler for Answers {
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>> {
        self.0.fetch_add(requests.len(), Ordering::SeqCst);
        let responses = requests
            .into_iter()
            .map(|(key, request)| {
                let InputRequest::Elicit(elicit) = request else {
                    panic!("only elicitation expected")
                };
                let ElicitRequestParams::Form(form) = elicit.params else {
                    panic!("form mode expected")
                };
                let answer = form
                    .message
                    .trim_start_matches("What is your ")
                    .trim_end_matches('?')
                    .to_uppercase();
                let response: InputResponse = serde_json::from_value(
                    json!({"action": "accept", "content": {"answer": answer}}),
                )
                .unwrap();
                (key, response)
            })
            .collect();
        Box::pin(async move { Ok(responses) })
    }
}

async fn connect(
    server: Server,
    era: EraChoice,
    elicitation: bool,
    asked: Arc<AtomicUsize>,
) -> Client {
    let capabilities: ClientCapabilities = serde_json::from_value(if elicitation {
        json!({"elicitation": {}})
    } else {
        json!({})
    })
    .unwrap();
    let options = ConnectOptions {
        era,
        capabilities,
        input_handler: Some(Arc::new(Answers(asked))),
        ..ConnectOptions::default()
    };
    Client::connect_in_memory(server, options).await.unwrap()
}

#[tokio::test]
async fn the_same_handler_asks_in_both_eras() {
    for (choice, era) in [
        (EraChoice::Modern, Era::Modern),
        (EraChoice::Legacy, Era::Legacy),
    ] {
        let asked = Arc::new(AtomicUsize::new(0));
        let client = connect(server(StateKey::random()), choice, true, asked.clone()).await;
        assert_eq!(client.server().era, era);
        let result = client.call_tool("interview", &json!({})).await.unwrap();
        assert_eq!(result.content[0].as_text(), Some("NAME / QUEST"), "{era:?}");
        assert_eq!(
            asked.load(Ordering::SeqCst),
            2,
            "each question asked once ({era:?})"
        );
    }
}

#[tokio::test]
async fn a_client_without_the_capability_gets_32021() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let client = connect(server(StateKey::random()), era, false, Arc::default()).await;
        let error = client.call_tool("interview", &json!({})).await.unwrap_err();
        let ClientError::Protocol(error) = error else {
            panic!("{error:?}")
        };
        assert_eq!(error.code, -32021);
        assert_eq!(
            error.data.unwrap()["requiredCapabilities"],
            json!({"elicitation": {}})
        );
    }
}

/// Raw 2026-07-28 requests, to see the rounds on the wire.
async fn raw_call(server: &Server, params: Value) -> Value {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (mut client_out, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, client_in) = tokio::io::duplex(1 << 16);
    tokio::spawn(
        server
            .clone()
            .serve_io(server_in, server_out, StdioConfig::default()),
    );
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    });
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    client_out
        .write_all(format!("{request}\n").as_bytes())
        .await
        .unwrap();
    let line = BufReader::new(client_in)
        .lines()
        .next_line()
        .await
        .unwrap()
        .unwrap();
    serde_json::from_str(&line).unwrap()
}

#[tokio::test]
async fn request_state_is_sealed_and_bound_to_the_request() {
    let key = StateKey::new([9; 32]);
    let server_a = server(key.clone());
    let first = raw_call(&server_a, json!({"name": "interview", "arguments": {}})).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"]["input-0"]["method"],
        "elicitation/create"
    );
    let state = result["requestState"].as_str().unwrap().to_owned();

    let answer = json!({"input-0": {"action": "accept", "content": {"answer": "Ada"}}});
    // Another instance with the same key continues the request.
    let server_b = server(key.clone());
    let second = raw_call(&server_b, json!({"name": "interview", "arguments": {}, "inputResponses": answer, "requestState": state})).await;
    assert_eq!(second["result"]["resultType"], "input_required");
    assert!(
        second["result"]["inputRequests"].get("input-1").is_some(),
        "{second}"
    );

    // A different key, tampered state, or other arguments are refused.
    let server_c = server(StateKey::new([1; 32]));
    let refused = raw_call(&server_c, json!({"name": "interview", "arguments": {}, "inputResponses": answer, "requestState": state})).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let mut tampered = state.clone();
    tampered.insert(5, 'x');
    let refused = raw_call(&server_a, json!({"name": "interview", "arguments": {}, "inputResponses": answer, "requestState": tampered})).await;
    assert_eq!(refused["error"]["code"], -32602);
    let refused = raw_call(&server_a, json!({"name": "interview", "arguments": {"x": 1}, "inputResponses": answer, "requestState": state})).await;
    assert_eq!(refused["error"]["code"], -32602);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("different request"),
        "{refused}"
    );
}

#[tokio::test]
async fn an_answer_is_read_as_its_question_asked_and_only_when_asked() {
    let server = server(StateKey::random());
    // A sampling result is no answer to an elicitation: -32602 naming the key.
    let sampled = json!({"input-0": {"role": "assistant", "model": "m",
        "content": {"type": "text", "text": "Ada"}}});
    let refused = raw_call(
        &server,
        json!({"name": "interview", "arguments": {}, "inputResponses": sampled}),
    )
    .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("inputResponses.input-0"), "{refused}");
    assert!(message.contains("action"), "{refused}");

    // An answer to a question never asked is never read, however it looks,
    // nor carried into the next round's requestState.
    let answers = json!({"input-0": {"action": "accept", "content": {"answer": "Ada"}},
        "unasked": 5, "bulk": "x".repeat(50_000)});
    let next = raw_call(
        &server,
        json!({"name": "interview", "arguments": {}, "inputResponses": answers}),
    )
    .await;
    assert_eq!(next["result"]["resultType"], "input_required", "{next}");
    assert!(
        next["result"]["inputRequests"].get("input-1").is_some(),
        "{next}"
    );
    let state = next["result"]["requestState"].as_str().unwrap();
    assert!(state.len() < 1_000, "{} bytes of requestState", state.len());
    // The answer read was carried on: the last round brings only its own.
    let last = json!({"input-1": {"action": "accept", "content": {"answer": "the Grail"}}});
    let done = raw_call(
        &server,
        json!({"name": "interview", "arguments": {},
        "inputResponses": last, "requestState": state}),
    )
    .await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Ada / the Grail",
        "{done}"
    );
}

#[test]
fn input_errors_read_well() {
    assert_eq!(
        InputError::MissingCapability("sampling").to_string(),
        "the client does not support sampling"
    );
}
