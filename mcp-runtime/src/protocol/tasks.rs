//! Tasks: the `io.modelcontextprotocol/tasks` extension (SEP-2663, modern
//! era), and the legacy (2025-11-25) task-augmentation fields that appear
//! inside other messages.
//!
//! A server that negotiated the extension may answer `tools/call` with a
//! [`CreateTaskResult`] (`resultType: "task"`) instead of the tool's result;
//! the client then polls `tasks/get` ([`GetTaskResult`]), answers the task's
//! questions with `tasks/update` and may stop it with `tasks/cancel`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{JsonObject, Meta, ResultType};

/// The extension's identifier, the key under `capabilities.extensions` on
/// both sides.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The state of a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// The request is being processed.
    Working,
    /// The task waits for answers to its `inputRequests` (`tasks/update`).
    InputRequired,
    /// Finished with a result (tool errors with `isError: true` included).
    Completed,
    /// Stopped by `tasks/cancel`.
    Cancelled,
    /// Ended with a JSON-RPC error.
    Failed,
}

impl TaskStatus {
    /// Whether the task has ended (completed, cancelled or failed).
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Cancelled | TaskStatus::Failed
        )
    }
}

/// What every task message carries about the task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    /// The server-generated, unguessable identifier.
    pub task_id: String,
    /// The current status.
    pub status: TaskStatus,
    /// A human-readable note on the current status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// ISO 8601 time of creation.
    pub created_at: String,
    /// ISO 8601 time of the last status change.
    pub last_updated_at: String,
    /// How long after creation the server keeps the task, in milliseconds;
    /// `null` for no limit.
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
}

/// The answer to a request that now runs as a task (`resultType: "task"`):
/// the task's seed state, flat in the result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTaskResult {
    /// Always [`ResultType::Task`].
    pub result_type: ResultType,
    /// The task.
    #[serde(flatten)]
    pub task: Task,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CreateTaskResult {
    /// The answer that a request now runs as `task`.
    pub fn new(task: Task) -> Self {
        CreateTaskResult {
            result_type: ResultType::Task,
            task,
            meta: None,
        }
    }
}

/// The result of `tasks/get`: the task and what its status carries
/// (schema `DetailedTask`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetTaskResult {
    /// Always [`ResultType::Complete`].
    pub result_type: ResultType,
    /// The task.
    #[serde(flatten)]
    pub task: Task,
    /// The open questions (status `input_required`), keyed for
    /// `tasks/update`, as JSON (read them as [`InputRequests`](super::InputRequests)), like
    /// `result` and `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<JsonObject>,
    /// The request's result (status `completed`), e.g. a `CallToolResult`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<JsonObject>,
    /// The JSON-RPC error the request ended with (status `failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonObject>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl GetTaskResult {
    /// What `tasks/get` answers about `task`, with nothing more yet.
    pub fn new(task: Task) -> Self {
        GetTaskResult {
            result_type: ResultType::Complete,
            task,
            input_requests: None,
            result: None,
            error: None,
            meta: None,
        }
    }
}

/// Parameters of `tasks/get` and `tasks/cancel`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskRequestParams {
    /// The task.
    pub task_id: String,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Parameters of `tasks/update`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateTaskRequestParams {
    /// The task.
    pub task_id: String,
    /// Answers keyed like the task's `inputRequests`. Kept as raw JSON:
    /// answers to keys that are not outstanding are ignored unread.
    pub input_responses: JsonObject,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The acknowledgement `tasks/update` and `tasks/cancel` answer with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskAck {
    /// Always [`ResultType::Complete`].
    pub result_type: ResultType,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Default for TaskAck {
    fn default() -> Self {
        TaskAck {
            result_type: ResultType::Complete,
            meta: None,
        }
    }
}

/// Whether `capabilities.extensions` declares the tasks extension.
pub fn declares_tasks(extensions: Option<&super::CapabilityMap>) -> bool {
    extensions.is_some_and(|e| e.contains_key(TASKS_EXTENSION))
}

/// `requiredCapabilities` of the -32021 error for a client that did not
/// declare the extension.
pub fn tasks_required_capabilities() -> Value {
    serde_json::json!({ "extensions": { TASKS_EXTENSION: {} } })
}

/// Asks the receiver to run a request as a task (legacy era, field `task`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskMetadata {
    /// Requested retention of the task result after creation, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u64>,
}

/// Whether a tool may run as a task. On the legacy wire it is
/// `Tool.execution.taskSupport`; servers built with this crate also use it
/// to opt a tool into the modern tasks extension
/// (`ToolDef::task_support`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// The tool never runs as a task (the default).
    #[default]
    Forbidden,
    /// The tool may run as a task or synchronously.
    Optional,
    /// The tool runs only as a task.
    Required,
}

/// Execution properties of a tool (legacy era, `Tool.execution`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolExecution {
    /// Task support of the tool; absent means forbidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_support: Option<TaskSupport>,
}
