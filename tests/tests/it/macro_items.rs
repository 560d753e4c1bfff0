//! Macro-built resources, resource templates, prompts and an eliciting tool,
//! served over an in-memory pipe and used through the runtime client in
//! both eras.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice, InputHandler};
use mcp_toolkit_runtime::protocol::{
    ClientCapabilities, Completion, ElicitRequestParams, ElicitValue, InputRequest, InputRequests,
    InputResponse, InputResponses, PromptMessage,
};
use mcp_toolkit_runtime::server::{
    BoxFuture, CompletionRequest, Era, Json, RequestContext, Server, ToolError,
};
use mcp_toolkit_runtime::transport::StdioConfig;
use mcp_toolkit_runtime::{mcp_prompt, mcp_resource, mcp_server, mcp_tool};
use serde::Serialize;
use serde_json::{Value, json};

struct Notes {
    notes: Mutex<BTreeMap<String, String>>,
}

#[mcp_server]
impl Notes {
    /// A note by title.
    #[mcp_resource(
        "notes://{title}{?upper}",
        mime_type = "text/markdown",
        complete = complete_title
    )]
    fn note(&self, title: String, upper: Option<bool>) -> Option<String> {
        let text = self.notes.lock().unwrap().get(&title).cloned()?;
        Some(if upper == Some(true) {
            text.to_uppercase()
        } else {
            text
        })
    }

    /// Summarize a note.
    ///
    /// # Arguments
    ///
    /// * `title` - The note's title.
    /// * `style` - How to summarize.
    #[mcp_prompt(title = "Summarize a note", complete = complete_style)]
    fn summarize(&self, title: String, style: Option<String>) -> Result<String, String> {
        let notes = self.notes.lock().unwrap();
        let text = notes.get(&title).ok_or(format!("no note `{title}`"))?;
        let style = style.as_deref().unwrap_or("briefly");
        Ok(format!("Summarize {style}:\n{text}"))
    }
}

/// Completes a note title (an async completion function).
async fn complete_title(request: CompletionRequest) -> Completion {
    completion(["todo", "today"], &request)
}

/// Completes the summary style (a sync completion function); the title is
/// completed too, from the context arguments' point of view.
fn complete_style(request: CompletionRequest) -> Completion {
    match request.argument.as_str() {
        "style" => completion(["briefly", "in bullets"], &request),
        _ => completion(["todo"], &request),
    }
}

fn completion<const N: usize>(values: [&str; N], request: &CompletionRequest) -> Completion {
    let values: Vec<String> = values
        .into_iter()
        .filter(|v| v.starts_with(&request.value))
        .map(str::to_owned)
        .collect();
    Completion {
        total: Some(values.len() as u64),
        has_more: Some(false),
        values,
    }
}

#[derive(Serialize)]
struct Stats {
    notes: u32,
}

/// Statistics.
#[mcp_resource("stats://notes")]
fn stats() -> Json<Stats> {
    Json(Stats { notes: 1 })
}

/// The logo.
#[mcp_resource("images://logo", mime_type = "image/png")]
async fn logo() -> Vec<u8> {
    vec![1, 2, 3]
}

/// Count down.
#[mcp_prompt(name = "count-down")]
fn countdown(from: u8) -> Vec<PromptMessage> {
    (0..=from)
        .rev()
        .map(|n| PromptMessage::user(n.to_string()))
        .collect()
}

/// Greet the user by the name they give.
#[mcp_tool]
async fn greet(ctx: RequestContext) -> Result<String, ToolError> {
    let question: ElicitRequestParams = serde_json::from_value(json!({
        "message": "What is your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    }))?;
    let answer = ctx.elicit(question).await?;
    match answer.content.and_then(|mut c| c.remove("name")) {
        Some(ElicitValue::String(name)) => Ok(format!("Hello, {name}!")),
        _ => Err(ToolError::new("no name given")),
    }
}

fn server() -> Server {
    let notes = Arc::new(Notes {
        notes: Mutex::new(BTreeMap::from([("todo".into(), "Write tests".into())])),
    });
    Server::builder(mcp_toolkit_runtime::server_info!())
        .register(notes.mcp_definitions())
        .register(mcp_toolkit_runtime::definitions![
            stats, logo, countdown, greet
        ])
        .build()
        .unwrap()
}

/// Answers every elicitation with the name "Ada".
struct Ada;

impl InputHandler for Ada {
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>> {
        let responses = requests
            .into_iter()
            .map(|(key, request)| {
                assert!(matches!(request, InputRequest::Elicit(_)), "{request:?}");
                let response: InputResponse =
                    serde_json::from_value(json!({"action": "accept", "content": {"name": "Ada"}}))
                        .unwrap();
                (key, response)
            })
            .collect();
        Box::pin(async move { Ok(responses) })
    }
}

async fn connect(era: EraChoice) -> Client {
    let (client_out, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, client_in) = tokio::io::duplex(1 << 16);
    tokio::spawn(server().serve_io(server_in, server_out, StdioConfig::default()));
    let options = ConnectOptions {
        era,
        capabilities: serde_json::from_value::<ClientCapabilities>(json!({"elicitation": {}}))
            .unwrap(),
        input_handler: Some(Arc::new(Ada)),
        ..ConnectOptions::default()
    };
    Client::connect_io(client_in, client_out, options)
        .await
        .unwrap()
}

const ERAS: [(EraChoice, Era); 2] = [
    (EraChoice::Modern, Era::Modern),
    (EraChoice::Legacy, Era::Legacy),
];

async fn read(client: &Client, uri: &str) -> Result<Value, ClientError> {
    client
        .request::<_, Value>("resources/read", &json!({"uri": uri}))
        .await
}

#[tokio::test]
async fn resources_are_listed_and_read() {
    for (choice, era) in ERAS {
        let client = connect(choice).await;
        assert_eq!(client.server().era, era);
        let list: Value = client.request("resources/list", &json!({})).await.unwrap();
        let resources = &list["resources"];
        assert_eq!(resources.as_array().unwrap().len(), 2, "{list}");
        // Listed in URI order.
        assert_eq!(resources[0]["uri"], "images://logo");
        assert_eq!(resources[0]["mimeType"], "image/png");
        assert_eq!(resources[1]["uri"], "stats://notes");
        assert_eq!(resources[1]["mimeType"], "application/json");
        assert_eq!(resources[1]["description"], "Statistics.");
        let templates: Value = client
            .request("resources/templates/list", &json!({}))
            .await
            .unwrap();
        let template = &templates["resourceTemplates"][0];
        assert_eq!(template["uriTemplate"], "notes://{title}{?upper}");
        assert_eq!(template["name"], "note");
        assert_eq!(template["mimeType"], "text/markdown");

        let note = read(&client, "notes://todo").await.unwrap();
        assert_eq!(note["contents"][0]["text"], "Write tests", "{era:?}");
        assert_eq!(note["contents"][0]["mimeType"], "text/markdown");
        assert_eq!(note["contents"][0]["uri"], "notes://todo");
        let upper = read(&client, "notes://todo?upper=true").await.unwrap();
        assert_eq!(upper["contents"][0]["text"], "WRITE TESTS");
        let ClientError::Protocol(missing) = read(&client, "notes://nothing").await.unwrap_err()
        else {
            panic!("a JSON-RPC error expected")
        };
        assert_eq!(missing.code, -32602);
        assert!(missing.message.contains("not found"), "{missing:?}");
        let ClientError::Protocol(unparsed) =
            read(&client, "notes://todo?upper=maybe").await.unwrap_err()
        else {
            panic!("a JSON-RPC error expected")
        };
        assert_eq!(unparsed.code, -32602);
        assert!(unparsed.message.contains("`upper`"), "{unparsed:?}");

        let stats = read(&client, "stats://notes").await.unwrap();
        assert_eq!(stats["contents"][0]["text"], r#"{"notes":1}"#);
        let logo = read(&client, "images://logo").await.unwrap();
        assert_eq!(logo["contents"][0]["blob"], "AQID");
        assert_eq!(logo["contents"][0]["mimeType"], "image/png");
    }
}

#[tokio::test]
async fn prompts_are_listed_and_got() {
    for (choice, _) in ERAS {
        let client = connect(choice).await;
        let list: Value = client.request("prompts/list", &json!({})).await.unwrap();
        // Listed in name order.
        assert_eq!(list["prompts"][0]["name"], "count-down");
        let summarize = &list["prompts"][1];
        assert_eq!(summarize["name"], "summarize");
        assert_eq!(summarize["title"], "Summarize a note");
        assert_eq!(summarize["description"], "Summarize a note.");
        assert_eq!(
            summarize["arguments"],
            json!([
                {"name": "title", "description": "The note's title.", "required": true},
                {"name": "style", "description": "How to summarize.", "required": false}
            ])
        );

        let got: Value = client
            .request(
                "prompts/get",
                &json!({"name": "summarize", "arguments": {"title": "todo"}}),
            )
            .await
            .unwrap();
        assert_eq!(got["messages"][0]["role"], "user");
        assert_eq!(
            got["messages"][0]["content"]["text"],
            "Summarize briefly:\nWrite tests"
        );
        let ClientError::Protocol(error) = client
            .request::<_, Value>(
                "prompts/get",
                &json!({"name": "summarize", "arguments": {"title": "nope"}}),
            )
            .await
            .unwrap_err()
        else {
            panic!("a JSON-RPC error expected")
        };
        assert_eq!(error.code, -32603);
        assert!(error.message.contains("no note `nope`"), "{error:?}");

        let counted: Value = client
            .request(
                "prompts/get",
                &json!({"name": "count-down", "arguments": {"from": "2"}}),
            )
            .await
            .unwrap();
        let texts: Vec<&str> = counted["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["content"]["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, ["2", "1", "0"]);
    }
}

#[tokio::test]
async fn a_macro_tool_elicits_in_both_eras() {
    for (choice, era) in ERAS {
        let client = connect(choice).await;
        let result = client.call_tool("greet", &json!({})).await.unwrap();
        assert_eq!(result.is_error, None, "{era:?}: {result:?}");
        assert_eq!(result.content[0].as_text(), Some("Hello, Ada!"), "{era:?}");
    }
}

#[tokio::test]
async fn macro_prompts_and_templates_complete_their_arguments() {
    for (choice, era) in ERAS {
        let client = connect(choice).await;
        let complete = |reference: Value, name: &str, value: &str| {
            let params = json!({"ref": reference, "argument": {"name": name, "value": value}});
            let client = &client;
            async move {
                client
                    .request::<_, Value>("completion/complete", &params)
                    .await
                    .unwrap()
            }
        };
        let style = complete(
            json!({"type": "ref/prompt", "name": "summarize"}),
            "style",
            "in",
        )
        .await;
        assert_eq!(
            style["completion"],
            json!({"values": ["in bullets"], "total": 1, "hasMore": false}),
            "{era:?}"
        );
        let title = complete(
            json!({"type": "ref/resource", "uri": "notes://{title}{?upper}"}),
            "title",
            "to",
        )
        .await;
        assert_eq!(
            title["completion"]["values"],
            json!(["todo", "today"]),
            "{era:?}"
        );
        // A prompt without `complete` answers with no values.
        let none = complete(
            json!({"type": "ref/prompt", "name": "count-down"}),
            "from",
            "1",
        )
        .await;
        assert_eq!(none["completion"]["values"], json!([]), "{era:?}");
    }
}
