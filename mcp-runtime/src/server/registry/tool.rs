//! Tools: definitions, the call a handler receives, and result helpers.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::audience::Audience;
use super::handler::{Handler, erase};
use crate::protocol::{CallToolResult, ContentBlock, TaskSupport, Tool, ToolAnnotations};
use crate::server::RequestContext;
use crate::server::engine::task::MakeTasks;

/// What a tool handler returns: a result, or a failure that the client sees
/// as a result with `isError: true`.
pub type ToolOutcome = Result<CallToolResult, ToolError>;

/// A tool: its metadata as listed by `tools/list` and the handler that runs it.
pub struct ToolDef {
    pub(crate) tool: Tool,
    pub(crate) handler: Handler<ToolCall, ToolOutcome>,
    /// Set by `task_support` (in `task/mod.rs`).
    pub(crate) task_support: TaskSupport,
    /// Set with a `task_support` other than forbidden: how the server
    /// makes its tasks (see `task/engine.rs`).
    pub(crate) make_tasks: Option<MakeTasks>,
    /// OAuth scopes a caller's token needs on a protected server.
    pub(crate) scopes: Vec<String>,
    /// Who sees it (`visible_to`, in `audience.rs`); `None`: everyone.
    pub(crate) audience: Option<Audience>,
}

impl ToolDef {
    /// A tool named `name` that takes no arguments until
    /// [`input_schema`](Self::input_schema) says otherwise.
    ///
    /// ```
    /// use mcp_toolkit_runtime::protocol::CallToolResult;
    /// use mcp_toolkit_runtime::server::{ToolCall, ToolDef};
    ///
    /// let echo = ToolDef::new("echo", |call: ToolCall| async move {
    ///     let text: String = call.argument("text")?;
    ///     Ok(CallToolResult::text(text))
    /// })
    /// .description("Echo the text back")
    /// .input_schema(serde_json::json!({
    ///     "type": "object",
    ///     "properties": {"text": {"type": "string"}},
    ///     "required": ["text"]
    /// }));
    /// ```
    pub fn new<F, Fut>(name: impl Into<String>, handler: F) -> Self
    where
        F: Fn(ToolCall) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = ToolOutcome> + Send + 'static,
    {
        let tool = Tool {
            name: name.into(),
            title: None,
            description: None,
            input_schema: empty_object_schema(),
            output_schema: None,
            annotations: None,
            icons: None,
            execution: None,
            meta: None,
        };
        ToolDef {
            tool,
            handler: erase(handler),
            task_support: TaskSupport::Forbidden,
            make_tasks: None,
            scopes: Vec::new(),
            audience: None,
        }
    }

    /// Sets the human-readable title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.tool.title = Some(title.into());
        self
    }

    /// Sets the description shown to the model.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.tool.description = Some(description.into());
        self
    }

    /// Sets the JSON Schema of the arguments (an object schema). Without a
    /// `$schema` member it is read as 2020-12.
    pub fn input_schema(mut self, schema: Value) -> Self {
        self.tool.input_schema = schema;
        self
    }

    /// Sets the JSON Schema of `structuredContent`; results are checked
    /// against it.
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.tool.output_schema = Some(schema);
        self
    }

    /// Sets behaviour hints (read-only, destructive, idempotent, open-world).
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.tool.annotations = Some(annotations);
        self
    }

    /// The OAuth scopes a caller's access token must carry to call this
    /// tool on a server protected with
    /// [`HttpConfig::auth`](crate::transport::http::HttpConfig::auth); a
    /// token without them gets 403 `insufficient_scope`. Each must be a
    /// scope token (checked when the server is built). Ignored over stdio.
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The scopes set with [`scopes`](Self::scopes).
    pub fn required_scopes(&self) -> &[String] {
        &self.scopes
    }

    /// The listed metadata, for inspection.
    pub fn tool(&self) -> &Tool {
        &self.tool
    }
}

fn empty_object_schema() -> Value {
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {},
        "additionalProperties": false
    })
}

/// One invocation of a tool: its validated arguments and the request context.
pub struct ToolCall {
    /// Always an object (see [`ToolCall::new`]); shared with the dispatcher,
    /// which may need the arguments after the handler ran.
    arguments: Arc<Value>,
    pub(crate) context: RequestContext,
}

impl ToolCall {
    /// A call with `arguments`, which the dispatcher builds as a JSON object.
    pub(crate) fn new(arguments: Arc<Value>, context: RequestContext) -> Self {
        ToolCall { arguments, context }
    }

    /// The arguments, already validated against the input schema.
    pub fn arguments(&self) -> &Map<String, Value> {
        match &*self.arguments {
            Value::Object(arguments) => arguments,
            _ => unreachable!("the dispatcher passes tool arguments as an object"),
        }
    }

    /// Deserializes all arguments into `T`.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, ToolError> {
        T::deserialize(&*self.arguments)
            .map_err(|e| ToolError::new(format!("invalid arguments: {e}")))
    }

    /// Deserializes the argument `name` into `T`.
    pub fn argument<T: DeserializeOwned>(&self, name: &str) -> Result<T, ToolError> {
        let value = self.arguments.get(name).unwrap_or(&Value::Null);
        T::deserialize(value).map_err(|e| ToolError::new(format!("argument `{name}`: {e}")))
    }

    /// The request context (cancellation, progress, client metadata).
    pub fn context(&self) -> &RequestContext {
        &self.context
    }
}

/// A failure inside a tool. The client receives it as a `CallToolResult`
/// with `isError: true` and the message as text, so the model can react.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
}

impl ToolError {
    /// A tool error with a message for the model.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error> From<E> for ToolError {
    fn from(error: E) -> Self {
        ToolError::new(error.to_string())
    }
}

impl CallToolResult {
    /// A result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        CallToolResult::from_content(vec![ContentBlock::text(text)])
    }

    /// A result with the given content blocks.
    pub fn from_content(content: Vec<ContentBlock>) -> Self {
        CallToolResult {
            content,
            structured_content: None,
            is_error: None,
            result_type: None,
            meta: None,
        }
    }

    /// A structured result: `structuredContent` plus a text block with the
    /// same JSON, for clients that only read `content`.
    pub fn structured<T: Serialize>(value: &T) -> Result<Self, ToolError> {
        let value = serde_json::to_value(value)
            .map_err(|e| ToolError::new(format!("output not serializable: {e}")))?;
        // Not `value.to_string()`: `Display` grows the text from nothing,
        // `serde_json::to_string` starts with room for 128 bytes.
        let text = serde_json::to_string(&value).expect("a JSON value always serializes");
        let mut result = CallToolResult::text(text);
        result.structured_content = Some(value);
        Ok(result)
    }

    /// A failed result (`isError: true`) with a text message.
    pub fn error(message: impl Into<String>) -> Self {
        let mut result = CallToolResult::text(message);
        result.is_error = Some(true);
        result
    }
}
