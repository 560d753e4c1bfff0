//! Tools run as tasks: the client side of the `io.modelcontextprotocol/tasks`
//! extension (SEP-2663, 2026-07-28 only).
//!
//! [`Client::call_tool_as_task`] calls a tool declaring the extension on
//! that request, and the server decides whether the call becomes a task.
//! Either way the caller gets a [`TaskHandle`]: one that polls `tasks/get`,
//! answers the task's questions (`tasks/update`) and cancels it
//! (`tasks/cancel`), or one that holds the result the server answered with
//! at once. The caller's code is the same for both.

use std::collections::BTreeSet;
use std::fmt;
use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Client, ClientError, deadline, to_object};
use crate::jsonrpc::ErrorObject;
use crate::lifetime::bounded;
use crate::protocol::{
    CallToolResult, ClientCapabilities, CreateTaskResult, GetTaskResult, InputRequests,
    InputResponses, META_CLIENT_CAPABILITIES, Method, ResultType, TASKS_EXTENSION, Task, TaskAck,
    TaskStatus,
};

/// How long to wait between polls when the server suggests no interval.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(1);
/// The shortest wait between polls, whatever the server suggests: a
/// `pollIntervalMs` of 0 must not make the client spin.
pub const MIN_POLL_INTERVAL: Duration = Duration::from_millis(50);
/// The longest wait between polls, whatever the server suggests: a huge
/// `pollIntervalMs` must not make a task that finished look unfinished.
pub const MAX_POLL_INTERVAL: Duration = Duration::from_secs(60);

/// What to do instead in the legacy era, which has no tasks extension.
const LEGACY_INSTEAD: &str = "tasks are a 2026-07-28 extension; call the tool with \
     `Client::call_tool`, which waits for its result";

impl Client {
    /// Calls a tool, letting the server run it as a task (the
    /// `io.modelcontextprotocol/tasks` extension, 2026-07-28).
    ///
    /// The request declares the extension in its own client capabilities,
    /// so [`ConnectOptions::capabilities`](super::ConnectOptions::capabilities)
    /// need not (and plain [`call_tool`](Self::call_tool) calls, which do
    /// not expect a task, stay without it unless those capabilities add
    /// it). The server decides: a task, or the result at once (a quick
    /// tool, a tool without task support, a server without the extension);
    /// the [`TaskHandle`] works the same for both. Questions the tool asks
    /// before it becomes a task are `input_required` rounds, answered
    /// through the input handler like any call's.
    ///
    /// In the legacy era (2025-11-25 and earlier) there is no such
    /// extension: [`ClientError::NotInEra`], without a request.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_toolkit_runtime::client::Client) -> Result<(), mcp_toolkit_runtime::client::ClientError> {
    /// use std::time::Duration;
    /// use serde_json::json;
    ///
    /// let mut render = client.call_tool_as_task("render", &json!({"frames": 600})).await?;
    /// if let Some(id) = render.id() {
    ///     println!("running as task {id}"); // keep it to resume with `Client::resume_task`
    /// }
    /// // Polls at the server's interval, answering its questions through the
    /// // client's input handler, for at most ten minutes.
    /// let result = render.result_within(Duration::from_secs(600)).await?;
    /// println!("{:?}", result.content);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn call_tool_as_task<A: serde::Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
    ) -> Result<TaskHandle, ClientError> {
        self.call_object_as_task(name, to_object(arguments)?).await
    }

    /// [`call_tool_as_task`](Self::call_tool_as_task) once the arguments are
    /// serialized: one future type for every argument type.
    async fn call_object_as_task(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<TaskHandle, ClientError> {
        self.in_era(Method::TasksGet, LEGACY_INSTEAD)?;
        let mut params = Map::new();
        params.insert("name".into(), Value::String(name.to_owned()));
        params.insert("arguments".into(), Value::Object(arguments));
        let answer: Value = self.task_request(Method::CallTool, params).await?;
        let state = if result_type(&answer) == Some(ResultType::Task) {
            let created: CreateTaskResult = decode(Method::CallTool, answer)?;
            Kind::Task(Tracked::new(
                created.task.task_id.clone(),
                Some(created.task),
            ))
        } else {
            Kind::AtOnce(Box::new(decode(Method::CallTool, answer)?))
        };
        Ok(TaskHandle {
            client: self.clone(),
            state,
        })
    }

    /// A handle on the task `task_id` that an earlier call created (say,
    /// before the program restarted: the extension asks clients to keep
    /// task ids so that they can go on polling). Nothing is sent until it
    /// is polled. [`ClientError::NotInEra`] in the legacy era.
    pub fn resume_task(&self, task_id: impl Into<String>) -> Result<TaskHandle, ClientError> {
        self.in_era(Method::TasksGet, LEGACY_INSTEAD)?;
        Ok(TaskHandle {
            client: self.clone(),
            state: Kind::Task(Tracked::new(task_id.into(), None)),
        })
    }

    /// Sends a request that declares the tasks extension in its `_meta`
    /// client capabilities (besides those of the connection), as the
    /// extension asks of every `tools/call` that may become a task and of
    /// every `tasks/*` request.
    async fn task_request<R: DeserializeOwned>(
        &self,
        method: Method,
        mut params: Map<String, Value>,
    ) -> Result<R, ClientError> {
        let capabilities = with_tasks(&self.inner.options.capabilities);
        let mut meta = Map::new();
        meta.insert(
            META_CLIENT_CAPABILITIES.into(),
            serde_json::to_value(capabilities).unwrap_or_default(),
        );
        params.insert("_meta".into(), Value::Object(meta));
        self.send(method, &params).await
    }
}

/// The client's capabilities with the tasks extension added.
fn with_tasks(capabilities: &ClientCapabilities) -> ClientCapabilities {
    let mut capabilities = capabilities.clone();
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .entry(TASKS_EXTENSION.to_owned())
        .or_default();
    capabilities
}

/// The `resultType` of an answer, when it is one this crate knows.
fn result_type(answer: &Value) -> Option<ResultType> {
    ResultType::deserialize(answer.get("resultType")?).ok()
}

/// Decodes `method`'s answer, or says why it is not one.
fn decode<T: DeserializeOwned>(method: Method, value: Value) -> Result<T, ClientError> {
    serde_json::from_value(value)
        .map_err(|e| ClientError::InvalidResponse(format!("{method}: {e}")))
}

/// A tool call made by [`Client::call_tool_as_task`]: a task on the server,
/// or the result the server answered with at once. Owns a clone of the
/// client, so it can be kept, moved to another task, or dropped (dropping
/// it leaves the server's task running until its TTL ends; see
/// [`cancel`](Self::cancel)).
#[derive(Clone)]
pub struct TaskHandle {
    client: Client,
    state: Kind,
}

impl fmt::Debug for TaskHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskHandle")
            .field("id", &self.id())
            .field("task", &self.task())
            .finish_non_exhaustive()
    }
}

#[derive(Clone)]
enum Kind {
    /// The server answered with the result (boxed: far larger than a task).
    AtOnce(Box<CallToolResult>),
    /// The server runs the call as a task.
    Task(Tracked),
}

/// What the client knows of a task.
#[derive(Clone)]
struct Tracked {
    id: String,
    /// The task as last seen (at creation, or by the last poll).
    last: Option<Task>,
    /// Keys of the questions answered through this handle: the extension
    /// makes every key unique over a task's life, and asks clients not to
    /// present a question twice.
    answered: BTreeSet<String>,
}

impl Tracked {
    fn new(id: String, last: Option<Task>) -> Self {
        Tracked {
            id,
            last,
            answered: BTreeSet::new(),
        }
    }
}

/// What one [`TaskHandle::poll`] found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TaskState {
    /// Still running; [`TaskHandle::task`] has the server's status message.
    Working,
    /// The task waits for answers ([`TaskHandle::answer`]): its questions
    /// that were not answered through this handle yet. Empty when every
    /// open question was answered and the server has not caught up.
    InputRequired(InputRequests),
    /// Finished with the tool's result (a tool error, `isError: true`,
    /// included).
    Completed(CallToolResult),
    /// Ended with this JSON-RPC error.
    Failed(ErrorObject),
    /// Stopped by `tasks/cancel`.
    Cancelled,
}

impl TaskHandle {
    /// The task's id; `None` when the server answered at once.
    pub fn id(&self) -> Option<&str> {
        match &self.state {
            Kind::Task(task) => Some(&task.id),
            Kind::AtOnce(_) => None,
        }
    }

    /// The task as the server last described it (status, status message,
    /// TTL, poll interval); `None` when the server answered at once, and
    /// for a handle from [`Client::resume_task`] before its first poll.
    pub fn task(&self) -> Option<&Task> {
        match &self.state {
            Kind::Task(task) => task.last.as_ref(),
            Kind::AtOnce(_) => None,
        }
    }

    /// The wait before the next poll: the server's `pollIntervalMs`
    /// within [`MIN_POLL_INTERVAL`] and [`MAX_POLL_INTERVAL`], else
    /// [`DEFAULT_POLL_INTERVAL`].
    pub fn poll_interval(&self) -> Duration {
        self.task()
            .and_then(|task| task.poll_interval_ms)
            .map_or(DEFAULT_POLL_INTERVAL, |ms| {
                bounded(Duration::from_millis(ms)).clamp(MIN_POLL_INTERVAL, MAX_POLL_INTERVAL)
            })
    }

    /// Asks the server once where the task is (`tasks/get`). A handle the
    /// server answered at once is [`TaskState::Completed`], without a
    /// request.
    pub async fn poll(&mut self) -> Result<TaskState, ClientError> {
        let task = match &mut self.state {
            Kind::AtOnce(result) => return Ok(TaskState::Completed((**result).clone())),
            Kind::Task(task) => task,
        };
        let method = Method::TasksGet;
        let mut params = Map::new();
        params.insert("taskId".into(), Value::String(task.id.clone()));
        let found: GetTaskResult = self.client.task_request(method, params).await?;
        if found.task.task_id != task.id {
            return Err(ClientError::InvalidResponse(format!(
                "{method}: asked for task {}, got task {}",
                task.id, found.task.task_id
            )));
        }
        let state = match found.task.status {
            TaskStatus::Working => TaskState::Working,
            TaskStatus::InputRequired => {
                let mut open = found.input_requests.unwrap_or_default();
                open.retain(|key, _| !task.answered.contains(key));
                TaskState::InputRequired(decode(method, Value::Object(open))?)
            }
            TaskStatus::Completed => {
                let result = found.result.ok_or_else(|| missing(method, "result"))?;
                TaskState::Completed(decode(method, Value::Object(result))?)
            }
            TaskStatus::Failed => {
                let error = found.error.ok_or_else(|| missing(method, "error"))?;
                TaskState::Failed(decode(method, Value::Object(error))?)
            }
            TaskStatus::Cancelled => TaskState::Cancelled,
        };
        task.last = Some(found.task);
        Ok(state)
    }

    /// Answers the task's questions (`tasks/update`), keyed as in
    /// [`TaskState::InputRequired`]; later polls leave these keys out.
    /// The server ignores answers to keys that are not open, so on a
    /// handle the server answered at once this sends nothing.
    pub async fn answer(&mut self, responses: InputResponses) -> Result<(), ClientError> {
        let Kind::Task(task) = &mut self.state else {
            return Ok(());
        };
        let keys: Vec<String> = responses.keys().cloned().collect();
        let mut params = Map::new();
        params.insert("taskId".into(), Value::String(task.id.clone()));
        params.insert(
            "inputResponses".into(),
            Value::Object(responses.into_object()),
        );
        let _: TaskAck = self
            .client
            .task_request(Method::TasksUpdate, params)
            .await?;
        task.answered.extend(keys);
        Ok(())
    }

    /// Asks the server to stop the task (`tasks/cancel`). Cancellation is
    /// cooperative: the task may still finish otherwise, and its status
    /// says `cancelled` only once the server has acted. A handle the
    /// server answered at once has nothing to stop: no request.
    pub async fn cancel(&self) -> Result<(), ClientError> {
        let Kind::Task(task) = &self.state else {
            return Ok(());
        };
        let mut params = Map::new();
        params.insert("taskId".into(), Value::String(task.id.clone()));
        let _: TaskAck = self
            .client
            .task_request(Method::TasksCancel, params)
            .await?;
        Ok(())
    }

    /// Waits for the tool's result for at most `limit` (not counting time
    /// the user spends authorizing, as every limit of the client), polling
    /// at [`poll_interval`](Self::poll_interval). Questions the task asks
    /// go to the client's [`InputHandler`](super::InputHandler), each
    /// once; without one, this returns [`ClientError::InputRequired`] and
    /// the caller answers through [`poll`](Self::poll) and
    /// [`answer`](Self::answer).
    ///
    /// A `failed` task is [`ClientError::Protocol`] with its error, a
    /// `cancelled` one [`ClientError::TaskCancelled`], and a limit that
    /// runs out [`ClientError::Timeout`]; the task itself goes on, and the
    /// handle can wait again or cancel it.
    pub async fn result_within(&mut self, limit: Duration) -> Result<CallToolResult, ClientError> {
        let client = self.client.clone();
        match client.inner.within(limit, self.settle()).await {
            Ok(outcome) => outcome,
            Err(deadline::Elapsed) => Err(ClientError::Timeout),
        }
    }

    /// Polls until the task ends, answering its questions on the way.
    async fn settle(&mut self) -> Result<CallToolResult, ClientError> {
        loop {
            match self.poll().await? {
                TaskState::Completed(result) => return Ok(result),
                TaskState::Failed(error) => return Err(ClientError::Protocol(error)),
                TaskState::Cancelled => {
                    let id = self.id().unwrap_or_default().to_owned();
                    return Err(ClientError::TaskCancelled(id));
                }
                TaskState::InputRequired(questions) if !questions.is_empty() => {
                    self.ask_handler(questions).await?
                }
                TaskState::Working | TaskState::InputRequired(_) => {}
            }
            tokio::time::sleep(self.poll_interval()).await;
        }
    }

    /// Answers `questions` through the client's input handler. Every key
    /// it was shown counts as answered, so that a question it left open is
    /// not asked again.
    async fn ask_handler(&mut self, questions: InputRequests) -> Result<(), ClientError> {
        let handler = self
            .client
            .inner
            .options
            .input_handler
            .clone()
            .ok_or(ClientError::InputRequired)?;
        let shown: Vec<String> = questions.keys().cloned().collect();
        let responses = handler.respond(questions).await?;
        self.answer(responses).await?;
        if let Kind::Task(task) = &mut self.state {
            task.answered.extend(shown);
        }
        Ok(())
    }
}

/// A terminal task whose answer lacks what its status promises.
fn missing(method: Method, field: &str) -> ClientError {
    ClientError::InvalidResponse(format!("{method}: a task in this status needs `{field}`"))
}
