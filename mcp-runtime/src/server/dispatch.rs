//! The router: one request in, one encoded response frame out.
//!
//! Order of checks: era (per connection or per request), then the era's
//! envelope rules (`initialize` for legacy, `_meta` for modern), then the
//! method, then its parameters.

use std::sync::Arc;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::Server;
use super::completion::{CompletionRequest, cap};
use super::context::{ClientMeta, Era, Peer, RequestContext};
use super::handler::catch_panic;
use super::input::InputState;
use super::prompt::PromptRequest;
use super::request_state::{self, StateKey};
use super::resource::ResourceRead;
use super::session::Session;
use super::task::Plan;
use super::tool::ToolCall;
use crate::jsonrpc::{ErrorObject, Notification, Request, RequestId, error_frame, result_frame};
use crate::protocol::{
    CallToolRequestParams, CallToolResult, CancelledNotificationParams, ClientCapabilities,
    CompleteRequestParams, CompleteResult, Completion, CompletionReference, DiscoverResult,
    GetPromptRequestParams, Implementation, InitializeRequestParams, InitializeResult,
    InputRequiredResult, InputResponses, LATEST_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS,
    LoggingLevel, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL,
    META_PROTOCOL_VERSION, META_SERVER_INFO, PaginatedRequestParams, ProgressToken,
    ReadResourceRequestParams, ResultType, SetLevelRequestParams,
};

pub(crate) type Reply = Result<Vec<u8>, ErrorObject>;

/// Where a request came from and how to reach back to it.
struct Channel {
    session: Arc<Session>,
    peer: Peer,
    cancellation: CancellationToken,
}

impl Server {
    /// Serves one request and returns its encoded response frame.
    pub(crate) async fn handle_request(
        &self,
        session: &Arc<Session>,
        request: Request,
        peer: Peer,
        cancellation: CancellationToken,
    ) -> Answer {
        let Request {
            id,
            method,
            mut params,
        } = request;
        let era = match session.era_for(&method, params.as_ref()) {
            Ok(era) => era,
            Err(error) => return Answer::error(&id, &error),
        };
        let meta = take_meta(&mut params);
        let channel = Channel {
            session: session.clone(),
            peer,
            cancellation,
        };
        let reply = match era {
            Era::Legacy => self.legacy(&id, &method, params, meta, channel).await,
            Era::Modern => self.modern(&id, &method, params, meta, channel).await,
        };
        match reply {
            Ok(frame) => Answer { frame, error: None },
            Err(error) => Answer::error(&id, &error),
        }
    }

    /// Handles a client notification. `notifications/cancelled` is handled
    /// by the session; the rest need no action.
    pub(crate) fn handle_notification(&self, session: &Session, notification: Notification) {
        match notification.method.as_str() {
            "notifications/cancelled" => {
                let params = notification.params.unwrap_or(Value::Null);
                match serde_json::from_value::<CancelledNotificationParams>(params) {
                    Ok(CancelledNotificationParams {
                        request_id: Some(id),
                        ..
                    }) => match serde_json::from_value::<RequestId>(id) {
                        Ok(id) => session.cancel(&id),
                        Err(_) => tracing::debug!("cancellation of a malformed id ignored"),
                    },
                    _ => tracing::debug!("malformed notifications/cancelled ignored"),
                }
            }
            "notifications/initialized" | "notifications/roots/list_changed" => {}
            other => tracing::debug!(method = other, "notification ignored"),
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn legacy(
        &self,
        id: &RequestId,
        method: &str,
        params: Option<Value>,
        meta: Option<Map<String, Value>>,
        channel: Channel,
    ) -> Reply {
        let session = &*channel.session;
        match method {
            "initialize" => return self.initialize(session, id, params),
            "ping" => return Ok(result_frame(id, &json!({}))),
            _ => {}
        }
        let Some(client) = session.legacy_client() else {
            return Err(ErrorObject::invalid_request(format!(
                "`{method}` before `initialize` completed"
            )));
        };
        if method == "logging/setLevel" {
            let SetLevelRequestParams { level, .. } = parse(params)?;
            session.set_log_level(level);
            return Ok(result_frame(id, &json!({})));
        }
        if let "resources/subscribe" | "resources/unsubscribe" = method {
            return self.legacy_subscription(id, params);
        }
        let log_level = session.log_level();
        let context = self.context(id, client, log_level, meta, channel);
        self.route(Era::Legacy, id, method, params, context).await
    }

    async fn modern(
        &self,
        id: &RequestId,
        method: &str,
        params: Option<Value>,
        meta: Option<Map<String, Value>>,
        channel: Channel,
    ) -> Reply {
        if method == "initialize" && meta.is_none() {
            // This connection already speaks 2026-07-28; tell a dual-era
            // client which versions exist so that it can switch. (With the
            // 2026-07-28 `_meta` it is a modern request for a removed
            // method: -32601 below.)
            let requested = params
                .as_ref()
                .and_then(|p| p.get("protocolVersion"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            return Err(ErrorObject::unsupported_protocol_version(
                requested,
                &[LATEST_PROTOCOL_VERSION],
            ));
        }
        let client = modern_client(meta.as_ref())?;
        let log_level = meta
            .as_ref()
            .and_then(|m| m.get(META_LOG_LEVEL))
            .and_then(|level| LoggingLevel::deserialize(level).ok());
        if method == "server/discover" {
            return Ok(result_frame(id, &self.inner.discover));
        }
        if let "tasks/get" | "tasks/update" | "tasks/cancel" = method {
            return self.task_method(id, method, params, &client);
        }
        let context = self.context(id, Arc::new(client), log_level, meta, channel);
        if method == "subscriptions/listen" {
            return self.listen(id, parse(params)?, context).await;
        }
        self.route(Era::Modern, id, method, params, context).await
    }

    fn context(
        &self,
        id: &RequestId,
        client: Arc<ClientMeta>,
        log_level: Option<LoggingLevel>,
        meta: Option<Map<String, Value>>,
        channel: Channel,
    ) -> RequestContext {
        let progress_token = meta
            .as_ref()
            .and_then(|m| m.get("progressToken"))
            .and_then(|t| ProgressToken::deserialize(t).ok());
        RequestContext {
            request_id: id.clone(),
            client,
            cancellation: channel.cancellation,
            progress_token,
            log_level,
            meta,
            peer: channel.peer,
            session: channel.session,
            input: Arc::default(),
        }
    }

    /// Methods common to both eras.
    async fn route(
        &self,
        era: Era,
        id: &RequestId,
        method: &str,
        params: Option<Value>,
        context: RequestContext,
    ) -> Reply {
        let registry = &*self.inner;
        let options = &registry.options;
        match method {
            "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list" => {
                let PaginatedRequestParams { cursor, .. } = parse(params)?;
                let cursor = cursor.as_deref();
                let page = match method {
                    "tools/list" => registry.tools.page("tools", cursor, options.page_size),
                    "resources/list" => {
                        registry
                            .resources
                            .page("resources", cursor, options.page_size)
                    }
                    "resources/templates/list" => {
                        registry
                            .templates
                            .page("resourceTemplates", cursor, options.page_size)
                    }
                    _ => registry.prompts.page("prompts", cursor, options.page_size),
                }?;
                let page = page.for_era(era, options.list_ttl_ms, options.list_cache_scope);
                Ok(result_frame(id, &page))
            }
            "tools/call" => {
                let CallToolRequestParams {
                    name,
                    arguments,
                    input_responses,
                    request_state,
                    ..
                } = parse(params)?;
                let plan = self.plan_tool_call(&name, context.client())?;
                // Shared, not copied: a 2026-07-28 round needs the arguments
                // again for the requestState digest after the handler ran.
                let arguments = Arc::new(Value::Object(arguments.unwrap_or_default()));
                let rounds = Rounds::new(
                    method,
                    &name,
                    Some(arguments.clone()),
                    input_responses,
                    request_state,
                );
                if let Plan::Task { required } = plan {
                    return self
                        .call_tool_as_task(id, rounds, name, arguments, context, required)
                        .await;
                }
                self.with_input(era, id, rounds, context, |context| async move {
                    let mut result = self.call_tool(&name, arguments, context).await?;
                    if era == Era::Modern {
                        result.result_type.get_or_insert(ResultType::Complete);
                    }
                    Ok(result)
                })
                .await
            }
            "resources/read" => {
                let params: ReadResourceRequestParams = parse(params)?;
                let rounds = Rounds::new(
                    method,
                    &params.uri,
                    None,
                    params.input_responses,
                    params.request_state,
                );
                self.with_input(era, id, rounds, context, |context| async move {
                    let mut result = self.read_resource(params.uri, context).await?;
                    if era == Era::Modern {
                        result.result_type.get_or_insert(ResultType::Complete);
                        result.ttl_ms.get_or_insert(options.read_ttl_ms);
                        result.cache_scope.get_or_insert(options.read_cache_scope);
                    }
                    Ok(result)
                })
                .await
            }
            "prompts/get" => {
                let params: GetPromptRequestParams = parse(params)?;
                let Some(prompt) = registry.prompts.get(&params.name) else {
                    return Err(ErrorObject::invalid_params(format!(
                        "Unknown prompt: {}",
                        params.name
                    )));
                };
                let arguments = params.arguments.unwrap_or_default();
                if let Some(missing) = prompt
                    .required_arguments()
                    .find(|a| !arguments.contains_key(*a))
                {
                    return Err(ErrorObject::invalid_params(format!(
                        "prompt `{}` needs the argument `{missing}`",
                        params.name
                    )));
                }
                let digest_input = Arc::new(serde_json::to_value(&arguments).unwrap_or_default());
                let rounds = Rounds::new(
                    method,
                    &params.name,
                    Some(digest_input),
                    params.input_responses,
                    params.request_state,
                );
                self.with_input(era, id, rounds, context, |context| async move {
                    let request = PromptRequest { arguments, context };
                    let mut result = catch_panic((prompt.handler)(request))
                        .await
                        .map_err(panicked)??;
                    if era == Era::Modern {
                        result.result_type.get_or_insert(ResultType::Complete);
                    }
                    Ok(result)
                })
                .await
            }
            "skills/list" | "skills/get" | "resources/directory/read" => match &registry.skills {
                Some(skills) => skills.answer(era, id, method, params, options),
                None => Err(ErrorObject::method_not_found(method)),
            },
            "completion/complete" => {
                let completion = self.complete(parse(params)?, context).await?;
                let result = CompleteResult {
                    completion,
                    result_type: (era == Era::Modern).then_some(ResultType::Complete),
                    meta: None,
                };
                Ok(result_frame(id, &result))
            }
            _ => Err(ErrorObject::method_not_found(method)),
        }
    }

    /// Runs a handler that may ask the client for input. A question the
    /// client lacks the capability for fails the request with -32021; in
    /// 2026-07-28, open questions end it with an `input_required` result
    /// whose sealed `requestState` carries the answers so far.
    async fn with_input<T, F, Fut>(
        &self,
        era: Era,
        id: &RequestId,
        rounds: Rounds,
        mut context: RequestContext,
        run: F,
    ) -> Reply
    where
        T: serde::Serialize,
        F: FnOnce(RequestContext) -> Fut,
        Fut: std::future::Future<Output = Result<T, ErrorObject>>,
    {
        let input = self.open_rounds(era, &rounds)?;
        context.input = input.clone();
        let outcome = run(context).await;
        match self.input_reply(id, &rounds, &input) {
            Some(reply) => reply,
            None => outcome.map(|result| result_frame(id, &result)),
        }
    }

    /// The answers a request brings from its earlier rounds (2026-07-28;
    /// legacy questions are answered while the handler waits).
    pub(crate) fn open_rounds(
        &self,
        era: Era,
        rounds: &Rounds,
    ) -> Result<Arc<InputState>, ErrorObject> {
        match era {
            Era::Modern => Ok(Arc::new(
                rounds.answers(&self.inner.options.request_state_key)?,
            )),
            Era::Legacy => Ok(Arc::default()),
        }
    }

    /// How a request ends when its handler asked the client something:
    /// -32021 for a capability the client lacks, an `input_required`
    /// result for open questions; `None` when it asked nothing new.
    pub(crate) fn input_reply(
        &self,
        id: &RequestId,
        rounds: &Rounds,
        input: &InputState,
    ) -> Option<Reply> {
        if let Some(required) = input.missing_capability() {
            return Some(Err(ErrorObject::missing_required_client_capability(
                required,
            )));
        }
        let questions = input.take_questions();
        if questions.is_empty() {
            return None;
        }
        let options = &self.inner.options;
        let state = request_state::seal(
            &options.request_state_key,
            rounds.method,
            &rounds.digest(),
            input.answers(),
            options.request_state_ttl,
        );
        let result = InputRequiredResult {
            result_type: ResultType::InputRequired,
            input_requests: Some(questions),
            request_state: Some(state),
            meta: None,
        };
        Some(Ok(result_frame(id, &result)))
    }

    fn initialize(&self, session: &Session, id: &RequestId, params: Option<Value>) -> Reply {
        let params: InitializeRequestParams = parse(params)?;
        let version = negotiate_legacy_version(&params.protocol_version);
        let client = ClientMeta {
            era: Era::Legacy,
            protocol_version: version.to_owned(),
            client_info: Some(params.client_info),
            capabilities: params.capabilities,
        };
        if !session.set_legacy_client(client) {
            return Err(ErrorObject::invalid_request(
                "`initialize` was already received",
            ));
        }
        let registry = &*self.inner;
        let result = InitializeResult {
            protocol_version: version.to_owned(),
            capabilities: registry.capabilities.clone(),
            server_info: registry.info.clone(),
            instructions: registry.instructions.clone(),
            meta: None,
        };
        Ok(result_frame(id, &result))
    }

    pub(crate) async fn call_tool(
        &self,
        name: &str,
        arguments: Arc<Value>,
        context: RequestContext,
    ) -> Result<CallToolResult, ErrorObject> {
        let Some(entry) = self.inner.tools.get(name) else {
            return Err(ErrorObject::invalid_params(format!("Unknown tool: {name}")));
        };
        if let Err(report) = entry.input.check(&arguments) {
            return Ok(CallToolResult::error(format!(
                "Invalid arguments for tool {name}: {report}"
            )));
        }
        let call = ToolCall::new(arguments, context);
        let result = match catch_panic((entry.def.handler)(call))
            .await
            .map_err(panicked)?
        {
            Ok(result) => result,
            Err(error) => return Ok(CallToolResult::error(error.message())),
        };
        if let Some(output) = &entry.output {
            if result.is_error != Some(true) {
                let Some(structured) = &result.structured_content else {
                    return Err(ErrorObject::internal(format!(
                        "tool {name} has an output schema but returned no structuredContent"
                    )));
                };
                if let Err(report) = output.check(structured) {
                    tracing::error!(tool = %name, %report, "structured output violates the output schema");
                    return Err(ErrorObject::internal(format!(
                        "tool {name} returned output that violates its output schema: {report}"
                    )));
                }
            }
        }
        Ok(result)
    }

    async fn read_resource(
        &self,
        uri: String,
        context: RequestContext,
    ) -> Result<crate::protocol::ReadResourceResult, ErrorObject> {
        let registry = &*self.inner;
        let (handler, variables) = if let Some(resource) = registry.resources.get(&uri) {
            (&resource.handler, Default::default())
        } else if let Some((template, variables)) = registry
            .templates
            .iter()
            .find_map(|t| t.matcher.matches(&uri).map(|v| (t, v)))
        {
            (&template.handler, variables)
        } else {
            return Err(ErrorObject::resource_not_found(&uri));
        };
        let read = ResourceRead {
            uri,
            variables,
            context,
        };
        catch_panic(handler(read)).await.map_err(panicked)?
    }

    async fn complete(
        &self,
        params: CompleteRequestParams,
        context: RequestContext,
    ) -> Result<Completion, ErrorObject> {
        let registry = &*self.inner;
        let completer = match &params.r#ref {
            CompletionReference::Prompt(prompt) => {
                let Some(def) = registry.prompts.get(&prompt.name) else {
                    return Err(ErrorObject::invalid_params(format!(
                        "Unknown prompt: {}",
                        prompt.name
                    )));
                };
                def.completer.as_ref()
            }
            CompletionReference::Resource(resource) => registry
                .templates
                .iter()
                .find(|t| t.template.uri_template == resource.uri)
                .and_then(|t| t.completer.as_ref()),
        };
        let Some(completer) = completer else {
            return Ok(Completion {
                values: Vec::new(),
                total: None,
                has_more: None,
            });
        };
        let request = CompletionRequest {
            argument: params.argument.name,
            value: params.argument.value,
            context_arguments: params
                .context
                .and_then(|c| c.arguments)
                .unwrap_or_default()
                .into_iter()
                .collect(),
            context,
        };
        catch_panic(completer(request))
            .await
            .map(cap)
            .map_err(panicked)
    }
}

/// The response to one request: its frame and, for an error response, the
/// error code (from which the HTTP transport picks a status without reading
/// the frame again).
pub(crate) struct Answer {
    /// The serialized JSON-RPC response.
    pub(crate) frame: Vec<u8>,
    /// The code of an error response; `None` for a result.
    pub(crate) error: Option<i64>,
}

impl Answer {
    fn error(id: &RequestId, error: &ErrorObject) -> Self {
        Answer {
            frame: error_frame(Some(id), error),
            error: Some(error.code),
        }
    }
}

/// What identifies a multi-round request, and the answers its retry carries.
pub(crate) struct Rounds {
    method: &'static str,
    target: String,
    /// `None` for a request without arguments (`resources/read`).
    arguments: Option<Arc<Value>>,
    responses: Option<InputResponses>,
    state: Option<String>,
}

impl Rounds {
    fn new(
        method: &str,
        target: &str,
        arguments: Option<Arc<Value>>,
        responses: Option<InputResponses>,
        state: Option<String>,
    ) -> Self {
        let method = match method {
            "tools/call" => "tools/call",
            "resources/read" => "resources/read",
            _ => "prompts/get",
        };
        Rounds {
            method,
            target: target.to_owned(),
            arguments,
            responses,
            state,
        }
    }

    /// Computed only when a round is sealed or opened, never on plain calls.
    fn digest(&self) -> String {
        let arguments = self.arguments.as_deref().unwrap_or(&Value::Null);
        request_state::request_digest(self.method, &self.target, arguments)
    }

    /// The answers of earlier rounds (from the verified state) and this one.
    fn answers(&self, key: &StateKey) -> Result<InputState, ErrorObject> {
        let mut answers = match &self.state {
            Some(state) => request_state::open(key, state, self.method, &self.digest())?,
            None => Default::default(),
        };
        answers.extend(self.responses.clone().unwrap_or_default());
        Ok(InputState::with_answers(answers))
    }
}

/// Removes and returns `params._meta`, leaving the typed parameters.
fn take_meta(params: &mut Option<Value>) -> Option<Map<String, Value>> {
    match params.as_mut()?.as_object_mut()?.remove("_meta")? {
        Value::Object(meta) => Some(meta),
        _ => None,
    }
}

/// Reads what a 2026-07-28 request declares about its client.
fn modern_client(meta: Option<&Map<String, Value>>) -> Result<ClientMeta, ErrorObject> {
    let missing = |key: &str| ErrorObject::invalid_params(format!("missing `_meta.{key}`"));
    let meta = meta.ok_or_else(|| missing(META_PROTOCOL_VERSION))?;
    let version = meta
        .get(META_PROTOCOL_VERSION)
        .and_then(Value::as_str)
        .ok_or_else(|| missing(META_PROTOCOL_VERSION))?;
    if version != LATEST_PROTOCOL_VERSION {
        return Err(ErrorObject::unsupported_protocol_version(
            version,
            &supported_versions(),
        ));
    }
    let capabilities = meta
        .get(META_CLIENT_CAPABILITIES)
        .ok_or_else(|| missing(META_CLIENT_CAPABILITIES))?;
    let capabilities = ClientCapabilities::deserialize(capabilities).map_err(|e| {
        ErrorObject::invalid_params(format!("`_meta.{META_CLIENT_CAPABILITIES}`: {e}"))
    })?;
    let client_info = meta
        .get(META_CLIENT_INFO)
        .and_then(|v| Implementation::deserialize(v).ok());
    Ok(ClientMeta {
        era: Era::Modern,
        protocol_version: version.to_owned(),
        client_info,
        capabilities,
    })
}

/// Every version this server speaks, newest first.
pub(crate) fn supported_versions() -> Vec<&'static str> {
    std::iter::once(LATEST_PROTOCOL_VERSION)
        .chain(LEGACY_PROTOCOL_VERSIONS.iter().rev().copied())
        .collect()
}

/// The client's version when we speak it, else the newest legacy one.
fn negotiate_legacy_version(requested: &str) -> &'static str {
    LEGACY_PROTOCOL_VERSIONS
        .iter()
        .copied()
        .find(|v| *v == requested)
        .unwrap_or(LEGACY_PROTOCOL_VERSIONS[LEGACY_PROTOCOL_VERSIONS.len() - 1])
}

/// Parses method parameters; absent parameters read as `{}`.
pub(crate) fn parse<T: DeserializeOwned>(params: Option<Value>) -> Result<T, ErrorObject> {
    serde_json::from_value(params.unwrap_or_else(|| Value::Object(Map::new())))
        .map_err(ErrorObject::invalid_params)
}

fn panicked(message: String) -> ErrorObject {
    tracing::error!(%message, "handler panicked");
    ErrorObject::internal(format!("handler panicked: {message}"))
}

/// The `server/discover` result, built once.
pub(crate) fn discover_result(
    info: &Implementation,
    capabilities: &crate::protocol::ServerCapabilities,
    instructions: Option<&str>,
    options: &super::ServerOptions,
) -> DiscoverResult {
    let mut meta = Map::new();
    meta.insert(
        META_SERVER_INFO.to_owned(),
        serde_json::to_value(info).unwrap_or_default(),
    );
    DiscoverResult {
        supported_versions: supported_versions()
            .into_iter()
            .map(str::to_owned)
            .collect(),
        capabilities: capabilities.clone(),
        instructions: instructions.map(str::to_owned),
        result_type: Some(ResultType::Complete),
        ttl_ms: Some(options.list_ttl_ms),
        cache_scope: Some(options.list_cache_scope),
        meta: Some(meta),
    }
}
