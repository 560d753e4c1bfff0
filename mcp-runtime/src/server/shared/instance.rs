//! One instance's side of the shared state: it writes the tasks it runs to
//! the store, acts on what the store tells it (answers, cancellations,
//! other instances' announcements), and serves `tasks/*` for tasks that
//! other instances run.

use std::sync::{Arc, Mutex, Once, Weak};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::backend::{Backend, Event, StateError, TaskRecord};
use crate::jsonrpc::ErrorObject;
use crate::protocol::{GetTaskResult, InputRequest, JsonObject};
use crate::server::ListChanges;
use crate::server::engine::input::unreadable_answer;
use crate::server::engine::task::{TaskSlot, TaskStore};
use crate::sync::lock;

/// How often the instance collects for its live tasks even when no message
/// came (one may have been lost while the subscription was down).
const SWEEP_EVERY: Duration = Duration::from_secs(1);
/// How long a failing write of a task's state waits before it is retried.
const RETRY_WRITE: Duration = Duration::from_millis(500);
/// How long `tasks/update` on another instance waits for the owner to take
/// the answers, so that a `tasks/get` right after it sees them taken, as on
/// one instance.
const UPDATE_SETTLES: Duration = Duration::from_secs(2);
/// How many announcements may wait for the store before new ones are
/// dropped (with a warning).
const RELAY_BACKLOG: usize = 1024;

/// The shared state of one server, as this instance uses it.
#[derive(Debug)]
pub(crate) struct Instance {
    backend: Arc<dyn Backend>,
    tasks: Option<Weak<TaskStore>>,
    changes: Option<ListChanges>,
    relay: Mutex<Option<mpsc::Receiver<crate::server::ListChange>>>,
    started: Once,
}

impl Instance {
    /// The instance of a server with these tasks and announcements; its
    /// background work starts with [`start`](Self::start).
    pub(crate) fn new(
        backend: Arc<dyn Backend>,
        tasks: Option<&Arc<TaskStore>>,
        changes: Option<&ListChanges>,
    ) -> Arc<Self> {
        let relay = changes.map(|changes| changes.relay(RELAY_BACKLOG));
        Arc::new(Instance {
            backend,
            tasks: tasks.map(Arc::downgrade),
            changes: changes.cloned(),
            relay: Mutex::new(relay),
            started: Once::new(),
        })
    }

    /// Starts the lease, the subscription and the relay of announcements,
    /// once; everything stops when the server is dropped. Must run within
    /// a tokio runtime.
    pub(crate) fn start(self: &Arc<Self>) {
        self.started.call_once(|| {
            let (events, receiver) = mpsc::channel(64);
            self.backend.clone().start(events);
            tokio::spawn(listen(Arc::downgrade(self), receiver));
            if let Some(mut relay) = lock(&self.relay).take() {
                let backend = self.backend.clone();
                tokio::spawn(async move {
                    while let Some(change) = relay.recv().await {
                        if let Err(e) = backend.announce(change).await {
                            tracing::warn!(error = %e, "an announcement did not reach the other instances");
                        }
                    }
                });
            }
        });
    }

    /// Makes a task this instance just created visible to every instance,
    /// then keeps its stored state current until it ends. Fails when the
    /// store cannot be written: other instances would not find the task.
    pub(crate) async fn publish(&self, slot: &Arc<TaskSlot>) -> Result<(), ErrorObject> {
        // Watched before the first write, so no change falls between.
        let changes = slot.changes();
        self.write(slot).await?;
        let Some(mut changed) = changes else {
            return Ok(());
        };
        let backend = self.backend.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let writer = Writer { backend, slot };
            loop {
                tokio::select! {
                    changed = changed.changed() => if changed.is_err() { return },
                    () = tokio::time::sleep_until(writer.slot.expires()) => return,
                }
                changed.borrow_and_update();
                let mut failures = 0u32;
                while let Err(e) = writer.write().await {
                    if failures == 0 {
                        tracing::warn!(error = %e, task = writer.slot.id(), "cannot write a task's state; retrying");
                    }
                    failures += 1;
                    tokio::time::sleep(RETRY_WRITE).await;
                    if Instant::now() >= writer.slot.expires() {
                        return;
                    }
                }
                if failures > 0 {
                    tracing::info!(
                        task = writer.slot.id(),
                        failures,
                        "wrote a task's state again"
                    );
                }
                if writer.slot.snapshot().task.status.is_terminal() {
                    return;
                }
            }
        });
        Ok(())
    }

    async fn write(&self, slot: &Arc<TaskSlot>) -> Result<(), StateError> {
        Writer {
            backend: self.backend.clone(),
            slot: slot.clone(),
        }
        .write()
        .await
    }

    /// `tasks/get` for a task another instance runs (`None`: no such task).
    pub(crate) async fn get(&self, id: &str) -> Result<Option<GetTaskResult>, ErrorObject> {
        let record = self.backend.get_task(id.to_owned()).await?;
        Ok(record.map(|record| record.state))
    }

    /// `tasks/update` for a task another instance runs: checks the answers
    /// to its open questions here (-32602, nothing delivered, when one is
    /// unreadable), hands them to the owner and waits, briefly, until it
    /// took them. `Ok(false)`: no such task.
    pub(crate) async fn update(
        &self,
        id: &str,
        responses: JsonObject,
    ) -> Result<bool, ErrorObject> {
        let Some(record) = self.backend.get_task(id.to_owned()).await? else {
            return Ok(false);
        };
        let open = record.state.input_requests.unwrap_or_default();
        let mut answers = JsonObject::new();
        for (key, response) in responses {
            let Some(question) = open.get(&key) else {
                continue;
            };
            let question = <InputRequest as serde::Deserialize>::deserialize(question)
                .map_err(|e| ErrorObject::internal(format!("a stored question: {e}")))?;
            question
                .read_response(&response)
                .map_err(|why| unreadable_answer(&key, &why))?;
            answers.insert(key, response);
        }
        if answers.is_empty() {
            return Ok(true);
        }
        if !self
            .backend
            .send_answers(id.to_owned(), answers.clone())
            .await?
        {
            return Ok(false);
        }
        let deadline = Instant::now() + UPDATE_SETTLES;
        while Instant::now() < deadline {
            let taken = match self.backend.get_task(id.to_owned()).await? {
                Some(record) => !still_open(&record, &answers),
                None => true,
            };
            if taken {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        Ok(true)
    }

    /// `tasks/cancel` for a task another instance runs. `Ok(false)`: no
    /// such task.
    pub(crate) async fn cancel(&self, id: &str) -> Result<bool, ErrorObject> {
        Ok(self.backend.cancel_task(id.to_owned()).await?)
    }

    /// Takes what waits in the store for task `id`, which runs here.
    async fn collect(&self, store: &TaskStore, id: &str) -> Result<(), StateError> {
        let Some(slot) = store.get(id) else {
            return Ok(());
        };
        let collected = self.backend.collect(id.to_owned()).await?;
        for answers in collected.answers {
            // Checked by the instance that took them.
            let _ = slot.answer(answers);
        }
        if collected.cancelled {
            slot.cancel();
        }
        Ok(())
    }

    async fn handle(&self, event: Event) {
        match event {
            Event::Change(change) => {
                if let Some(changes) = &self.changes {
                    changes.deliver(change);
                }
            }
            Event::Task(id) => {
                if let Some(store) = self.tasks.as_ref().and_then(Weak::upgrade)
                    && let Err(e) = self.collect(&store, &id).await
                {
                    tracing::warn!(error = %e, task = id, "cannot read a task's answers");
                }
            }
            Event::Connected => self.sweep().await,
        }
    }

    /// Collects for every live task this instance runs.
    async fn sweep(&self) {
        let Some(store) = self.tasks.as_ref().and_then(Weak::upgrade) else {
            return;
        };
        for id in store.live_ids() {
            if let Err(e) = self.collect(&store, &id).await {
                // The store is down (the subscription says so); the next
                // sweep tries again.
                tracing::debug!(error = %e, "sweep stopped");
                return;
            }
        }
    }
}

/// Acts on the store's events, and sweeps now and then, until the server
/// is dropped.
async fn listen(instance: Weak<Instance>, mut events: mpsc::Receiver<Event>) {
    let mut sweep = tokio::time::interval(SWEEP_EVERY);
    loop {
        let event = tokio::select! {
            event = events.recv() => event,
            _ = sweep.tick() => Some(Event::Connected),
        };
        let (Some(event), Some(instance)) = (event, instance.upgrade()) else {
            return;
        };
        instance.handle(event).await;
    }
}

/// Writes one task's state.
struct Writer {
    backend: Arc<dyn Backend>,
    slot: Arc<TaskSlot>,
}

impl Writer {
    async fn write(&self) -> Result<(), StateError> {
        let record = TaskRecord {
            owner: self.backend.instance().to_owned(),
            state: self.slot.snapshot(),
        };
        let ttl = self
            .slot
            .expires()
            .saturating_duration_since(Instant::now());
        if !self.backend.put_task(record, ttl).await? {
            // Cancelled elsewhere before this write: end here too.
            self.slot.cancel();
        }
        Ok(())
    }
}

/// Whether any of `answers` still answers an open question of `record`.
fn still_open(record: &TaskRecord, answers: &JsonObject) -> bool {
    !record.ended()
        && record
            .state
            .input_requests
            .as_ref()
            .is_some_and(|open| answers.keys().any(|key| open.contains_key(key)))
}
