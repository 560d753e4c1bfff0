//! `tools/call` as a task, and the `tasks/get`, `tasks/update` and
//! `tasks/cancel` methods.

use std::future::Future;
use std::sync::Arc;
use std::task::Poll;
use tracing::Instrument;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::store::{Outcome, TaskStore};
use serde::Serialize;

use crate::jsonrpc::{ErrorObject, RequestId, result_frame};
use crate::protocol::{
    CallToolResult, GetTaskResult, JsonObject, Method, TaskAck, TaskSupport, declares_tasks,
    tasks_required_capabilities, to_json_via_bytes,
};
use crate::server::Server;
use crate::server::engine::params::Reply;
use crate::server::engine::rounds::Rounds;
use crate::server::engine::shape::{self, shaped};
use crate::server::registry::catalogue::ToolEntry;
use crate::server::{BoxFuture, ClientMeta, Era, RequestContext};

/// How a `tools/call` relates to tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Run to the result within the request.
    Inline,
    /// Run as a task once the handler waits; `required`: a task even when
    /// it does not.
    Task { required: bool },
}

impl Server {
    /// Whether a call of `tool` by `client` may become a task, or must fail
    /// because the tool runs only as one.
    pub(crate) fn plan_tool_call(
        &self,
        tool: &ToolEntry,
        client: &ClientMeta,
    ) -> Result<Plan, ErrorObject> {
        let support = tool.def.task_support;
        if support == TaskSupport::Forbidden {
            return Ok(Plan::Inline);
        }
        let declared =
            client.era == Era::Modern && declares_tasks(client.capabilities.extensions.as_ref());
        match (support, declared) {
            (TaskSupport::Forbidden, _) | (TaskSupport::Optional, false) => Ok(Plan::Inline),
            (TaskSupport::Optional, true) => Ok(Plan::Task { required: false }),
            (TaskSupport::Required, true) => Ok(Plan::Task { required: true }),
            (TaskSupport::Required, false) => Err(ErrorObject::missing_required_client_capability(
                tasks_required_capabilities(),
            )),
        }
    }

    /// Runs a call that may become a task (see `ToolDef::task_support`):
    /// one step within the request, then either its `input_required`
    /// round, its result, or a task of `store` that carries on in the
    /// background.
    pub(super) async fn call_tool_as_task(
        &self,
        store: &Arc<TaskStore>,
        id: &RequestId,
        call: ToolTask,
    ) -> Reply {
        let ToolTask {
            mut rounds,
            tool,
            arguments,
            mut context,
            required,
        } = call;
        let input = self.open_rounds(Era::Modern, &mut rounds, &mut context)?;
        // The call may outlive its request, whose cancellation fires when
        // the response is sent: it answers to the task's token instead.
        let cancellation = CancellationToken::new();
        context.cancellation = cancellation.clone();
        // The task outlives the request: it takes the request's trace and
        // span along.
        let trace = context.trace.clone();
        let mut call: BoxFuture<Outcome> = Box::pin(
            crate::trace::scoped(trace, async move {
                Server::call_tool(tool, arguments, context)
                    .await
                    .and_then(complete)
            })
            .in_current_span(),
        );
        let first = poll_once(&mut call).await;
        if let Some(reply) = self.input_reply(id, &rounds, &input) {
            return reply;
        }
        let finished = match first {
            Poll::Ready(outcome) if !required => {
                return outcome.map(|result| result_frame(id, &result));
            }
            Poll::Ready(outcome) => Some(outcome),
            Poll::Pending => None,
        };
        let slot = store.create(cancellation)?;
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.inner.shared {
            shared.start();
            if let Err(error) = shared.publish(&slot).await {
                // Other instances could not find it: no task.
                slot.cancel();
                store.drive(slot, None::<BoxFuture<Outcome>>);
                return Err(error);
            }
        }
        input.attach_task(slot.clone());
        let work = match finished {
            Some(outcome) => {
                slot.finish(outcome);
                None
            }
            // What ends a request ends the task (see `InputState::failure`).
            None => Some(Box::pin(async move {
                let outcome = call.await;
                match input.failure() {
                    Some(error) => Err(error),
                    None => outcome,
                }
            }) as BoxFuture<Outcome>),
        };
        store.drive(slot.clone(), work);
        Ok(self.answer(Era::Modern, Method::CallTool, id, slot.created()))
    }

    /// `tasks/get`, `tasks/update` and `tasks/cancel` (`op`) of the task
    /// `task_id`, for clients that declare the extension (-32021 for
    /// others, -32602 for an unknown or expired task). A task another
    /// instance runs is served through the shared state, when there is one.
    pub(super) async fn task_method(
        &self,
        store: &TaskStore,
        task_id: &str,
        op: TaskOp,
        client: &ClientMeta,
    ) -> Result<TaskAnswer, ErrorObject> {
        if !declares_tasks(client.capabilities.extensions.as_ref()) {
            return Err(ErrorObject::missing_required_client_capability(
                tasks_required_capabilities(),
            ));
        }
        if let Some(slot) = store.get(task_id) {
            return match op {
                TaskOp::Get => Ok(TaskAnswer::State(Box::new(slot.snapshot()))),
                TaskOp::Update(responses) => {
                    slot.answer(responses)?;
                    Ok(TaskAnswer::Ack(TaskAck::default()))
                }
                TaskOp::Cancel => {
                    slot.cancel();
                    Ok(TaskAnswer::Ack(TaskAck::default()))
                }
            };
        }
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.inner.shared {
            shared.start();
            return remote_task_method(shared, task_id, op).await;
        }
        Err(unknown_task(task_id))
    }
}

/// A `tools/call` that may become a task: its rounds, tool, arguments and
/// context, and whether it is a task even when it answers at once.
pub(crate) struct ToolTask {
    pub(crate) rounds: Rounds,
    pub(crate) tool: Arc<ToolEntry>,
    pub(crate) arguments: Arc<Value>,
    pub(crate) context: RequestContext,
    pub(crate) required: bool,
}

/// What a `tasks/*` request asks of its task.
pub(crate) enum TaskOp {
    /// `tasks/get`.
    Get,
    /// `tasks/update`, with the answers to the task's questions.
    Update(JsonObject),
    /// `tasks/cancel`.
    Cancel,
}

/// The answer to a `tasks/*` request.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum TaskAnswer {
    /// `tasks/get`: the task's state (boxed: far larger than an ack).
    State(Box<GetTaskResult>),
    /// `tasks/update`, `tasks/cancel`: done.
    Ack(TaskAck),
}

shaped! {
    kind: ;
    cached: ;
    fixed: TaskAnswer;
}

/// `tasks/*` for a task another instance runs, through the shared state.
#[cfg(feature = "redis")]
async fn remote_task_method(
    shared: &crate::server::shared::Instance,
    task_id: &str,
    op: TaskOp,
) -> Result<TaskAnswer, ErrorObject> {
    let found = match op {
        TaskOp::Get => shared
            .get(task_id)
            .await?
            .map(|state| TaskAnswer::State(Box::new(state))),
        TaskOp::Update(responses) => shared
            .update(task_id, responses)
            .await?
            .then(|| TaskAnswer::Ack(TaskAck::default())),
        TaskOp::Cancel => shared
            .cancel(task_id)
            .await?
            .then(|| TaskAnswer::Ack(TaskAck::default())),
    };
    found.ok_or_else(|| unknown_task(task_id))
}

/// The error for a task id no instance knows.
fn unknown_task(task_id: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "Failed to retrieve task: no task `{task_id}` (unknown, or its TTL is over)"
    ))
}

/// The tool's result as a task result: a complete `CallToolResult`.
fn complete(mut result: CallToolResult) -> Outcome {
    // Task results are never cached: no hints.
    shape::apply(Era::Modern, &mut result, None);
    to_json_via_bytes(&result)
        .map_err(|e| ErrorObject::internal(format!("tool result not serializable: {e}")))
}

/// Polls `future` once, with the caller's waker.
async fn poll_once<F: Future + Unpin>(future: &mut F) -> Poll<F::Output> {
    std::future::poll_fn(|cx| Poll::Ready(std::pin::Pin::new(&mut *future).poll(cx))).await
}
