//! The handler's side of asking: [`RequestContext::elicit`],
//! [`RequestContext::elicit_url`], [`RequestContext::create_message`],
//! [`RequestContext::list_roots`] and [`RequestContext::ask_as`], the same in
//! both eras.

use std::time::Duration;

use serde_json::{Value, json};

use super::input::{Forget, InputError};
use crate::jsonrpc::{notification_frame, request_frame};
use crate::protocol::methods::NOTIFICATION_ELICITATION_COMPLETE;
use crate::protocol::{
    ClientCapabilities, CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequest, ElicitRequestParams, ElicitRequestUrlParams, ElicitResult,
    ElicitationCompleteNotificationParams, InputRequest, InputResponse, ListRootsRequest,
    ListRootsResult, Method, to_json_via_bytes,
};
use crate::server::{Era, RequestContext};

/// How long a legacy client may take to answer (a person may be filling in
/// a form).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(600);

/// The client capability a question needs.
#[derive(Clone, Copy)]
enum Needed {
    FormElicitation,
    UrlElicitation,
    Sampling,
    Roots,
}

impl Needed {
    fn of(request: &InputRequest) -> Self {
        match request {
            InputRequest::Elicit(r) => match r.params {
                ElicitRequestParams::Form(_) => Needed::FormElicitation,
                ElicitRequestParams::Url(_) => Needed::UrlElicitation,
            },
            InputRequest::CreateMessage(_) => Needed::Sampling,
            InputRequest::ListRoots(_) => Needed::Roots,
        }
    }

    fn declared_by(self, caps: &ClientCapabilities) -> bool {
        match self {
            // An empty `elicitation` object means form mode only; one that
            // names modes supports those.
            Needed::FormElicitation => caps
                .elicitation
                .as_ref()
                .is_some_and(|e| e.form.is_some() || e.url.is_none()),
            Needed::UrlElicitation => caps.elicitation.as_ref().is_some_and(|e| e.url.is_some()),
            Needed::Sampling => caps.sampling.is_some(),
            Needed::Roots => caps.roots.is_some(),
        }
    }

    /// The capability in words, for [`InputError::MissingCapability`].
    fn name(self) -> &'static str {
        match self {
            Needed::FormElicitation => "elicitation",
            Needed::UrlElicitation => "URL-mode elicitation",
            Needed::Sampling => "sampling",
            Needed::Roots => "roots",
        }
    }

    /// The `requiredCapabilities` of the -32021 error.
    fn required(self) -> Value {
        match self {
            Needed::FormElicitation => json!({ "elicitation": {} }),
            Needed::UrlElicitation => json!({ "elicitation": { "url": {} } }),
            Needed::Sampling => json!({ "sampling": {} }),
            Needed::Roots => json!({ "roots": {} }),
        }
    }
}

impl RequestContext {
    /// Asks the user for input through the client (`elicitation/create`),
    /// in form mode or, with [`ElicitRequestParams::Url`], in URL mode (see
    /// [`elicit_url`](Self::elicit_url)); the client must have declared that
    /// mode.
    pub async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, InputError> {
        let request = InputRequest::Elicit(ElicitRequest {
            jsonrpc: None,
            id: None,
            params,
        });
        match self.ask(request).await? {
            InputResponse::Elicit(result) => Ok(result),
            other => Err(InputError::Rejected(format!(
                "expected an elicitation result, got {other:?}"
            ))),
        }
    }

    /// Sends the user to `url` for an interaction that must not pass through
    /// the client, such as entering a credential or paying (URL-mode
    /// `elicitation/create`); the client must have declared
    /// `elicitation.url`. The answer says whether the user agreed to go
    /// there (`accept`), not that they finished: the server learns that
    /// from the page it serves at `url`.
    ///
    /// `elicitation_id` names the interaction; 2025-11-25 clients get it
    /// (and, through [`complete_elicitation`](Self::complete_elicitation),
    /// learn when it finished), while 2026-07-28 has no such id or
    /// notification: there the client retries the request once the user is
    /// back, and the handler checks that the interaction finished.
    pub async fn elicit_url(
        &self,
        message: &str,
        url: &str,
        elicitation_id: &str,
    ) -> Result<ElicitResult, InputError> {
        let legacy = self.client.era == Era::Legacy;
        self.elicit(ElicitRequestParams::Url(ElicitRequestUrlParams {
            message: message.to_owned(),
            url: url.to_owned(),
            elicitation_id: legacy.then(|| elicitation_id.to_owned()),
            ..ElicitRequestUrlParams::default()
        }))
        .await
    }

    /// Tells a 2025-11-25 client that the out-of-band interaction of the
    /// URL-mode elicitation `elicitation_id` finished
    /// (`notifications/elicitation/complete`), so that it can close its
    /// prompt or retry what needed it. The context may be kept (cloned) past
    /// the handler for this. Returns whether it was sent: not in 2026-07-28,
    /// which has no such notification, nor to a client that did not declare
    /// `elicitation.url`. Over a legacy HTTP session it reaches the client
    /// only while the request's response stream is open (this server offers
    /// no stream outside a request); over stdio, at any time.
    pub async fn complete_elicitation(&self, elicitation_id: &str) -> bool {
        if self.client.era != Era::Legacy
            || !Needed::UrlElicitation.declared_by(&self.client.capabilities)
        {
            return false;
        }
        let params = ElicitationCompleteNotificationParams {
            elicitation_id: elicitation_id.to_owned(),
        };
        let frame = notification_frame(NOTIFICATION_ELICITATION_COMPLETE, Some(&params));
        self.peer.send(frame).await;
        true
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
        match self.ask(request).await? {
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
        match self.ask(request).await? {
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
        self.ask_keyed(Some(key.to_owned()), request).await
    }

    async fn ask(&self, request: InputRequest) -> Result<InputResponse, InputError> {
        self.ask_keyed(None, request).await
    }

    async fn ask_keyed(
        &self,
        key: Option<String>,
        request: InputRequest,
    ) -> Result<InputResponse, InputError> {
        // The request fails anyway (-32021 or -32602): no new question may
        // keep a task waiting for an answer that changes nothing.
        if let Some(failure) = self.input.failure() {
            return Err(InputError::Rejected(failure.message));
        }
        let needed = Needed::of(&request);
        if !needed.declared_by(&self.client.capabilities) {
            self.input.record_missing(needed.required());
            return Err(InputError::MissingCapability(needed.name()));
        }
        let key = key.unwrap_or_else(|| self.input.next_key());
        match self.client.era {
            Era::Modern => match (self.input.answer(&key), self.input.task()) {
                (Some(answer), _) => request.read_response(answer).map_err(|why| {
                    self.input.record_unreadable(&key, &why);
                    unreadable(&why)
                }),
                // The question is written, and its reader given, here: a
                // server whose handlers never ask compiles neither.
                (None, Some(task)) => {
                    let read = request.response_reader();
                    task.ask(key, question(&request)?, read).await
                }
                (None, None) => {
                    self.input.defer(key, question(&request)?);
                    Err(InputError::Pending)
                }
            },
            Era::Legacy => self.ask_now(request).await,
        }
    }

    /// Legacy: a server-to-client request on this connection.
    async fn ask_now(&self, request: InputRequest) -> Result<InputResponse, InputError> {
        if !self.peer.carries_requests() {
            return Err(InputError::NoAnswer);
        }
        let replies = &self.session.replies;
        let (id, answer) = replies.expect();
        // Forgets the question however this future ends, cancellation included.
        let _forget = Forget { replies, id: &id };
        // Straight to bytes: the params' writers are the ones a 2026-07-28
        // `inputRequests` uses, so no second (`Value`) writer is compiled.
        let frame = match &request {
            InputRequest::Elicit(r) => request_frame(&id, Method::Elicit.name(), Some(&r.params)),
            InputRequest::CreateMessage(r) => {
                request_frame(&id, Method::CreateMessage.name(), Some(&r.params))
            }
            InputRequest::ListRoots(r) => {
                request_frame(&id, Method::ListRoots.name(), r.params.as_ref())
            }
        };
        self.peer.send(frame).await;
        let outcome = tokio::time::timeout(ANSWER_TIMEOUT, answer).await;
        let result = match outcome {
            Ok(Ok(Ok(result))) => result,
            Ok(Ok(Err(error))) => return Err(InputError::Rejected(error.message)),
            _ => return Err(InputError::NoAnswer),
        };
        request
            .read_response(&result)
            .map_err(|why| unreadable(&why))
    }
}

/// A question as the JSON of `inputRequests`, through the byte writer that
/// a legacy question's params use too.
fn question(request: &InputRequest) -> Result<Value, InputError> {
    to_json_via_bytes(request)
        .map_err(|e| InputError::Rejected(format!("unwritable question: {e}")))
}

fn unreadable(why: &serde_json::Error) -> InputError {
    InputError::Rejected(format!("unreadable answer: {why}"))
}
