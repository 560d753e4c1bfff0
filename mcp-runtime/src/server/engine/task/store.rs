//! The tasks a server holds: a bounded map from unguessable ids to task
//! slots, each with its status, its open questions and, once it ended, its
//! result or error. Only task creation and the `tasks/*` methods lock the
//! map; a slot's own lock guards one task.
//!
//! Every task lives exactly its TTL from creation: a driver task runs the
//! work, records how it ended, then removes the task when the TTL is over
//! (work still running then is dropped). The map never holds more than
//! `max_tasks` tasks, so a client cannot exhaust memory by creating them.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, SystemTime};

use serde_json::Value;
use tokio::sync::{oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::clock::rfc3339;
use crate::jsonrpc::ErrorObject;
use crate::lifetime::{bounded, millis};
use crate::protocol::{
    CreateTaskResult, GetTaskResult, InputResponse, JsonObject, ReadResponse, Task, TaskStatus,
};
use crate::server::InputError;
use crate::server::engine::input::unreadable_answer;
use crate::sync::lock;

/// How a task's work ended: the request's result, or its JSON-RPC error.
pub(crate) type Outcome = Result<JsonObject, ErrorObject>;

/// The tasks of one server.
#[derive(Debug)]
pub(crate) struct TaskStore {
    tasks: Mutex<HashMap<String, Arc<TaskSlot>>>,
    max_tasks: usize,
    ttl: Duration,
    poll_interval: Duration,
    /// Whether each task's changes are watched (to be written to a shared
    /// store).
    watched: bool,
}

impl TaskStore {
    /// A store of at most `max_tasks` tasks, each kept `ttl` (at most a
    /// year) from its creation.
    pub(crate) fn new(max_tasks: usize, ttl: Duration, poll_interval: Duration) -> Self {
        TaskStore {
            tasks: Mutex::default(),
            max_tasks,
            ttl: bounded(ttl),
            poll_interval,
            watched: false,
        }
    }

    /// Lets each task's changes be watched ([`TaskSlot::changes`]).
    #[cfg(feature = "redis")]
    pub(crate) fn watched(mut self) -> Self {
        self.watched = true;
        self
    }

    /// The ids of the tasks that have not ended.
    #[cfg(feature = "redis")]
    pub(crate) fn live_ids(&self) -> Vec<String> {
        lock(&self.tasks)
            .values()
            .filter(|slot| !lock(&slot.state).status.is_terminal())
            .map(|slot| slot.id.clone())
            .collect()
    }

    /// Creates a task in status `working`, findable at once, whose work
    /// watches `cancellation`. When the store holds `max_tasks` tasks the
    /// oldest ended one makes room (so finished or cancelled tasks cannot
    /// block new ones for a whole TTL); with every one still running, the
    /// call fails with -32603.
    pub(crate) fn create(
        &self,
        cancellation: CancellationToken,
    ) -> Result<Arc<TaskSlot>, ErrorObject> {
        let mut tasks = lock(&self.tasks);
        if tasks.len() >= self.max_tasks {
            let oldest_ended = tasks
                .values()
                .filter(|slot| lock(&slot.state).status.is_terminal())
                .min_by_key(|slot| slot.expires)
                .map(|slot| slot.id.clone());
            let Some(oldest_ended) = oldest_ended else {
                return Err(ErrorObject::internal(format!(
                    "the server runs its maximum of {} tasks; try again later",
                    self.max_tasks
                )));
            };
            tasks.remove(&oldest_ended);
        }
        let now = SystemTime::now();
        let slot = Arc::new(TaskSlot {
            id: task_id(),
            created_at: rfc3339(now),
            ttl_ms: millis(self.ttl),
            poll_interval_ms: millis(self.poll_interval).max(1),
            expires: Instant::now() + self.ttl,
            cancellation,
            changed: self.watched.then(|| watch::channel(()).0),
            state: Mutex::new(TaskState {
                status: TaskStatus::Working,
                status_message: None,
                last_updated_at: now,
                waiting: Vec::new(),
                asked: BTreeSet::new(),
                outcome: None,
            }),
        });
        tasks.insert(slot.id.clone(), slot.clone());
        Ok(slot)
    }

    /// The task `id`, unless it never existed or its TTL is over.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<TaskSlot>> {
        lock(&self.tasks).get(id).cloned()
    }

    /// Runs `work` as the task's body (none when it has ended already):
    /// its outcome becomes the task's result unless the task was cancelled
    /// first; at the end of the TTL the task disappears.
    pub(crate) fn drive<W>(self: &Arc<Self>, slot: Arc<TaskSlot>, work: Option<W>)
    where
        W: Future<Output = Outcome> + Send + 'static,
    {
        // Weak: a dropped server does not keep its store alive for a TTL.
        let store: Weak<TaskStore> = Arc::downgrade(self);
        tokio::spawn(async move {
            if let Some(work) = work {
                tokio::select! {
                    outcome = work => slot.finish(outcome),
                    // The status says cancelled already; dropping the work
                    // stops it.
                    () = slot.cancellation.cancelled() => {}
                    () = tokio::time::sleep_until(slot.expires) => {}
                }
            }
            tokio::time::sleep_until(slot.expires).await;
            slot.cancellation.cancel();
            if let Some(store) = store.upgrade() {
                lock(&store.tasks).remove(&slot.id);
            }
        });
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        lock(&self.tasks).len()
    }
}

/// One task.
#[derive(Debug)]
pub(crate) struct TaskSlot {
    id: String,
    created_at: String,
    ttl_ms: u64,
    poll_interval_ms: u64,
    expires: Instant,
    /// Fired by `tasks/cancel` and at the end of the TTL.
    cancellation: CancellationToken,
    state: Mutex<TaskState>,
    /// Told of every change of `state`, when the store is watched.
    changed: Option<watch::Sender<()>>,
}

#[derive(Debug)]
struct TaskState {
    status: TaskStatus,
    status_message: Option<String>,
    last_updated_at: SystemTime,
    /// Questions the work waits on, keyed like `inputRequests` (a few at
    /// a time, and keys are never reused: a list, not a map).
    waiting: Vec<(String, Waiting)>,
    /// Every key asked so far: a key names one question for the task's life.
    asked: BTreeSet<String>,
    outcome: Option<Outcome>,
}

/// A question as JSON, how to read its answer, and where the answer goes.
/// The asker writes the question and gives the reader, so that a server
/// whose handlers never ask compiles no question writer or answer reader.
#[derive(Debug)]
struct Waiting {
    question: Value,
    read: ReadResponse,
    answer: oneshot::Sender<InputResponse>,
}

impl TaskState {
    /// Derives a live task's status from its open questions.
    fn settle(&mut self) {
        if self.status.is_terminal() {
            return;
        }
        let status = match self.waiting.is_empty() {
            true => TaskStatus::Working,
            false => TaskStatus::InputRequired,
        };
        if status != self.status {
            self.status = status;
            self.last_updated_at = SystemTime::now();
        }
    }

    fn waiting_at(&self, key: &str) -> Option<usize> {
        self.waiting.iter().position(|(asked, _)| asked == key)
    }

    /// Takes the question `key` back, when it is still open.
    fn withdraw(&mut self, key: &str) -> Option<Waiting> {
        let at = self.waiting_at(key)?;
        Some(self.waiting.swap_remove(at).1)
    }

    fn end(&mut self, status: TaskStatus, message: Option<String>, outcome: Option<Outcome>) {
        self.status = status;
        if message.is_some() {
            self.status_message = message;
        }
        self.outcome = outcome;
        self.waiting.clear();
        self.last_updated_at = SystemTime::now();
    }
}

impl TaskSlot {
    /// The task's id.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// When the task's TTL ends.
    #[cfg(feature = "redis")]
    pub(crate) fn expires(&self) -> Instant {
        self.expires
    }

    /// A receiver told of each later change of the task's state, when the
    /// store is watched.
    #[cfg(feature = "redis")]
    pub(crate) fn changes(&self) -> Option<watch::Receiver<()>> {
        self.changed.as_ref().map(watch::Sender::subscribe)
    }

    fn touched(&self) {
        if let Some(changed) = &self.changed {
            changed.send_replace(());
        }
    }

    /// The answer to the request that created the task.
    pub(crate) fn created(&self) -> CreateTaskResult {
        let state = lock(&self.state);
        CreateTaskResult::new(self.task(&state))
    }

    /// What `tasks/get` answers: the task, and what its status carries.
    pub(crate) fn snapshot(&self) -> GetTaskResult {
        let state = lock(&self.state);
        let input_requests = (state.status == TaskStatus::InputRequired).then(|| {
            // Inserted one by one: collecting into a map sorts a vector
            // first, one more sort compiled for nothing.
            let mut open = JsonObject::new();
            for (key, waiting) in &state.waiting {
                open.insert(key.clone(), waiting.question.clone());
            }
            open
        });
        let (result, error) = match &state.outcome {
            Some(Ok(result)) => (Some(result.clone()), None),
            Some(Err(error)) => (None, Some(error.to_object())),
            None => (None, None),
        };
        GetTaskResult {
            input_requests,
            result,
            error,
            ..GetTaskResult::new(self.task(&state))
        }
    }

    fn task(&self, state: &TaskState) -> Task {
        Task {
            task_id: self.id.clone(),
            status: state.status,
            status_message: state.status_message.clone(),
            created_at: self.created_at.clone(),
            last_updated_at: rfc3339(state.last_updated_at),
            ttl_ms: Some(self.ttl_ms),
            poll_interval_ms: Some(self.poll_interval_ms),
        }
    }

    /// Records how the work ended, unless the task ended before (cancelled).
    pub(crate) fn finish(&self, outcome: Outcome) {
        let mut state = lock(&self.state);
        if state.status.is_terminal() {
            return;
        }
        let (status, message) = match &outcome {
            Ok(_) => (TaskStatus::Completed, None),
            Err(error) => (TaskStatus::Failed, Some(error.message.clone())),
        };
        state.end(status, message, Some(outcome));
        drop(state);
        self.touched();
    }

    /// `tasks/cancel`: a live task ends as cancelled and its work is
    /// dropped; an ended task stays as it is.
    pub(crate) fn cancel(&self) {
        {
            let mut state = lock(&self.state);
            if state.status.is_terminal() {
                return;
            }
            state.end(
                TaskStatus::Cancelled,
                Some("Cancelled by the client".to_owned()),
                None,
            );
        }
        self.touched();
        self.cancellation.cancel();
    }

    /// Sets the status message `tasks/get` shows (a live task only).
    pub(crate) fn set_status_message(&self, message: &str) {
        let mut state = lock(&self.state);
        if !state.status.is_terminal() && state.status_message.as_deref() != Some(message) {
            state.status_message = Some(message.to_owned());
            state.last_updated_at = SystemTime::now();
            drop(state);
            self.touched();
        }
    }

    /// Asks the client through the task: the question shows in `tasks/get`
    /// under `key` (status `input_required`) until `tasks/update` answers it.
    pub(crate) async fn ask(
        &self,
        key: String,
        question: Value,
        read: ReadResponse,
    ) -> Result<InputResponse, InputError> {
        let answer = {
            let mut state = lock(&self.state);
            if state.status.is_terminal() {
                return Err(InputError::NoAnswer);
            }
            if !state.asked.insert(key.clone()) {
                return Err(InputError::Rejected(format!(
                    "the question key `{key}` was used before in this task; keys name one question each"
                )));
            }
            let (answer, receiver) = oneshot::channel();
            state.waiting.push((
                key.clone(),
                Waiting {
                    question,
                    read,
                    answer,
                },
            ));
            state.settle();
            receiver
        };
        self.touched();
        // Withdraws the question however this future ends.
        let _withdraw = Withdraw { slot: self, key };
        answer.await.map_err(|_| InputError::NoAnswer)
    }

    /// Takes back every open question: their askers get no answer. For a
    /// request that has failed, whose answers could change nothing.
    pub(crate) fn withdraw_all(&self) {
        let mut state = lock(&self.state);
        if state.waiting.is_empty() {
            return;
        }
        state.waiting.clear();
        state.settle();
        drop(state);
        self.touched();
    }

    /// `tasks/update`: delivers the answers to open questions; answers to
    /// other keys are ignored. An unreadable answer to an open question
    /// fails the update (-32602) and delivers nothing.
    pub(crate) fn answer(&self, responses: JsonObject) -> Result<(), ErrorObject> {
        let mut state = lock(&self.state);
        let mut answers = Vec::new();
        for (key, response) in responses {
            let Some(at) = state.waiting_at(&key) else {
                continue;
            };
            let response = (state.waiting[at].1.read)(&response)
                .map_err(|why| unreadable_answer(&key, &why))?;
            answers.push((key, response));
        }
        for (key, response) in answers {
            if let Some(waiting) = state.withdraw(&key) {
                // The work may have stopped waiting; then the answer is moot.
                let _ = waiting.answer.send(response);
            }
        }
        state.settle();
        drop(state);
        self.touched();
        Ok(())
    }
}

/// Takes a question back from a task when the asking future ends.
struct Withdraw<'a> {
    slot: &'a TaskSlot,
    key: String,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        let mut state = lock(&self.slot.state);
        if state.withdraw(&self.key).is_some() {
            state.settle();
            drop(state);
            self.slot.touched();
        }
    }
}

/// A random version 4 UUID: 122 random bits, so ids cannot be guessed and
/// can serve as bearer handles.
fn task_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS random source is available");
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = hex::encode(bytes);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::protocol::InputRequest;

    /// An elicitation, as JSON and as the reader of its answer.
    fn question() -> (Value, ReadResponse) {
        let question = json!({
            "method": "elicitation/create",
            "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}}
        });
        let request: InputRequest = serde_json::from_value(question.clone()).unwrap();
        (question, request.response_reader())
    }

    fn store() -> TaskStore {
        TaskStore::new(2, Duration::from_secs(60), Duration::from_millis(500))
    }

    #[tokio::test]
    async fn a_question_is_withdrawn_when_the_asking_future_ends() {
        let store = store();
        let slot = store.create(CancellationToken::new()).unwrap();
        let (question, read) = question();
        let mut asking = Box::pin(slot.ask("k".to_owned(), question.clone(), read));
        assert!(futures_poll_once(asking.as_mut()).is_pending());
        let snapshot = slot.snapshot();
        assert_eq!(snapshot.task.status, TaskStatus::InputRequired);
        assert_eq!(snapshot.input_requests.unwrap()["k"], question);
        drop(asking);
        let snapshot = slot.snapshot();
        assert_eq!(snapshot.task.status, TaskStatus::Working);
        assert_eq!(snapshot.input_requests, None);
        // A key names one question for the task's life.
        let again = slot.ask("k".to_owned(), question, read).await;
        assert!(matches!(again, Err(InputError::Rejected(_))), "{again:?}");
    }

    #[tokio::test]
    async fn an_update_is_read_as_its_question_asked_and_a_wrong_one_delivers_nothing() {
        let store = store();
        let slot = store.create(CancellationToken::new()).unwrap();
        let (question, read) = question();
        let mut asking = Box::pin(slot.ask("k".to_owned(), question, read));
        assert!(futures_poll_once(asking.as_mut()).is_pending());
        // A sampling result answers no elicitation.
        let sampled = json!({"role": "assistant", "model": "m",
            "content": {"type": "text", "text": "hi"}});
        let answers = JsonObject::from_iter([("k".to_owned(), sampled)]);
        let error = slot.answer(answers).unwrap_err();
        assert_eq!(error.code, crate::jsonrpc::code::INVALID_PARAMS);
        assert!(error.message.starts_with("inputResponses.k: "), "{error:?}");
        assert_eq!(slot.snapshot().task.status, TaskStatus::InputRequired);

        let accepted = json!({"action": "accept", "content": {"name": "Ada"}});
        let answers = JsonObject::from_iter([("k".to_owned(), accepted.clone())]);
        slot.answer(answers).unwrap();
        let answer = asking.await.unwrap();
        assert_eq!(answer, read(&accepted).unwrap());
        assert!(matches!(answer, InputResponse::Elicit(_)), "{answer:?}");
        assert_eq!(slot.snapshot().task.status, TaskStatus::Working);
    }

    #[test]
    fn the_store_refuses_tasks_beyond_its_bound() {
        let store = store();
        let first = store.create(CancellationToken::new()).unwrap();
        let second = store.create(CancellationToken::new()).unwrap();
        assert_ne!(first.id(), second.id());
        let error = store.create(CancellationToken::new()).unwrap_err();
        assert_eq!(error.code, crate::jsonrpc::code::INTERNAL_ERROR);
        assert_eq!(store.len(), 2);
        assert!(store.get(first.id()).is_some());
    }

    #[test]
    fn a_full_store_makes_room_by_dropping_its_oldest_ended_task() {
        let store = TaskStore::new(3, Duration::from_secs(60), Duration::from_millis(500));
        let running = store.create(CancellationToken::new()).unwrap();
        let older = store.create(CancellationToken::new()).unwrap();
        std::thread::sleep(Duration::from_millis(2)); // a later expiry
        let newer = store.create(CancellationToken::new()).unwrap();
        newer.finish(Ok(JsonObject::new()));
        older.cancel();
        let fourth = store.create(CancellationToken::new()).unwrap();
        assert!(
            store.get(older.id()).is_none(),
            "the oldest ended task went"
        );
        for kept in [&running, &newer, &fourth] {
            assert!(store.get(kept.id()).is_some());
        }
        let fifth = store.create(CancellationToken::new()).unwrap();
        assert!(store.get(newer.id()).is_none());
        assert!(store.get(fifth.id()).is_some());
        // Only running tasks left: no room.
        assert!(store.create(CancellationToken::new()).is_err());
        assert_eq!(store.len(), 3);
    }

    fn futures_poll_once<F: Future>(future: std::pin::Pin<&mut F>) -> std::task::Poll<F::Output> {
        let waker = std::task::Waker::noop();
        future.poll(&mut std::task::Context::from_waker(waker))
    }
}
