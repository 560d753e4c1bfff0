//! The seam between the server and a shared store: what an instance asks
//! of it, and what it hears back.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::jsonrpc::ErrorObject;
use crate::protocol::{GetTaskResult, JsonObject, TaskStatus};
use crate::server::{BoxFuture, ListChange};

/// A store the instances of one server share. Every operation is atomic in
/// the store, so instances racing on one task agree on how it ended.
pub(crate) trait Backend: Send + Sync + fmt::Debug + 'static {
    /// This instance's id: the owner its task records name.
    fn instance(&self) -> &str;

    /// Starts what runs beside the server for as long as `events` is open:
    /// the instance's lease, and the subscription that delivers
    /// [`Event`]s. Called once, within a tokio runtime.
    fn start(self: Arc<Self>, events: mpsc::Sender<Event>);

    /// Writes the state of a task this instance runs, to expire after
    /// `ttl`. `Ok(false)`: the stored task ended already (it was cancelled
    /// elsewhere), and it stays as it ended.
    fn put_task(&self, record: TaskRecord, ttl: Duration) -> BoxFuture<Result<bool, StateError>>;

    /// The task `id`, as its owner last wrote it or as it ended elsewhere:
    /// cancelled, or failed because its owner's lease ran out.
    fn get_task(&self, id: String) -> BoxFuture<Result<Option<TaskRecord>, StateError>>;

    /// Ends a live task as cancelled and tells its owner; an ended task
    /// stays as it is. `Ok(false)`: no such task.
    fn cancel_task(&self, id: String) -> BoxFuture<Result<bool, StateError>>;

    /// Queues `tasks/update` answers for the task's owner and tells it.
    /// `Ok(false)`: no such task.
    fn send_answers(&self, id: String, answers: JsonObject) -> BoxFuture<Result<bool, StateError>>;

    /// For the owner of task `id`: the answers queued for it (taken out of
    /// the store), and whether it was cancelled elsewhere.
    fn collect(&self, id: String) -> BoxFuture<Result<Collected, StateError>>;

    /// Tells every instance (this one included) about `change`.
    fn announce(&self, change: ListChange) -> BoxFuture<Result<(), StateError>>;
}

/// What the store tells an instance.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event {
    /// The (re)opened subscription: messages may have been missed, so the
    /// instance collects for every task it runs.
    Connected,
    /// Task `id`, which this instance runs, has answers or was cancelled.
    Task(String),
    /// An announcement another instance made.
    Change(ListChange),
}

/// A task as the store holds it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TaskRecord {
    /// The instance that runs it.
    pub(crate) owner: String,
    /// What `tasks/get` answers.
    pub(crate) state: GetTaskResult,
}

impl TaskRecord {
    /// Whether the task has ended.
    pub(crate) fn ended(&self) -> bool {
        self.state.task.status.is_terminal()
    }

    /// The record of a task that ended in the store rather than on its
    /// owner: `status` at `at` (RFC 3339), with why.
    pub(crate) fn ended_elsewhere(&mut self, how: EndedBy, at: String) {
        let task = &mut self.state.task;
        task.last_updated_at = at;
        self.state.input_requests = None;
        self.state.result = None;
        match how {
            EndedBy::Cancel => {
                task.status = TaskStatus::Cancelled;
                task.status_message = Some("Cancelled by the client".to_owned());
                self.state.error = None;
            }
            EndedBy::OwnerLost => {
                let message = "the server instance running this task stopped before it finished";
                task.status = TaskStatus::Failed;
                task.status_message = Some(message.to_owned());
                self.state.error = Some(ErrorObject::internal(message).to_object());
            }
        }
    }
}

/// How a task ended without its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EndedBy {
    /// `tasks/cancel` on another instance.
    Cancel,
    /// The owner's lease ran out.
    OwnerLost,
}

/// What [`Backend::collect`] found for a task.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Collected {
    /// `tasks/update` answers, oldest first.
    pub(crate) answers: Vec<JsonObject>,
    /// Whether the task was cancelled elsewhere.
    pub(crate) cancelled: bool,
}

/// The store could not be used: unreachable, or an answer it could not
/// read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StateError(pub(crate) String);

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a remote client hears: that the store failed, and an id to find
/// the details by in this server's log. The details themselves (the
/// store's own message, its address) stay local.
impl From<StateError> for ErrorObject {
    fn from(error: StateError) -> Self {
        let id = correlation_id();
        tracing::error!(correlation_id = %id, %error, "the shared task store is unavailable");
        ErrorObject::internal(format!(
            "the shared task store is unavailable (correlation id {id}; the server's log has \
             the details)"
        ))
    }
}

/// Eight random hex characters: enough to find one failure in a log.
fn correlation_id() -> String {
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).expect("the OS random source is available");
    hex::encode(bytes)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn waiting() -> TaskRecord {
        let state = serde_json::from_value(json!({
            "resultType": "complete", "taskId": "t", "status": "input_required",
            "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z",
            "inputRequests": {"k": {"method": "roots/list"}}
        }))
        .unwrap();
        TaskRecord {
            owner: "a".into(),
            state,
        }
    }

    #[test]
    fn a_store_failure_reaches_clients_as_a_correlation_id_only() {
        let detail = "Redis: Connection refused (os error 111) redis://:pw@10.0.0.7:6379";
        let first = ErrorObject::from(StateError(detail.into()));
        let second = ErrorObject::from(StateError(detail.into()));
        assert_eq!(first.code, -32603);
        for error in [&first, &second] {
            let message = &error.message;
            assert!(!message.to_lowercase().contains("redis"), "{message}");
            assert!(!message.contains("10.0.0.7"), "{message}");
            let id = correlation_id_in(message);
            assert_eq!(id.len(), 8, "{message}");
            assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{message}");
        }
        assert_ne!(
            correlation_id_in(&first.message),
            correlation_id_in(&second.message)
        );
    }

    fn correlation_id_in(message: &str) -> &str {
        let start = message.find("correlation id ").expect(message) + "correlation id ".len();
        &message[start..start + 8]
    }

    #[test]
    fn a_task_ended_elsewhere_reads_as_cancelled_or_failed() {
        let mut cancelled = waiting();
        assert!(!cancelled.ended());
        cancelled.ended_elsewhere(EndedBy::Cancel, "2026-01-01T00:00:05Z".into());
        assert!(cancelled.ended());
        let json = serde_json::to_value(&cancelled.state).unwrap();
        assert_eq!(json["status"], "cancelled");
        assert_eq!(json["lastUpdatedAt"], "2026-01-01T00:00:05Z");
        assert_eq!(json.get("inputRequests"), None, "{json}");

        let mut lost = waiting();
        lost.ended_elsewhere(EndedBy::OwnerLost, "2026-01-01T00:00:09Z".into());
        let json = serde_json::to_value(&lost.state).unwrap();
        assert_eq!(json["status"], "failed");
        assert_eq!(json["error"]["code"], -32603);
        assert!(json["statusMessage"].as_str().unwrap().contains("instance"));
    }
}
