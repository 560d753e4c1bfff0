//! The questions a request asked and the answers it brought: in 2026-07-28
//! the answers of earlier rounds arrive with the retry, and new questions
//! end the round.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

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
    /// The `requiredCapabilities` of the -32021 error the request ends with.
    missing_capability: Mutex<Option<Value>>,
    /// Why an answer did not read as the result its question asked for:
    /// the request then fails with -32602.
    unreadable_answer: Mutex<Option<String>>,
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
    pub(crate) fn read_answers(&self) -> JsonObject {
        let mut answers = JsonObject::new();
        for key in lock(&self.read).iter() {
            if let Some(answer) = self.answers.get(key)
                && !answers.contains_key(key)
            {
                answers.insert(key.clone(), answer.clone());
            }
        }
        answers
    }

    /// The capability a question needed and the client lacked, as the
    /// `requiredCapabilities` object of a -32021 error.
    pub(crate) fn missing_capability(&self) -> Option<Value> {
        lock(&self.missing_capability).clone()
    }

    /// The questions still open (2026-07-28).
    pub(crate) fn take_questions(&self) -> JsonObject {
        std::mem::take(&mut *lock(&self.questions))
    }

    /// From now on, questions are the task's (`tasks/update` answers them).
    pub(crate) fn attach_task(&self, task: Arc<TaskSlot>) {
        let _ = self.task.set(task);
    }

    /// Why an answer the handler asked for was unreadable, if one was.
    pub(crate) fn unreadable_answer(&self) -> Option<String> {
        lock(&self.unreadable_answer).clone()
    }

    /// Remembers that the answer to `key` did not read as its question
    /// asked (`why`): the request then fails with -32602 saying so.
    pub(crate) fn record_unreadable(&self, key: &str, why: &serde_json::Error) {
        *lock(&self.unreadable_answer) = Some(format!("inputResponses.{key}: {why}"));
    }

    /// Remembers that a question needed `required` (a `requiredCapabilities`
    /// object), which the client lacks: the request then fails with -32021
    /// naming it.
    pub(crate) fn record_missing(&self, required: Value) {
        *lock(&self.missing_capability) = Some(required);
    }

    /// The key of the next question asked without one: `input-0`, `input-1`, ...
    pub(crate) fn next_key(&self) -> String {
        format!("input-{}", self.next_key.fetch_add(1, Ordering::Relaxed))
    }

    /// The answer a retry brought for the question `key`.
    pub(crate) fn answer(&self, key: &str) -> Option<&Value> {
        let answer = self.answers.get(key)?;
        lock(&self.read).push(key.to_owned());
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
