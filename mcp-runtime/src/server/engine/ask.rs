//! The handler's side of asking: [`RequestContext::elicit`],
//! [`RequestContext::create_message`], [`RequestContext::list_roots`] and
//! [`RequestContext::ask_as`], the same in both eras.

use std::time::Duration;

use super::input::{Forget, InputError};
use crate::jsonrpc::request_frame;
use crate::protocol::{
    CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult, ElicitRequest,
    ElicitRequestParams, ElicitResult, InputRequest, InputResponse, ListRootsRequest,
    ListRootsResult, Method,
};
use crate::server::{Era, RequestContext};

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
            self.input.record_missing(capability);
            return Err(InputError::MissingCapability(capability));
        }
        let key = key.unwrap_or_else(|| self.input.next_key());
        match self.client.era {
            Era::Modern => match (self.input.answer(&key), self.input.task()) {
                (Some(answer), _) => Ok(answer.clone()),
                // A task waits for `tasks/update` to answer.
                (None, Some(task)) => task.ask(key, request).await,
                (None, None) => {
                    self.input.defer(key, request);
                    Err(InputError::Pending)
                }
            },
            Era::Legacy => self.ask_now(request).await,
        }
    }

    /// Legacy: a server-to-client request on this connection.
    async fn ask_now(&self, request: InputRequest) -> Result<InputResponse, InputError> {
        let (method, params) = match &request {
            InputRequest::Elicit(r) => (Method::Elicit, serde_json::to_value(&r.params)),
            InputRequest::CreateMessage(r) => {
                (Method::CreateMessage, serde_json::to_value(&r.params))
            }
            InputRequest::ListRoots(r) => (Method::ListRoots, serde_json::to_value(&r.params)),
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
            .send(request_frame(&id, method.name(), params.as_ref()))
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
