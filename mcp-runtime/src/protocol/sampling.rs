//! Sampling: the server asks the client to run an LLM (`sampling/createMessage`).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::serde_util::{bad_tag, from_object, from_value, opt_f64_canonical, str_member};
use super::{
    AudioContent, ContentBlock, ImageContent, JsonObject, JsonRpcVersion, Meta, Role, TaskMetadata,
    TextContent, Tool,
};

/// A tool call requested by the model (`"type": "tool_use"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "tool_use", rename_all = "camelCase")]
pub struct ToolUseContent {
    /// Unique id of this tool use, matched by [`ToolResultContent::tool_use_id`].
    pub id: String,
    /// Name of the tool.
    pub name: String,
    /// Arguments of the call.
    pub input: Map<String, Value>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The result of a tool use (`"type": "tool_result"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "tool_result", rename_all = "camelCase")]
pub struct ToolResultContent {
    /// Id of the corresponding [`ToolUseContent`].
    pub tool_use_id: String,
    /// Unstructured result content.
    pub content: Vec<ContentBlock>,
    /// Structured result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool use ended in an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A content block of a sampling message, discriminated by `type`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SamplingMessageContentBlock {
    /// `"text"`.
    Text(TextContent),
    /// `"image"`.
    Image(ImageContent),
    /// `"audio"`.
    Audio(AudioContent),
    /// `"tool_use"`.
    ToolUse(ToolUseContent),
    /// `"tool_result"`.
    ToolResult(ToolResultContent),
}

impl<'de> Deserialize<'de> for SamplingMessageContentBlock {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let obj = super::serde_util::object(deserializer)?;
        match str_member(&obj, "type") {
            Some("text") => from_object(obj).map(Self::Text),
            Some("image") => from_object(obj).map(Self::Image),
            Some("audio") => from_object(obj).map(Self::Audio),
            Some("tool_use") => from_object(obj).map(Self::ToolUse),
            Some("tool_result") => from_object(obj).map(Self::ToolResult),
            other => Err(bad_tag("sampling content block", "type", other)),
        }
    }
}

/// Content of a sampling message: a single block or an array of blocks.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SamplingContent {
    /// A single block (serialized as an object).
    Single(SamplingMessageContentBlock),
    /// Several blocks (serialized as an array).
    Multiple(Vec<SamplingMessageContentBlock>),
}

impl<'de> Deserialize<'de> for SamplingContent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            v @ Value::Array(_) => from_value(v).map(Self::Multiple),
            v => from_value(v).map(Self::Single),
        }
    }
}

impl SamplingContent {
    /// The blocks, whether one or many.
    pub fn blocks(&self) -> &[SamplingMessageContentBlock] {
        match self {
            Self::Single(b) => std::slice::from_ref(b),
            Self::Multiple(v) => v,
        }
    }
}

/// A message in a sampling conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingMessage {
    /// Who the message is from.
    pub role: Role,
    /// The message content.
    pub content: SamplingContent,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A hint for model selection.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelHint {
    /// A (sub)string of a model name, e.g. `"claude-3-5-sonnet"` or `"claude"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The server's model preferences; priorities range from 0 to 1.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelPreferences {
    /// Model name hints, in order of preference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<Vec<ModelHint>>,
    /// How much to prioritize low cost.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_f64_canonical"
    )]
    pub cost_priority: Option<f64>,
    /// How much to prioritize low latency.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_f64_canonical"
    )]
    pub speed_priority: Option<f64>,
    /// How much to prioritize capability.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_f64_canonical"
    )]
    pub intelligence_priority: Option<f64>,
}

/// How the model may use the offered tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolChoiceMode {
    /// The model decides.
    Auto,
    /// The model must use at least one tool.
    Required,
    /// The model must not use tools.
    None,
}

/// Tool selection behaviour for sampling.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolChoice {
    /// The mode; absent means `auto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<ToolChoiceMode>,
}

/// Which MCP context to include in the sampling prompt (deprecated beyond `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum IncludeContext {
    /// No context.
    None,
    /// Context from the requesting server.
    ThisServer,
    /// Context from all connected servers.
    AllServers,
}

/// Parameters of `sampling/createMessage`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageRequestParams {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// Model selection preferences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences>,
    /// System prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Which context to include.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<IncludeContext>,
    /// Sampling temperature.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_f64_canonical"
    )]
    pub temperature: Option<f64>,
    /// Maximum number of tokens to sample.
    pub max_tokens: u64,
    /// Stop sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider-specific metadata passed through to the LLM provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
    /// Tools the model may use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    /// How the model may use the tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Run as a task (legacy era).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// Request metadata (legacy era).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A `sampling/createMessage` request.
///
/// In the modern era it is embedded in `InputRequiredResult.inputRequests` as
/// `{method, params}`; in the legacy era it is a full JSON-RPC request, hence the
/// optional `jsonrpc` and `id`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(
    tag = "method",
    rename = "sampling/createMessage",
    rename_all = "camelCase"
)]
pub struct CreateMessageRequest {
    /// JSON-RPC version (legacy era only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jsonrpc: Option<JsonRpcVersion>,
    /// Request id (legacy era only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    /// The parameters.
    pub params: CreateMessageRequestParams,
}

/// Result of `sampling/createMessage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    /// Role of the sampled message (normally assistant).
    pub role: Role,
    /// The sampled content.
    pub content: SamplingContent,
    /// Name of the model that generated the message.
    pub model: String,
    /// Why sampling stopped (open string: `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}
