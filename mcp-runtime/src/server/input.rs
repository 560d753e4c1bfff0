//! Asking the client for input while a request runs (elicitation, sampling,
//! roots), with one API for both eras:
//!
//! - legacy: a server-to-client JSON-RPC request, answered by the client;
//! - 2026-07-28: the handler's question is collected, the request ends with
//!   an `input_required` result, and the client retries with the answers.
//!   The handler then runs again from the start and the same question, asked
//!   in the same order, is answered at once from the retry.
//!
//! Handlers should therefore ask their questions before side effects.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::context::{Era, RequestContext};
use super::task::TaskSlot;
use crate::jsonrpc::{ErrorObject, RequestId, Response, request_frame};
use crate::protocol::{
    CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult, ElicitRequest,
    ElicitRequestParams, ElicitResult, InputRequest, InputRequests, InputResponse,
    ListRootsRequest, ListRootsResult,
};

/// Why a question to the client got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// The client did not declare the capability the question needs (the
    /// request fails with -32021 naming it).
    MissingCapability(&'static str),
    /// 2026-07-28: the question goes back to the client in an
    /// `input_required` result; return this error from the handler.
    Pending,
    /// The client answered with an error or with something unreadable.
    Rejected(String),
    /// No answer in time, or the connection closed.
    NoAnswer,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::MissingCapability(capability) => {
                write!(f, "the client does not support {capability}")
            }
            InputError::Pending => f.write_str("waiting for the client's answer"),
            InputError::Rejected(why) => write!(f, "the client refused: {why}"),
            InputError::NoAnswer => f.write_str("the client did not answer"),
        }
    }
}

impl std::error::Error for InputError {}

/// The questions and answers of one request.
#[derive(Debug, Default)]
pub(crate) struct InputState {
    /// Answers from the retry (2026-07-28), keyed like the questions.
    answers: BTreeMap<String, InputResponse>,
    next_key: AtomicUsize,
    questions: Mutex<InputRequests>,
    missing_capability: Mutex<Option<&'static str>>,
    /// Set when the request became a task: new questions go to the task.
    task: OnceLock<Arc<TaskSlot>>,
}

impl InputState {
    pub(crate) fn with_answers(answers: BTreeMap<String, InputResponse>) -> Self {
        InputState {
            answers,
            ..InputState::default()
        }
    }

    pub(crate) fn answers(&self) -> &BTreeMap<String, InputResponse> {
        &self.answers
    }

    /// The capability a question needed and the client lacked, as the
    /// `requiredCapabilities` object of a -32021 error.
    pub(crate) fn missing_capability(&self) -> Option<Value> {
        lock(&self.missing_capability).map(|capability| json!({ capability: {} }))
    }

    /// The questions still open (2026-07-28).
    pub(crate) fn take_questions(&self) -> InputRequests {
        std::mem::take(&mut *lock(&self.questions))
    }

    /// From now on, questions are the task's (`tasks/update` answers them).
    pub(crate) fn attach_task(&self, task: Arc<TaskSlot>) {
        let _ = self.task.set(task);
    }

    /// The task the request became, if it did.
    pub(crate) fn task(&self) -> Option<&TaskSlot> {
        self.task.get().map(|task| &**task)
    }
}

/// Server-to-client requests of one connection awaiting the client's answer.
#[derive(Debug, Default)]
pub(crate) struct Replies {
    next_id: AtomicI64,
    waiting: Mutex<HashMap<RequestId, oneshot::Sender<Result<Value, ErrorObject>>>>,
}

impl Replies {
    fn expect(&self) -> (RequestId, oneshot::Receiver<Result<Value, ErrorObject>>) {
        let id = RequestId::String(format!(
            "server-{}",
            self.next_id.fetch_add(1, Ordering::Relaxed)
        ));
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(id.clone(), tx);
        (id, rx)
    }

    fn forget(&self, id: &RequestId) {
        lock(&self.waiting).remove(id);
    }

    /// Delivers the client's answer; answers to nothing are dropped.
    pub(crate) fn complete(&self, response: Response) {
        match lock(&self.waiting).remove(&response.id) {
            Some(waiter) => {
                let _ = waiter.send(response.outcome);
            }
            None => tracing::debug!(id = %response.id, "answer to no request of ours ignored"),
        }
    }
}

/// How long a legacy client may take to answer (a person may be filling in
/// a form).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(600);

impl RequestContext {
    /// Asks the user for input through the client (`elicitation/create`).
    pub async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, InputError> {
        let request = InputRequest::Elicit(ElicitRequest {
            jsonrpc: None,
            id: None,
            params,
        });
        match self.ask(request, "elicitation").await? {
            InputResponse::Elicit(result) => Ok(result),
            other => Err(InputError::Rejected(format!(
                "expected an elicitation result, got {other:?}"
            ))),
        }
    }

    /// Asks the client's model for a completion (`sampling/createMessage`).
    pub async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, InputError> {
        let request = InputRequest::CreateMessage(CreateMessageRequest {
            jsonrpc: None,
            id: None,
            params,
        });
        match self.ask(request, "sampling").await? {
            InputResponse::CreateMessage(result) => Ok(result),
            other => Err(InputError::Rejected(format!(
                "expected a sampling result, got {other:?}"
            ))),
        }
    }

    /// Asks the client for its roots (`roots/list`).
    pub async fn list_roots(&self) -> Result<ListRootsResult, InputError> {
        let request = InputRequest::ListRoots(ListRootsRequest {
            jsonrpc: None,
            id: None,
            params: None,
        });
        match self.ask(request, "roots").await? {
            InputResponse::ListRoots(result) => Ok(result),
            other => Err(InputError::Rejected(format!(
                "expected a roots result, got {other:?}"
            ))),
        }
    }

    /// Asks the client for input under a key the caller picks: in
    /// 2026-07-28 the question travels as `inputRequests[key]` and its answer
    /// comes back as `inputResponses[key]` (the other methods number their
    /// questions `input-0`, `input-1`, ...). Use it when a client or a test
    /// expects particular keys; keys must be unique within a request.
    pub async fn ask_as(
        &self,
        key: &str,
        request: InputRequest,
    ) -> Result<InputResponse, InputError> {
        let capability = match &request {
            InputRequest::Elicit(_) => "elicitation",
            InputRequest::CreateMessage(_) => "sampling",
            InputRequest::ListRoots(_) => "roots",
        };
        self.ask_keyed(Some(key.to_owned()), request, capability)
            .await
    }

    async fn ask(
        &self,
        request: InputRequest,
        capability: &'static str,
    ) -> Result<InputResponse, InputError> {
        self.ask_keyed(None, request, capability).await
    }

    async fn ask_keyed(
        &self,
        key: Option<String>,
        request: InputRequest,
        capability: &'static str,
    ) -> Result<InputResponse, InputError> {
        let caps = &self.client.capabilities;
        let declared = match capability {
            "elicitation" => caps.elicitation.is_some(),
            "sampling" => caps.sampling.is_some(),
            _ => caps.roots.is_some(),
        };
        if !declared {
            *lock(&self.input.missing_capability) = Some(capability);
            return Err(InputError::MissingCapability(capability));
        }
        let key = key.unwrap_or_else(|| {
            format!(
                "input-{}",
                self.input.next_key.fetch_add(1, Ordering::Relaxed)
            )
        });
        match self.client.era {
            Era::Modern => match (self.input.answers.get(&key), self.input.task()) {
                (Some(answer), _) => Ok(answer.clone()),
                // A task waits for `tasks/update` to answer.
                (None, Some(task)) => task.ask(key, request).await,
                (None, None) => {
                    lock(&self.input.questions).insert(key, request);
                    Err(InputError::Pending)
                }
            },
            Era::Legacy => self.ask_now(request).await,
        }
    }

    /// Legacy: a server-to-client request on this connection.
    async fn ask_now(&self, request: InputRequest) -> Result<InputResponse, InputError> {
        let (method, params) = match &request {
            InputRequest::Elicit(r) => ("elicitation/create", serde_json::to_value(&r.params)),
            InputRequest::CreateMessage(r) => {
                ("sampling/createMessage", serde_json::to_value(&r.params))
            }
            InputRequest::ListRoots(r) => ("roots/list", serde_json::to_value(&r.params)),
        };
        let params = params.map_err(|e| InputError::Rejected(e.to_string()))?;
        if !self.peer.carries_requests() {
            return Err(InputError::NoAnswer);
        }
        let replies = &self.session.replies;
        let (id, answer) = replies.expect();
        // Forgets the question however this future ends, cancellation included.
        let _forget = Forget { replies, id: &id };
        let params = (!params.is_null()).then_some(params);
        self.peer
            .send(request_frame(&id, method, params.as_ref()))
            .await;
        let outcome = tokio::time::timeout(ANSWER_TIMEOUT, answer).await;
        let result = match outcome {
            Ok(Ok(Ok(result))) => result,
            Ok(Ok(Err(error))) => return Err(InputError::Rejected(error.message)),
            _ => return Err(InputError::NoAnswer),
        };
        let parsed = match request {
            InputRequest::Elicit(_) => serde_json::from_value(result).map(InputResponse::Elicit),
            InputRequest::CreateMessage(_) => {
                serde_json::from_value(result).map(InputResponse::CreateMessage)
            }
            InputRequest::ListRoots(_) => {
                serde_json::from_value(result).map(InputResponse::ListRoots)
            }
        };
        parsed.map_err(|e| InputError::Rejected(format!("unreadable answer: {e}")))
    }
}

/// Removes a question from the waiting list when dropped.
struct Forget<'a> {
    replies: &'a Replies,
    id: &'a RequestId,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.replies.forget(self.id);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
