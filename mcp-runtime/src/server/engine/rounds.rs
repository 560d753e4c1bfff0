//! Multi-round requests: the answers a 2026-07-28 retry brings (verified
//! from its sealed `requestState`), and how a round ends when the handler
//! asked the client something.

use std::future::Future;
use std::sync::Arc;

use serde_json::Value;

use super::client_meta::Era;
use super::input::InputState;
use super::method::Method;
use super::params::{PendingReply, Reply};
use super::request_state::{self, StateKey};
use super::shape::Shaped;
use crate::jsonrpc::{ErrorObject, RequestId};
use crate::protocol::{InputRequiredResult, InputResponses};
use crate::server::{RequestContext, Server};

impl Server {
    /// Runs a handler that may ask the client for input. A question the
    /// client lacks the capability for fails the request with -32021; in
    /// 2026-07-28, open questions end it with an `input_required` result
    /// whose sealed `requestState` carries the answers the handler read.
    /// `run` starts the handler here, so the boxed future holds what the
    /// handler returned and the round, not the request's context.
    pub(super) fn with_input<'a, T, F, Fut>(
        &'a self,
        era: Era,
        id: RequestId,
        mut rounds: Rounds,
        mut context: RequestContext,
        run: F,
    ) -> PendingReply<'a>
    where
        T: Shaped,
        F: FnOnce(RequestContext) -> Fut,
        Fut: Future<Output = Result<T, ErrorObject>> + Send + 'a,
    {
        let input = match self.open_rounds(era, &mut rounds, &mut context) {
            Ok(input) => input,
            Err(error) => return Box::pin(std::future::ready(Err(error))),
        };
        let running = run(context);
        Box::pin(async move {
            let outcome = running.await;
            match self.input_reply(&id, &rounds, &input) {
                Some(reply) => reply,
                None => outcome.map(|result| self.answer(era, rounds.method, &id, result)),
            }
        })
    }

    /// Gives `context` the answers its request brings from earlier rounds
    /// (2026-07-28; legacy questions are answered while the handler
    /// waits), and returns the state its handler's questions go to. A
    /// request that brings none keeps the empty state it was admitted
    /// with (made for this request alone), rather than making a second.
    pub(crate) fn open_rounds(
        &self,
        era: Era,
        rounds: &mut Rounds,
        context: &mut RequestContext,
    ) -> Result<Arc<InputState>, ErrorObject> {
        if matches!(era, Era::Modern) && rounds.brings_answers() {
            let answers = rounds.answers(&self.inner.options.request_state_key)?;
            context.input = Arc::new(answers);
        }
        Ok(context.input.clone())
    }

    /// How a request ends when its handler asked the client something:
    /// -32021 for a capability the client lacks, -32602 for an answer that
    /// is not the result its question asked for, an `input_required`
    /// result for open questions; `None` when it asked nothing new.
    pub(crate) fn input_reply(
        &self,
        id: &RequestId,
        rounds: &Rounds,
        input: &InputState,
    ) -> Option<Reply> {
        if let Some(error) = input.failure() {
            return Some(Err(error));
        }
        let questions = input.take_questions();
        if questions.is_empty() {
            return None;
        }
        let options = &self.inner.options;
        let state = request_state::seal(
            &options.request_state_key,
            rounds.method.name(),
            &rounds.digest(),
            &input.read_answers(),
            options.request_state_ttl,
        );
        let result = InputRequiredResult::new(questions, state);
        Some(Ok(self.answer(Era::Modern, rounds.method, id, result)))
    }
}

/// What identifies a multi-round request, and the answers its retry carries.
pub(crate) struct Rounds {
    /// `tools/call`, `resources/read` or `prompts/get`.
    method: Method,
    target: String,
    /// `None` for a request without arguments (`resources/read`).
    arguments: Option<Arc<Value>>,
    responses: Option<InputResponses>,
    state: Option<String>,
}

impl Rounds {
    /// `target` is what the request names (tool, resource URI, prompt),
    /// taken as it was read: most callers have no further use for it.
    pub(super) fn new(
        method: Method,
        target: String,
        arguments: Option<Arc<Value>>,
        responses: Option<InputResponses>,
        state: Option<String>,
    ) -> Self {
        Rounds {
            method,
            target,
            arguments,
            responses,
            state,
        }
    }

    /// Computed only when a round is sealed or opened, never on plain calls.
    fn digest(&self) -> String {
        let arguments = self.arguments.as_deref().unwrap_or(&Value::Null);
        request_state::request_digest(self.method.name(), &self.target, arguments)
    }

    /// Whether this is a retry: it carries a `requestState` or answers.
    fn brings_answers(&self) -> bool {
        self.state.is_some() || self.responses.is_some()
    }

    /// The answers of earlier rounds (from the verified state) and this
    /// one's, moved out (they are read once per request).
    fn answers(&mut self, key: &StateKey) -> Result<InputState, ErrorObject> {
        let mut answers = match &self.state {
            Some(state) => request_state::open(key, state, self.method.name(), &self.digest())?,
            None => Default::default(),
        };
        answers.extend(self.responses.take().unwrap_or_default().into_object());
        Ok(InputState::with_answers(answers))
    }
}
