//! Typed answers to a server's questions: one handler per kind (form-mode
//! and URL-mode elicitation, sampling, roots), registered on
//! [`InputHandlers`], which declares exactly the client capabilities it can
//! answer. The same handlers serve both eras: legacy server-to-client
//! requests and 2026-07-28 `input_required` rounds.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use super::{ClientError, ConnectOptions, InputHandler};
use crate::protocol::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitRequestFormParams,
    ElicitRequestParams, ElicitRequestUrlParams, ElicitResult, ElicitationCapability, InputRequest,
    InputRequests, InputResponse, InputResponses, JsonObject, ListRootsResult, Root,
};
use crate::server::BoxFuture;

/// One registered handler: its question's parameters in, its answer out.
type Handler<P, R> = Arc<dyn Fn(P) -> BoxFuture<Result<R, ClientError>> + Send + Sync>;

fn boxed<P, R, F, Fut>(handler: F) -> Handler<P, R>
where
    F: Fn(P) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ClientError>> + Send + 'static,
{
    Arc::new(move |params| Box::pin(handler(params)))
}

/// The handlers that answer a server's questions, one per kind. Install
/// them with [`ConnectOptions::input_handlers`], which also declares the
/// matching capabilities, so that a server asks only what a handler takes.
/// A question of a kind without a handler is declined with
/// [`ClientError::InputDeclined`].
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_toolkit_runtime::client::ClientError> {
/// use mcp_toolkit_runtime::client::{Client, ConnectOptions, InputHandlers};
/// use mcp_toolkit_runtime::protocol::{ElicitAction, ElicitResult, Root};
///
/// let handlers = InputHandlers::new()
///     .on_elicit(|form| async move {
///         println!("the server asks: {}", form.message);
///         Ok(ElicitResult { action: ElicitAction::Decline, content: None, meta: None })
///     })
///     .roots(vec![Root { uri: "file:///project".into(), ..Root::default() }]);
/// let options = ConnectOptions::default().input_handlers(handlers);
/// let client = Client::connect_http_with("http://127.0.0.1:8080/mcp", options).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Default)]
pub struct InputHandlers {
    form: Option<Handler<ElicitRequestFormParams, ElicitResult>>,
    url: Option<Handler<ElicitRequestUrlParams, ElicitResult>>,
    sampling: Option<Handler<CreateMessageRequestParams, CreateMessageResult>>,
    roots: Option<Handler<(), ListRootsResult>>,
}

impl InputHandlers {
    /// No handlers yet: every question is declined.
    pub fn new() -> Self {
        InputHandlers::default()
    }

    /// Answers form-mode `elicitation/create` (declares `elicitation.form`).
    pub fn on_elicit<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(ElicitRequestFormParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ElicitResult, ClientError>> + Send + 'static,
    {
        self.form = Some(boxed(handler));
        self
    }

    /// Answers URL-mode `elicitation/create` (declares `elicitation.url`):
    /// the application shows the message and the URL's domain, and opens the
    /// URL if the user agrees (`accept`). A 2025-11-25 server may later say
    /// the interaction finished: see
    /// [`Client::elicitation_completions`](super::Client::elicitation_completions).
    pub fn on_url_elicit<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(ElicitRequestUrlParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ElicitResult, ClientError>> + Send + 'static,
    {
        self.url = Some(boxed(handler));
        self
    }

    /// Answers `sampling/createMessage` (declares `sampling`).
    pub fn on_create_message<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(CreateMessageRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<CreateMessageResult, ClientError>> + Send + 'static,
    {
        self.sampling = Some(boxed(handler));
        self
    }

    /// Answers `roots/list` (declares `roots`).
    pub fn on_list_roots<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ListRootsResult, ClientError>> + Send + 'static,
    {
        self.roots = Some(boxed(move |()| handler()));
        self
    }

    /// Answers `roots/list` with a fixed list (declares `roots`).
    pub fn roots(self, roots: Vec<Root>) -> Self {
        let result = ListRootsResult { roots, meta: None };
        self.on_list_roots(move || std::future::ready(Ok(result.clone())))
    }

    /// Makes `capabilities` declare exactly the kinds these handlers take:
    /// elicitation with the modes handled, sampling and roots when handled
    /// (keeping the options already set on them), none of the others.
    pub fn declare(&self, capabilities: &mut ClientCapabilities) {
        let (form, url) = (self.form.is_some(), self.url.is_some());
        capabilities.elicitation = (form || url).then(|| ElicitationCapability {
            form: form.then(JsonObject::new),
            url: url.then(JsonObject::new),
        });
        capabilities.sampling = match self.sampling {
            Some(_) => Some(capabilities.sampling.take().unwrap_or_default()),
            None => None,
        };
        capabilities.roots = match self.roots {
            Some(_) => Some(capabilities.roots.take().unwrap_or_default()),
            None => None,
        };
    }

    /// The answer to one question, from the handler of its kind.
    fn answer(&self, request: InputRequest) -> BoxFuture<Result<InputResponse, ClientError>> {
        match request {
            InputRequest::Elicit(elicit) => match elicit.params {
                ElicitRequestParams::Form(params) => {
                    let answer = call(&self.form, "form-mode elicitation", params);
                    Box::pin(async move { answer.await.map(InputResponse::Elicit) })
                }
                ElicitRequestParams::Url(params) => {
                    let answer = call(&self.url, "URL-mode elicitation", params);
                    Box::pin(async move { answer.await.map(InputResponse::Elicit) })
                }
            },
            InputRequest::CreateMessage(sample) => {
                let answer = call(&self.sampling, "sampling", sample.params);
                Box::pin(async move { answer.await.map(InputResponse::CreateMessage) })
            }
            InputRequest::ListRoots(_) => {
                let answer = call(&self.roots, "roots", ());
                Box::pin(async move { answer.await.map(InputResponse::ListRoots) })
            }
        }
    }
}

/// Runs `handler` on `params`, or declines when there is none.
fn call<P, R: Send + 'static>(
    handler: &Option<Handler<P, R>>,
    kind: &str,
    params: P,
) -> BoxFuture<Result<R, ClientError>> {
    match handler {
        Some(handler) => handler(params),
        None => {
            let why = format!("the server asked for {kind}, which this client has no handler for");
            Box::pin(std::future::ready(Err(ClientError::InputDeclined(why))))
        }
    }
}

impl InputHandler for InputHandlers {
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>> {
        // Every question is put to its handler before any is awaited, so a
        // question without one is declined before a person is asked anything.
        let answers: Vec<_> = requests
            .into_iter()
            .map(|(key, request)| (key, self.answer(request)))
            .collect();
        Box::pin(async move {
            let mut responses = InputResponses::new();
            for (key, answer) in answers {
                responses.insert(key, answer.await?);
            }
            Ok(responses)
        })
    }
}

impl fmt::Debug for InputHandlers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InputHandlers")
            .field("form_elicitation", &self.form.is_some())
            .field("url_elicitation", &self.url.is_some())
            .field("sampling", &self.sampling.is_some())
            .field("roots", &self.roots.is_some())
            .finish()
    }
}

impl ConnectOptions {
    /// Answers the server's questions with `handlers`, and declares exactly
    /// the capabilities they cover (see [`InputHandlers::declare`]).
    pub fn input_handlers(mut self, handlers: InputHandlers) -> Self {
        handlers.declare(&mut self.capabilities);
        self.input_handler = Some(Arc::new(handlers));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{RootsCapability, SamplingCapability};

    async fn decline<P>(_: P) -> Result<ElicitResult, ClientError> {
        Ok(ElicitResult {
            action: crate::protocol::ElicitAction::Decline,
            content: None,
            meta: None,
        })
    }

    fn declared(handlers: &InputHandlers) -> serde_json::Value {
        let mut capabilities = ClientCapabilities::default();
        handlers.declare(&mut capabilities);
        serde_json::to_value(capabilities).unwrap()
    }

    #[test]
    fn declares_exactly_the_kinds_handled() {
        assert_eq!(declared(&InputHandlers::new()), serde_json::json!({}));
        let url_only = InputHandlers::new().on_url_elicit(decline);
        assert_eq!(
            declared(&url_only),
            serde_json::json!({"elicitation": {"url": {}}})
        );
        let all = url_only.on_elicit(decline).roots(Vec::new());
        assert_eq!(
            declared(&all),
            serde_json::json!({"elicitation": {"form": {}, "url": {}}, "roots": {}})
        );
    }

    #[test]
    fn sampling_options_set_before_are_kept() {
        let mut capabilities = ClientCapabilities {
            sampling: Some(SamplingCapability {
                tools: Some(JsonObject::new()),
                context: None,
            }),
            roots: Some(RootsCapability::default()),
            ..ClientCapabilities::default()
        };
        let sampler = InputHandlers::new()
            .on_create_message(|_| async { Err(ClientError::InputDeclined("no model".into())) });
        sampler.declare(&mut capabilities);
        assert_eq!(
            serde_json::to_value(capabilities).unwrap(),
            serde_json::json!({"sampling": {"tools": {}}}),
            "sampling kept with its options, roots (no handler) removed"
        );
    }
}
