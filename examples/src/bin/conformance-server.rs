//! The server the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`) tests: every `test_*` tool,
//! resource and prompt the suite's scenarios call, in both protocol eras.
//!
//! Run `cargo run -p mcp-examples --bin conformance-server -- --http 127.0.0.1:3001`
//! and point the suite at `http://127.0.0.1:3001/mcp`; without `--http` it
//! serves stdio. `.ci/conformance.sh` runs both suite versions against it.
//! (One file on purpose: it mirrors the suite's scenario list item by item,
//! so a reader checks coverage against the suite in one place.)
//!
//! The `greet`, `slow_compute`, `failing_job`, `protocol_error_job`,
//! `confirm_delete`, `multi_input` and `test_tool_with_task` tools serve the
//! tasks extension scenarios (`tasks-*`, SEP-2663): they opt in with
//! `#[mcp_tool(task_support = ...)]`.
//!
//! The `pdf-processing` skill serves the Skills extension scenarios
//! (`sep-2640-skills-*`): a `SKILL.md` and a file in a subdirectory, so
//! that `resources/directory/read` has a subdirectory to list.
//!
//! Tools use `#[mcp_tool]`, resources `#[mcp_resource]` and prompts
//! `#[mcp_prompt]` (with `complete = ...` for argument completion). Only the
//! JSON Schema 2020-12 tool is built with `ToolDef`, because its hand-written
//! schema must be served verbatim rather than derived from a signature.

use std::time::Duration;

use mcp_examples::{Example, Flag};
use mcp_toolkit_runtime::jsonrpc::ErrorObject;
use mcp_toolkit_runtime::protocol::{
    CallToolResult, Completion, ContentBlock, InputRequest, InputResponse, LoggingLevel,
    PromptMessage, ResourceContents,
};
use mcp_toolkit_runtime::server::{
    CompletionRequest, InputError, Json, ListChanges, RequestContext, Server, SkillDef, ToolCall,
    ToolDef, ToolError,
};
use mcp_toolkit_runtime::{mcp_prompt, mcp_resource, mcp_server, mcp_tool};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A 1x1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A tiny WAV file.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// Builds a protocol value from its JSON form (the suite fixes the exact
/// wire shape, so the JSON is the clearest way to write it down).
fn wire<T: DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("a well-formed protocol value")
}

fn image() -> ContentBlock {
    wire(json!({"type": "image", "data": PNG, "mimeType": "image/png"}))
}

/// Turns a failed question into the tool's answer; `Pending` must reach the
/// runtime unchanged so that it ends the round with `input_required`.
fn input_failed(error: InputError) -> ToolError {
    ToolError::new(error.to_string())
}

/// The tools, resources and prompts of the suite, sharing the list-change
/// channel the trigger tools fire.
struct Conformance {
    changes: ListChanges,
}

#[mcp_server]
impl Conformance {
    /// Returns a simple text response.
    #[mcp_tool]
    fn test_simple_text() -> &'static str {
        "This is a simple text response for testing."
    }

    /// Returns a PNG image.
    #[mcp_tool]
    fn test_image_content() -> CallToolResult {
        CallToolResult::from_content(vec![image()])
    }

    /// Returns a WAV audio clip.
    #[mcp_tool]
    fn test_audio_content() -> CallToolResult {
        CallToolResult::from_content(vec![wire(
            json!({"type": "audio", "data": WAV, "mimeType": "audio/wav"}),
        )])
    }

    /// Returns an embedded text resource.
    #[mcp_tool]
    fn test_embedded_resource() -> CallToolResult {
        CallToolResult::from_content(vec![wire(json!({
            "type": "resource",
            "resource": {
                "uri": "test://embedded-resource",
                "mimeType": "text/plain",
                "text": "This is an embedded resource content."
            }
        }))])
    }

    /// Returns text, an image and an embedded resource together.
    #[mcp_tool]
    fn test_multiple_content_types() -> CallToolResult {
        CallToolResult::from_content(vec![
            ContentBlock::text("Multiple content types test:"),
            image(),
            wire(json!({
                "type": "resource",
                "resource": {
                    "uri": "test://mixed-content-resource",
                    "mimeType": "application/json",
                    "text": "{\"test\":\"data\",\"value\":123}"
                }
            })),
        ])
    }

    /// Sends three log messages while it runs.
    #[mcp_tool]
    async fn test_tool_with_logging(context: RequestContext) -> &'static str {
        let steps = [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ];
        for (i, step) in steps.into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            context.log(LoggingLevel::Info, None, json!(step)).await;
        }
        "Tool with logging executed successfully"
    }

    /// Reports progress 0, 50 and 100 of 100.
    #[mcp_tool]
    async fn test_tool_with_progress(context: RequestContext) -> String {
        for (i, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let message = format!("Completed step {} of 3", i + 1);
            context
                .report_progress(progress, Some(100.0), Some(&message))
                .await;
        }
        match context.meta().and_then(|m| m.get("progressToken")) {
            Some(token) => format!("Progress test completed (token {token})"),
            None => "Progress test completed".to_owned(),
        }
    }

    /// Always fails, as a result with `isError: true`.
    #[mcp_tool]
    fn test_error_handling() -> Result<String, ToolError> {
        Err(ToolError::new(
            "This tool intentionally returns an error for testing",
        ))
    }

    /// Asks the client's model to answer `prompt`.
    ///
    /// # Arguments
    ///
    /// * `prompt` - The prompt to send to the model.
    #[mcp_tool]
    async fn test_sampling(prompt: String, context: RequestContext) -> Result<String, ToolError> {
        let answer = context
            .create_message(wire(json!({
                "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
                "maxTokens": 100
            })))
            .await
            .map_err(input_failed)?;
        let text = serde_json::to_value(&answer.content)
            .ok()
            .and_then(|c| c.get("text").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| "(no text)".to_owned());
        Ok(format!("LLM response: {text}"))
    }

    /// Asks the user for a name and an email address.
    ///
    /// # Arguments
    ///
    /// * `message` - The message to show the user.
    #[mcp_tool]
    async fn test_elicitation(
        message: String,
        context: RequestContext,
    ) -> Result<String, ToolError> {
        elicit(
            &context,
            "User response",
            json!({
                "message": message,
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "username": {"type": "string", "description": "User's response"},
                        "email": {"type": "string", "description": "User's email address"}
                    },
                    "required": ["username", "email"]
                }
            }),
        )
        .await
    }

    /// Asks for a form whose fields all have defaults (SEP-1034).
    #[mcp_tool]
    async fn test_elicitation_sep1034_defaults(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        elicit(
            &context,
            "Elicitation completed",
            json!({
                "message": "Please review and update the form fields with defaults",
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "description": "User name", "default": "John Doe"},
                        "age": {"type": "integer", "description": "User age", "default": 30},
                        "score": {"type": "number", "description": "User score", "default": 95.5},
                        "status": {
                            "type": "string",
                            "description": "User status",
                            "enum": ["active", "inactive", "pending"],
                            "default": "active"
                        },
                        "verified": {"type": "boolean", "description": "Verification status", "default": true}
                    },
                    "required": []
                }
            }),
        )
        .await
    }

    /// Asks for a form with every enum shape (SEP-1330).
    #[mcp_tool]
    async fn test_elicitation_sep1330_enums(context: RequestContext) -> Result<String, ToolError> {
        let options = |titles: [&str; 3]| {
            titles
                .iter()
                .enumerate()
                .map(|(i, title)| json!({"const": format!("value{}", i + 1), "title": title}))
                .collect::<Vec<_>>()
        };
        elicit(
            &context,
            "Elicitation completed",
            json!({
                "message": "Please select options from the enum fields",
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "untitledSingle": {
                            "type": "string",
                            "description": "Select one option",
                            "enum": ["option1", "option2", "option3"]
                        },
                        "titledSingle": {
                            "type": "string",
                            "description": "Select one option with titles",
                            "oneOf": options(["First Option", "Second Option", "Third Option"])
                        },
                        "legacyEnum": {
                            "type": "string",
                            "description": "Select one option (legacy)",
                            "enum": ["opt1", "opt2", "opt3"],
                            "enumNames": ["Option One", "Option Two", "Option Three"]
                        },
                        "untitledMulti": {
                            "type": "array",
                            "description": "Select multiple options",
                            "minItems": 1,
                            "maxItems": 3,
                            "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
                        },
                        "titledMulti": {
                            "type": "array",
                            "description": "Select multiple options with titles",
                            "minItems": 1,
                            "maxItems": 3,
                            "items": {"anyOf": options(["First Choice", "Second Choice", "Third Choice"])}
                        }
                    },
                    "required": []
                }
            }),
        )
        .await
    }

    /// Closes its response stream before answering; the client reconnects
    /// to get the result (SEP-1699).
    #[mcp_tool]
    async fn test_reconnection() -> &'static str {
        tokio::time::sleep(Duration::from_millis(100)).await;
        "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."
    }

    /// Needs sampling: fails with -32021 when the client did not declare it.
    #[mcp_tool]
    async fn test_missing_capability(context: RequestContext) -> Result<&'static str, ToolError> {
        context
            .create_message(wire(json!({
                "messages": [{"role": "user", "content": {"type": "text", "text": "Say success"}}],
                "maxTokens": 10
            })))
            .await
            .map_err(input_failed)?;
        Ok("Success")
    }

    /// Streams a progress notification before its result, and never a
    /// request.
    #[mcp_tool]
    async fn test_streaming_elicitation(context: RequestContext) -> &'static str {
        context
            .report_progress(50.0, Some(100.0), Some("streaming"))
            .await;
        "Streaming complete"
    }

    /// Logs only when the request asked for a log level.
    #[mcp_tool]
    async fn test_logging_tool(context: RequestContext) -> &'static str {
        context
            .log(LoggingLevel::Info, None, json!("logging tool ran"))
            .await;
        "Logging complete"
    }

    /// Announces that the tool list changed.
    #[mcp_tool]
    fn test_trigger_tool_change(&self) -> &'static str {
        self.changes.tools_changed();
        "Mutation triggered"
    }

    /// Announces that the prompt list changed.
    #[mcp_tool]
    fn test_trigger_prompt_change(&self) -> &'static str {
        self.changes.prompts_changed();
        "Mutation triggered"
    }

    /// Announces that `test://watched-resource` changed.
    #[mcp_tool]
    fn test_trigger_resource_update(&self) -> &'static str {
        self.changes.resource_updated("test://watched-resource");
        "Mutation triggered"
    }

    /// Asks the user's name (key `user_name`), then greets them.
    #[mcp_tool]
    async fn test_input_required_result_elicitation(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        let answer = ask_name(&context).await?;
        let name = answer
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("stranger");
        Ok(format!("Hello, {name}!"))
    }

    /// Asks the client's model a question (key `capital_question`).
    #[mcp_tool]
    async fn test_input_required_result_sampling(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        let answer = ask(
            &context,
            "capital_question",
            sampling("What is the capital of France?"),
        )
        .await?;
        Ok(format!("Model answered: {}", text_of(&answer)))
    }

    /// Asks the client for its roots (key `client_roots`).
    #[mcp_tool]
    async fn test_input_required_result_list_roots(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        let answer = ask(&context, "client_roots", roots()).await?;
        let count = answer
            .get("roots")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        Ok(format!("Client has {count} root(s)"))
    }

    /// Asks for a confirmation; the answer round carries `requestState`.
    #[mcp_tool]
    async fn test_input_required_result_request_state(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        let answer = ask(&context, "confirm", confirm("Please confirm to continue")).await?;
        Ok(format!("state-ok: confirmed={}", answer["content"]["ok"]))
    }

    /// Asks three questions at once: elicitation, sampling and roots.
    #[mcp_tool]
    async fn test_input_required_result_multiple_inputs(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        let (name, capital, roots) = tokio::join!(
            ask_name(&context),
            ask(
                &context,
                "capital_question",
                sampling("What is the capital of France?")
            ),
            ask(&context, "client_roots", roots()),
        );
        let (name, capital, roots) = (name?, capital?, roots?);
        Ok(format!(
            "All inputs received: name={}, answer={}, roots={}",
            name["name"],
            text_of(&capital),
            roots["roots"].as_array().map_or(0, Vec::len)
        ))
    }

    /// Asks two questions in two rounds.
    #[mcp_tool]
    async fn test_input_required_result_multi_round(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        let first = ask(
            &context,
            "step1",
            text_question("What is your name?", "name"),
        )
        .await?;
        let second = ask(
            &context,
            "step2",
            text_question("What is your favorite color?", "color"),
        )
        .await?;
        Ok(format!(
            "Multi-round complete: name={}, color={}",
            first["content"]["name"], second["content"]["color"]
        ))
    }

    /// Asks for a confirmation; a tampered `requestState` is refused.
    #[mcp_tool]
    async fn test_input_required_result_tampered_state(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        ask(&context, "confirm", confirm("Please confirm to continue")).await?;
        Ok("Confirmed with an intact request state".to_owned())
    }

    /// Asks only for what the client declared it supports.
    #[mcp_tool]
    async fn test_input_required_result_capabilities(
        context: RequestContext,
    ) -> Result<String, ToolError> {
        let caps = &context.client().capabilities;
        if caps.elicitation.is_some() {
            ask_name(&context).await?;
        } else if caps.sampling.is_some() {
            ask(
                &context,
                "capital_question",
                sampling("What is the capital of France?"),
            )
            .await?;
        } else if caps.roots.is_some() {
            ask(&context, "client_roots", roots()).await?;
        }
        Ok("Capability-aware input complete".to_owned())
    }

    /// Mirrors `region` into the `Mcp-Param-Region` header (SEP-2243), so
    /// that the suite can check how the server validates custom headers.
    ///
    /// # Arguments
    /// * `region` - Any text; the request's `Mcp-Param-Region` header must
    ///   carry it.
    #[mcp_tool]
    fn test_header_echo(#[mcp(header = "Region")] region: String) -> String {
        format!("Region: {region}")
    }

    // Tasks (io.modelcontextprotocol/tasks): the fixtures of the tasks-*
    // scenarios.

    /// Greets `name` at once (never a task).
    #[mcp_tool]
    fn greet(name: String) -> String {
        format!("Hello, {name}!")
    }

    /// Works for `seconds` (at most an hour), then reports the work; runs
    /// as a task for clients that support tasks.
    ///
    /// # Arguments
    /// * `seconds` - How long to work.
    /// * `label` - A name for the computation, echoed in the result.
    #[mcp_tool(task_support = "optional")]
    async fn slow_compute(seconds: f64, label: Option<String>) -> String {
        tokio::time::sleep(Duration::from_secs_f64(seconds.clamp(0.0, 3600.0))).await;
        format!(
            "Computed {} in {seconds} s",
            label.as_deref().unwrap_or("the answer")
        )
    }

    /// Works for a second, then fails with a tool error; runs only as a
    /// task.
    #[mcp_tool(task_support = "required")]
    async fn failing_job() -> Result<String, ToolError> {
        tokio::time::sleep(Duration::from_secs(1)).await;
        Err(ToolError::new("The job failed after one second of work"))
    }

    /// Works for a second, then panics: the call ends with a JSON-RPC
    /// internal error (a task's `failed` status).
    #[mcp_tool(task_support = "optional")]
    async fn protocol_error_job() -> String {
        tokio::time::sleep(Duration::from_secs(1)).await;
        panic!("protocol_error_job fails on purpose")
    }

    /// Asks the user to confirm deleting `filename` from within its task,
    /// then reports the decision (nothing is deleted).
    #[mcp_tool(task_support = "optional")]
    async fn confirm_delete(
        filename: String,
        context: RequestContext,
    ) -> Result<String, ToolError> {
        context.start_task().await;
        let answer = ask(
            &context,
            "confirm_delete",
            confirm_field(&format!("Delete {filename}?"), "confirm"),
        )
        .await?;
        match answer["content"]["confirm"].as_bool() {
            Some(true) => Ok(format!("Deleted {filename}")),
            _ => Ok(format!("Kept {filename}")),
        }
    }

    /// Asks two questions at once from within its task (a name and a
    /// confirmation), then reports both answers.
    #[mcp_tool(task_support = "optional")]
    async fn multi_input(context: RequestContext) -> Result<String, ToolError> {
        context.start_task().await;
        let (name, confirmed) = tokio::join!(
            ask(
                &context,
                "name",
                text_question("What is your name?", "name")
            ),
            ask(&context, "confirm", confirm_field("Proceed?", "confirm")),
        );
        let (name, confirmed) = (name?, confirmed?);
        Ok(format!(
            "Received name={} confirm={}",
            name["content"]["name"], confirmed["content"]["confirm"]
        ))
    }

    /// Asks the user's name before it starts (an `input_required` round),
    /// then greets them from a task; runs only as a task.
    #[mcp_tool(task_support = "required")]
    async fn test_tool_with_task(context: RequestContext) -> Result<String, ToolError> {
        let answer = ask_name(&context).await?;
        context.start_task().await;
        let name = answer
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("stranger");
        Ok(format!("Hello, {name}, from a task!"))
    }

    // Resources, in the order `resources/list` shows them (the modern
    // `caching` scenario reads the first one, so `static-text` leads).

    /// A static text resource
    #[mcp_resource("test://static-text", name = "static-text")]
    fn static_text() -> &'static str {
        "This is the content of the static text resource."
    }

    /// A static binary resource (a PNG image)
    #[mcp_resource(
        "test://static-binary",
        name = "static-binary",
        mime_type = "image/png"
    )]
    fn static_binary() -> ResourceContents {
        wire(json!({"uri": "test://static-binary", "mimeType": "image/png", "blob": PNG}))
    }

    /// A resource clients may subscribe to
    #[mcp_resource("test://watched-resource", name = "watched-resource")]
    fn watched_resource() -> &'static str {
        "Watched resource content"
    }

    /// A resource template with an id parameter
    #[mcp_resource("test://template/{id}/data", name = "template")]
    fn template(id: String) -> Json<Value> {
        Json(json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}))
    }

    /// A simple prompt without arguments
    #[mcp_prompt]
    fn test_simple_prompt() -> &'static str {
        "This is a simple prompt for testing."
    }

    /// A prompt with required arguments
    ///
    /// # Arguments
    ///
    /// * `arg1` - First test argument
    /// * `arg2` - Second test argument
    #[mcp_prompt(complete = complete_test_values)]
    fn test_prompt_with_arguments(arg1: String, arg2: String) -> String {
        format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
    }

    /// A prompt with an embedded resource
    ///
    /// # Arguments
    ///
    /// * `resource_uri` - URI of the resource to embed
    #[mcp_prompt]
    fn test_prompt_with_embedded_resource(
        #[mcp(rename = "resourceUri")] resource_uri: String,
    ) -> Vec<PromptMessage> {
        vec![
            wire(
                json!({"role": "user", "content": {"type": "resource", "resource": {
                    "uri": resource_uri,
                    "mimeType": "text/plain",
                    "text": "Embedded resource content for testing."
                }}}),
            ),
            PromptMessage::user("Please process the embedded resource above."),
        ]
    }

    /// A prompt with an image
    #[mcp_prompt]
    fn test_prompt_with_image() -> Vec<PromptMessage> {
        vec![
            wire(
                json!({"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}}),
            ),
            PromptMessage::user("Please analyze the image above."),
        ]
    }

    /// A prompt that asks the user for context first (SEP-2322)
    #[mcp_prompt]
    async fn test_input_required_result_prompt(
        context: RequestContext,
    ) -> Result<Vec<PromptMessage>, ErrorObject> {
        let question = json!({
            "method": "elicitation/create",
            "params": {
                "message": "What context should the prompt use?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"context": {"type": "string"}},
                    "required": ["context"]
                }
            }
        });
        let answer = match context.ask_as("user_context", wire(question)).await {
            Ok(answer) => serde_json::to_value(answer).unwrap_or_default(),
            Err(InputError::Pending) => return Ok(Vec::new()),
            Err(error) => return Err(ErrorObject::invalid_params(error.to_string())),
        };
        Ok(vec![PromptMessage::user(format!(
            "Prompt with user context: {}",
            answer["content"]["context"]
        ))])
    }
}

/// Completes `test_prompt_with_arguments`' arguments from the suite's values.
fn complete_test_values(request: CompletionRequest) -> Completion {
    let values: Vec<String> = ["testValue1", "testValue2"]
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

/// Elicits with `params` and reports the answer as `<label>: action=…, content=…`.
async fn elicit(context: &RequestContext, label: &str, params: Value) -> Result<String, ToolError> {
    let answer = context.elicit(wire(params)).await.map_err(input_failed)?;
    let answer = serde_json::to_value(&answer)?;
    Ok(format!(
        "{label}: action={}, content={}",
        answer["action"].as_str().unwrap_or_default(),
        answer.get("content").unwrap_or(&Value::Null)
    ))
}

/// Asks `request` under `key` and returns the answer as JSON.
async fn ask(context: &RequestContext, key: &str, request: Value) -> Result<Value, ToolError> {
    let request: InputRequest = wire(request);
    let answer: InputResponse = context.ask_as(key, request).await.map_err(input_failed)?;
    Ok(serde_json::to_value(answer)?)
}

/// The `user_name` question and its accepted content.
async fn ask_name(context: &RequestContext) -> Result<Value, ToolError> {
    let answer = ask(
        context,
        "user_name",
        text_question("What is your name?", "name"),
    )
    .await?;
    Ok(answer.get("content").cloned().unwrap_or(Value::Null))
}

fn text_question(message: &str, field: &str) -> Value {
    json!({
        "method": "elicitation/create",
        "params": {
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {field: {"type": "string"}},
                "required": [field]
            }
        }
    })
}

fn confirm(message: &str) -> Value {
    confirm_field(message, "ok")
}

/// An elicitation for one boolean `field`.
fn confirm_field(message: &str, field: &str) -> Value {
    json!({
        "method": "elicitation/create",
        "params": {
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {field: {"type": "boolean"}},
                "required": [field]
            }
        }
    })
}

fn sampling(question: &str) -> Value {
    json!({
        "method": "sampling/createMessage",
        "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": question}}],
            "maxTokens": 100
        }
    })
}

fn roots() -> Value {
    json!({"method": "roots/list", "params": {}})
}

/// The text of a sampling answer.
fn text_of(answer: &Value) -> String {
    answer["content"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The JSON Schema 2020-12 tool (SEP-1613). It stays on `ToolDef` on
/// purpose: its hand-written schema (`$anchor`, `allOf`/`anyOf`,
/// `if`/`then`/`else`) must be served verbatim, which a schema derived from
/// a signature cannot do.
fn json_schema_tool() -> ToolDef {
    ToolDef::new("json_schema_2020_12_tool", |call: ToolCall| async move {
        Ok(CallToolResult::text(format!(
            "JSON Schema 2020-12 tool called with: {}",
            Value::Object(call.arguments().clone())
        )))
    })
    .description("Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)")
    .input_schema(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
            }
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    }))
}

/// A skill for the Skills extension scenarios.
fn pdf_skill() -> SkillDef {
    SkillDef::new("pdf-processing")
        .file(
            "SKILL.md",
            "---\nname: pdf-processing\ndescription: Extract text and fill forms in PDF files\n\
             metadata:\n  version: \"1.0\"\n---\n\n# PDF processing\n\n\
             To fill a form, follow references/FORMS.md.\n",
        )
        .file(
            "references/FORMS.md",
            "# Forms\n\nList the fields first, then fill them one by one.\n",
        )
}

/// The shared options this server acts on; not `--mount`: it serves the
/// suite's tools, resources and prompts and nothing else.
const EXAMPLE: Example = Example {
    name: env!("CARGO_BIN_NAME"),
    flags: &[
        Flag::Http,
        Flag::StateKeyFile,
        Flag::AuthIssuer,
        Flag::RedisUrl,
    ],
};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    mcp_examples::init_logging();
    let command_line = EXAMPLE.command_line()?;
    let changes = ListChanges::new();
    let tools = std::sync::Arc::new(Conformance {
        changes: changes.clone(),
    });
    let builder = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(tools.mcp_definitions())
        .tool(json_schema_tool())
        .skill(pdf_skill())
        .list_changes(changes);
    command_line.serve(builder).await
}
