//! Legacy (2025-11-25) task-augmentation fields that appear inside other messages.

use serde::{Deserialize, Serialize};

/// Asks the receiver to run a request as a task (legacy era, field `task`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskMetadata {
    /// Requested retention of the task result after creation, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u64>,
}

/// Whether a tool may be invoked as a task (legacy era).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// The tool must not be invoked as a task.
    Forbidden,
    /// The tool may be invoked either way.
    Optional,
    /// The tool must be invoked as a task.
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
