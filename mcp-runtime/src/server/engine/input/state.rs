//! The questions a request asked and the answers it brought: in 2026-07-28
//! the answers of earlier rounds arrive with the retry, and new questions
//! end the round.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use crate::jsonrpc::ErrorObject;
use crate::protocol::JsonObject;
use crate::server::engine::task::TaskSlot;
use crate::sync::lock;

/// The questions and answers of one request.
#[derive(Debug, Default)]
pub(crate) struct InputState {
    /// Answers from the retry (2026-07-28), keyed like the questions, as
    /// the client sent them: each is read when its question is asked again.
    answers: JsonObject,
    /// The keys of the answers the handler read: only those go on into
    /// the next `requestState`.
    read: Mutex<Vec<String>>,
    next_key: AtomicUsize,
    /// Open questions (2026-07-28), keyed, written to JSON when asked.
    questions: Mutex<JsonObject>,
    /// The error the request ends with whatever its handler returns: the
    /// first of -32021 (a question needed a capability the client lacks)
    /// and -32602 (an answer was not its question's result).
    failure: Mutex<Option<ErrorObject>>,
    /// Set when the request became a task: new questions go to the task.
    task: OnceLock<Arc<TaskSlot>>,
}

impl InputState {
    pub(crate) fn with_answers(answers: JsonObject) -> Self {
        InputState {
            answers,
            ..InputState::default()
        }
    }

    /// The answers the handler read, for the next round's `requestState`:
    /// an answer to a question it never asked is not carried on.
    /// Borrowed: they are only written into the sealed state.
    pub(crate) fn read_answers(&self) -> BTreeMap<&str, &Value> {
        let read = lock(&self.read);
        read.iter()
            .filter_map(|key| self.answers.get_key_value(key.as_str()))
            .map(|(key, answer)| (key.as_str(), answer))
            .collect()
    }

    /// The error the request must end with, if a question or an answer
    /// went wrong (see `failure`).
    pub(crate) fn failure(&self) -> Option<ErrorObject> {
        lock(&self.failure).clone()
    }

    /// The questions still open (2026-07-28).
    pub(crate) fn take_questions(&self) -> JsonObject {
        std::mem::take(&mut *lock(&self.questions))
    }

    /// From now on, questions are the task's (`tasks/update` answers them).
    pub(crate) fn attach_task(&self, task: Arc<TaskSlot>) {
        let _ = self.task.set(task);
    }

    /// Remembers that the answer to `key` did not read as its question
    /// asked (`why`): the request then fails with -32602 saying so.
    pub(crate) fn record_unreadable(&self, key: &str, why: &serde_json::Error) {
        self.fail(unreadable_answer(key, why));
    }

    /// Remembers that a question needed `required` (a `requiredCapabilities`
    /// object), which the client lacks: the request then fails with -32021
    /// naming it.
    pub(crate) fn record_missing(&self, required: Value) {
        self.fail(ErrorObject::missing_required_client_capability(required));
    }

    /// Records the request's failure; a task it became stops waiting for
    /// answers to questions asked before (later ones are refused).
    fn fail(&self, error: ErrorObject) {
        lock(&self.failure).get_or_insert(error);
        if let Some(task) = self.task() {
            task.withdraw_all();
        }
    }

    /// The key of the next question asked without one: `input-0`, `input-1`, ...
    pub(crate) fn next_key(&self) -> String {
        format!("input-{}", self.next_key.fetch_add(1, Ordering::Relaxed))
    }

    /// The answer a retry brought for the question `key`.
    pub(crate) fn answer(&self, key: &str) -> Option<&Value> {
        let answer = self.answers.get(key)?;
        let mut read = lock(&self.read);
        if !read.iter().any(|k| k == key) {
            read.push(key.to_owned());
        }
        Some(answer)
    }

    /// Keeps a question for the `input_required` result.
    pub(crate) fn defer(&self, key: String, question: Value) {
        lock(&self.questions).insert(key, question);
    }

    /// The task the request became, if it did.
    pub(crate) fn task(&self) -> Option<&TaskSlot> {
        self.task.get().map(|task| &**task)
    }
}

/// -32602 for an answer to the question `key` that is not the result the
/// question asked for (`why`): one wording wherever answers are read.
pub(crate) fn unreadable_answer(key: &str, why: &serde_json::Error) -> ErrorObject {
    ErrorObject::invalid_params(format!("inputResponses.{key}: {why}"))
}
