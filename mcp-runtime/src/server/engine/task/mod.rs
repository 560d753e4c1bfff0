//! Tasks: the `io.modelcontextprotocol/tasks` extension (SEP-2663,
//! 2026-07-28). A tool call that takes long answers at once with a task
//! handle; the client polls `tasks/get` for the result, answers the task's
//! questions with `tasks/update` and may stop it with `tasks/cancel`.
//!
//! A tool opts in with [`ToolDef::task_support`] (or
//! `#[mcp_tool(task_support = "optional")]`); see there for how a call
//! becomes a task. The store is bounded ([`ServerOptions::max_tasks`]) and
//! every task is removed when its TTL ([`ServerOptions::task_ttl`]) ends.
//!
//! [`ServerOptions::max_tasks`]: crate::server::ServerOptions::max_tasks
//! [`ServerOptions::task_ttl`]: crate::server::ServerOptions::task_ttl

mod call;
pub(crate) mod clock;
mod engine;
mod store;

pub(crate) use call::{Plan, ToolTask};
pub(crate) use engine::{MakeTasks, Tasks, make};
pub(crate) use store::TaskSlot;
#[cfg(feature = "redis")]
pub(crate) use store::TaskStore;

use crate::protocol::TaskSupport;
use crate::server::{RequestContext, ToolDef};

impl ToolDef {
    /// Lets the tool run as a task (the `io.modelcontextprotocol/tasks`
    /// extension of 2026-07-28). The default is [`TaskSupport::Forbidden`]:
    /// every call runs to its result within the request.
    ///
    /// With [`TaskSupport::Optional`] or [`TaskSupport::Required`], a call
    /// whose request declares the extension in its client capabilities runs
    /// like this:
    ///
    /// 1. The handler starts within the request. Questions it asks before
    ///    it first waits on anything else (elicitation, sampling, roots)
    ///    travel as ordinary `input_required` rounds, so a tool can gather
    ///    what it needs before it commits to background work.
    /// 2. When the handler first has to wait (a timer, I/O, a lock, or
    ///    [`RequestContext::start_task`], which says so explicitly), the
    ///    call becomes a task: the client gets `resultType: "task"` with the
    ///    task's id, and the handler continues in the background. Its
    ///    result, a tool error (`isError`) included, becomes the task's
    ///    `completed` result; a JSON-RPC error (a panic, an output that
    ///    violates the output schema) makes it `failed`.
    /// 3. Questions asked from then on are the task's `inputRequests`
    ///    (status `input_required`); the handler's `.await` resumes when
    ///    `tasks/update` answers them. `tasks/cancel` drops the handler's
    ///    future and fires [`RequestContext::cancellation_token`].
    ///    Progress reports become the task's `statusMessage`; log messages
    ///    are not sent (the extension has no channel for them).
    ///
    /// A handler that finishes without waiting answers directly (an
    /// optional tool) or as a task that has completed already (a required
    /// tool). Without the extension in the request, an optional tool runs
    /// as if it had no task support, and a required tool fails with -32021
    /// naming the extension; legacy (2025-11-25 and earlier) clients count
    /// as not declaring it, because the extension does not exist there.
    ///
    /// Task ids are random 122-bit UUIDs, so knowing an id is what grants
    /// access to a task; authorize requests at the transport if the ids
    /// could leak between users.
    ///
    /// ```
    /// use mcp_toolkit_runtime::protocol::{CallToolResult, TaskSupport};
    /// use mcp_toolkit_runtime::server::{ToolCall, ToolDef};
    ///
    /// let render = ToolDef::new("render", |call: ToolCall| async move {
    ///     let frames: u64 = call.argument("frames")?;
    ///     for frame in 0..frames {
    ///         let note = format!("frame {frame} of {frames}");
    ///         call.context().report_progress(frame as f64, Some(frames as f64), Some(&note)).await;
    ///         tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    ///     }
    ///     Ok(CallToolResult::text("rendered"))
    /// })
    /// .input_schema(serde_json::json!({
    ///     "type": "object",
    ///     "properties": {"frames": {"type": "integer"}},
    ///     "required": ["frames"]
    /// }))
    /// .task_support(TaskSupport::Optional);
    /// ```
    ///
    /// [`RequestContext::cancellation_token`]: crate::server::RequestContext::cancellation_token
    pub fn task_support(mut self, support: TaskSupport) -> Self {
        self.task_support = support;
        self.make_tasks = (support != TaskSupport::Forbidden).then_some(engine::make as MakeTasks);
        self
    }
}

impl RequestContext {
    /// Ends the part of a task-supporting tool call that runs within the
    /// request: a call that may become a task (see
    /// [`ToolDef::task_support`]) becomes one here, if it has not already,
    /// and the questions the handler asks from here on are the task's. In
    /// any other call it only yields to the scheduler.
    ///
    /// ```
    /// # use mcp_toolkit_runtime::protocol::{CallToolResult, ElicitRequestParams};
    /// # use mcp_toolkit_runtime::server::{ToolCall, ToolError};
    /// # fn confirmation() -> ElicitRequestParams { unimplemented!() }
    /// async fn delete(call: ToolCall) -> Result<CallToolResult, ToolError> {
    ///     let context = call.context();
    ///     // Answer the client with a task at once; ask from within it.
    ///     context.start_task().await;
    ///     let answer = context.elicit(confirmation()).await?;
    ///     Ok(CallToolResult::text(format!("{:?}", answer.action)))
    /// }
    /// ```
    pub async fn start_task(&self) {
        // The first poll that is not ready is where a call becomes a task.
        tokio::task::yield_now().await;
    }

    /// The id of the task this tool call runs as, once it became one.
    pub fn task_id(&self) -> Option<&str> {
        self.input.task().map(|task| task.id())
    }
}
