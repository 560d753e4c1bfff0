//! The tasks extension as the rest of the server reaches it: one object
//! behind a vtable, made by [`ToolDef::task_support`] and
//! [`ServerBuilder::live_registry`] (the only ways a server can come to have
//! a task), so that a server with neither links none of the task machinery.
//!
//! [`ToolDef::task_support`]: crate::server::ToolDef::task_support
//! [`ServerBuilder::live_registry`]: crate::server::ServerBuilder::live_registry

use std::sync::Arc;

use serde_json::Value;

use super::call::{TaskOp, ToolTask};
use super::store::TaskStore;
use crate::jsonrpc::{ErrorObject, RequestId};
use crate::protocol::{Method, TaskRequestParams, UpdateTaskRequestParams};
use crate::server::engine::params::{PendingReply, parse};
use crate::server::{ClientMeta, Era, Server, ServerOptions};

/// What the router asks of the tasks extension.
pub(crate) trait Tasks: Send + Sync {
    /// `tools/call` of a tool that may run as a task.
    fn call_tool<'a>(
        &'a self,
        server: &'a Server,
        id: &'a RequestId,
        call: ToolTask,
    ) -> PendingReply<'a>;

    /// `tasks/get`, `tasks/update` or `tasks/cancel` (`method`) with its
    /// `params`, for `client`.
    fn method<'a>(
        &'a self,
        server: &'a Server,
        id: &'a RequestId,
        method: Method,
        params: Option<Value>,
        client: &'a ClientMeta,
    ) -> PendingReply<'a>;

    /// The store, for the state instances share.
    #[cfg(feature = "redis")]
    fn store(&self) -> &Arc<TaskStore>;
}

/// Makes the tasks of a server with these options; `watched`: its store
/// tells the shared state of every change.
pub(crate) type MakeTasks = fn(&ServerOptions, bool) -> Arc<dyn Tasks>;

/// The one [`MakeTasks`].
pub(crate) fn make(options: &ServerOptions, watched: bool) -> Arc<dyn Tasks> {
    let store = TaskStore::new(
        options.max_tasks,
        options.task_ttl,
        options.task_poll_interval,
    );
    #[cfg(feature = "redis")]
    let store = if watched { store.watched() } else { store };
    #[cfg(not(feature = "redis"))]
    let _ = watched;
    Arc::new(Engine {
        store: Arc::new(store),
    })
}

struct Engine {
    store: Arc<TaskStore>,
}

impl Tasks for Engine {
    fn call_tool<'a>(
        &'a self,
        server: &'a Server,
        id: &'a RequestId,
        call: ToolTask,
    ) -> PendingReply<'a> {
        Box::pin(server.call_tool_as_task(&self.store, id, call))
    }

    fn method<'a>(
        &'a self,
        server: &'a Server,
        id: &'a RequestId,
        method: Method,
        params: Option<Value>,
        client: &'a ClientMeta,
    ) -> PendingReply<'a> {
        Box::pin(async move {
            let (task_id, op) = match method {
                Method::TasksGet => (parse::<TaskRequestParams>(params)?.task_id, TaskOp::Get),
                Method::TasksCancel => {
                    (parse::<TaskRequestParams>(params)?.task_id, TaskOp::Cancel)
                }
                Method::TasksUpdate => {
                    let UpdateTaskRequestParams {
                        task_id,
                        input_responses,
                        ..
                    } = parse(params)?;
                    (task_id, TaskOp::Update(input_responses))
                }
                other => return Err(ErrorObject::method_not_found(other.name())),
            };
            let result = server
                .task_method(&self.store, &task_id, op, client)
                .await?;
            Ok(server.answer(Era::Modern, method, id, result))
        })
    }

    #[cfg(feature = "redis")]
    fn store(&self) -> &Arc<TaskStore> {
        &self.store
    }
}
