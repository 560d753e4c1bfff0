//! The router: one `match` over [`Method`], the one place a request is
//! sent to the code that answers it. A method its era does not define, or
//! that the client answers, is -32601 before the match; every answer is
//! shaped for its era by [`shape`](super::shape).

use std::sync::Arc;

use serde_json::Value;

use super::client_meta::Era;
use super::params::{PendingReply, parse, take_input_responses, take_object};
use super::rounds::Rounds;
use super::shape::Shaped;
use super::task::{Plan, ToolTask};
use crate::jsonrpc::{ErrorObject, RequestId};
use crate::protocol::{
    CallToolRequestParams, CompleteResult, EmptyResult, GetPromptRequestParams, Method,
    PaginatedRequestParams, ReadResourceRequestParams, SetLevelRequestParams,
};
use crate::server::middleware::McpRequest;
use crate::server::{RequestContext, Server};

impl Server {
    /// Answers an admitted request: the work a method can do at once (parse
    /// its parameters, find its tool, start its handler) happens here, and
    /// the box holds only what is left to await. An `async` router would
    /// hold every method's state in one box per request (2 KB, past the
    /// allocator's per-thread cache) with the request's context copied at
    /// each layer of awaits.
    pub(super) fn route(&self, request: McpRequest) -> PendingReply<'_> {
        let McpRequest {
            era,
            id,
            method,
            params,
            context,
        } = request;
        let method = match method {
            Ok(method) if method.served_by_server() && method.eras().contains(era) => Ok(method),
            Ok(method) => Err(ErrorObject::method_not_found(method.name())),
            Err(unknown) => Err(ErrorObject::method_not_found(&unknown)),
        };
        match method.and_then(|method| self.route_to(era, id, method, params, context)) {
            Ok(Routed::Answered(frame)) => Box::pin(std::future::ready(Ok(frame))),
            Ok(Routed::Pending(reply)) => reply,
            Err(error) => Box::pin(std::future::ready(Err(error))),
        }
    }

    /// The one `match` over methods.
    fn route_to(
        &self,
        era: Era,
        id: RequestId,
        method: Method,
        params: Option<Value>,
        context: RequestContext,
    ) -> Result<Routed<'_>, ErrorObject> {
        let registry = &*self.inner;
        let page_size = registry.options.page_size;
        // Who asks, for entries restricted to an audience.
        let caller = context.principal();
        match method {
            Method::Initialize => {
                self.answered(era, method, &id, self.initialize(&context.session, params)?)
            }
            Method::Ping => self.answered(era, method, &id, EmptyResult::default()),
            Method::SetLogLevel => {
                let SetLevelRequestParams { level, .. } = parse(params)?;
                context.session.set_log_level(level);
                self.answered(era, method, &id, EmptyResult::default())
            }
            Method::Subscribe | Method::Unsubscribe => {
                let params = parse(params)?;
                let session = &context.session;
                self.answered(
                    era,
                    method,
                    &id,
                    self.legacy_subscription(method, session, params, caller)?,
                )
            }
            // Built, and shaped, once with the server.
            Method::Discover => Ok(Routed::Answered(crate::jsonrpc::result_frame(
                &id,
                &registry.discover,
            ))),
            Method::Listen => {
                let params = parse(params)?;
                Ok(Routed::Pending(Box::pin(async move {
                    let result = self.listen(&id, params, context).await?;
                    Ok(self.answer(era, method, &id, result))
                })))
            }
            Method::TasksGet | Method::TasksUpdate | Method::TasksCancel => {
                let Some(tasks) = &registry.tasks else {
                    return Err(ErrorObject::method_not_found(method.name()));
                };
                // The client's declaration, not the whole context, goes in
                // the box.
                let client = Arc::clone(&context.client);
                Ok(Routed::Pending(Box::pin(async move {
                    tasks.method(self, &id, method, params, &client).await
                })))
            }
            Method::ToolsList
            | Method::ResourcesList
            | Method::TemplatesList
            | Method::PromptsList => {
                let PaginatedRequestParams { cursor, .. } = parse(params)?;
                let cursor = cursor.as_deref();
                let catalogue = self.catalogue();
                let page = match method {
                    Method::ToolsList => catalogue.tools.page("tools", cursor, page_size, caller),
                    Method::ResourcesList => {
                        catalogue
                            .resources
                            .page("resources", cursor, page_size, caller)
                    }
                    Method::TemplatesList => {
                        catalogue
                            .templates
                            .page("resourceTemplates", cursor, page_size, caller)
                    }
                    Method::PromptsList => {
                        catalogue.prompts.page("prompts", cursor, page_size, caller)
                    }
                    // The arm lists only the four above.
                    _ => Err(ErrorObject::method_not_found(method.name())),
                }?;
                self.answered(era, method, &id, page)
            }
            Method::CallTool => {
                let mut params = params;
                let arguments = take_object(&mut params, "arguments")?;
                let input_responses = take_input_responses(&mut params)?;
                let CallToolRequestParams {
                    name,
                    request_state,
                    ..
                } = parse(params)?;
                let tool = self.tool_to_call(&name, caller)?;
                let plan = self.plan_tool_call(&tool, context.client())?;
                // Shared, not copied: a 2026-07-28 round needs the
                // arguments again for the requestState digest after the
                // handler ran.
                let arguments = Arc::new(Value::Object(arguments.unwrap_or_default()));
                let rounds = Rounds::new(
                    method,
                    name,
                    Some(arguments.clone()),
                    input_responses,
                    request_state,
                );
                if let (Plan::Task { required }, Some(tasks)) = (plan, &registry.tasks) {
                    let call = ToolTask {
                        rounds,
                        tool,
                        arguments,
                        context,
                        required,
                    };
                    return Ok(Routed::Pending(Box::pin(async move {
                        tasks.call_tool(self, &id, call).await
                    })));
                }
                let run = |context| Server::call_tool(tool, arguments, context);
                Ok(Routed::Pending(
                    self.with_input(era, id, rounds, context, run),
                ))
            }
            Method::ReadResource => {
                let mut params = params;
                let input_responses = take_input_responses(&mut params)?;
                let params: ReadResourceRequestParams = parse(params)?;
                let rounds = Rounds::new(
                    method,
                    params.uri.clone(),
                    None,
                    input_responses,
                    params.request_state,
                );
                let run = |context| self.read_resource(params.uri, context);
                Ok(Routed::Pending(
                    self.with_input(era, id, rounds, context, run),
                ))
            }
            Method::GetPrompt => {
                let mut params = params;
                let input_responses = take_input_responses(&mut params)?;
                let params: GetPromptRequestParams = parse(params)?;
                let arguments = params.arguments.unwrap_or_default();
                let prompt = self.prompt_for(&params.name, &arguments, caller)?;
                let digest_input = Arc::new(serde_json::to_value(&arguments).unwrap_or_default());
                let rounds = Rounds::new(
                    method,
                    params.name,
                    Some(digest_input),
                    input_responses,
                    params.request_state,
                );
                let run = |context| Server::get_prompt(&prompt, arguments, context);
                Ok(Routed::Pending(
                    self.with_input(era, id, rounds, context, run),
                ))
            }
            Method::Complete => {
                let params = parse(params)?;
                Ok(Routed::Pending(Box::pin(async move {
                    let completion = self.complete(params, context).await?;
                    let result = CompleteResult {
                        completion,
                        result_type: None,
                        meta: None,
                    };
                    Ok(self.answer(era, method, &id, result))
                })))
            }
            #[cfg(feature = "skills")]
            Method::SkillsList => {
                let PaginatedRequestParams { cursor, .. } = parse(params)?;
                self.answered(
                    era,
                    method,
                    &id,
                    self.skills(method)?.list(cursor.as_deref(), page_size)?,
                )
            }
            #[cfg(feature = "skills")]
            Method::SkillsGet => {
                let crate::protocol::GetSkillRequestParams { uri } = parse(params)?;
                self.answered(era, method, &id, self.skills(method)?.get(&uri)?)
            }
            #[cfg(feature = "skills")]
            Method::ReadDirectory => {
                let crate::protocol::ReadResourceDirectoryRequestParams { uri, cursor } =
                    parse(params)?;
                let skills = self.skills(method)?;
                self.answered(
                    era,
                    method,
                    &id,
                    skills.read_directory(&uri, cursor.as_deref(), page_size)?,
                )
            }
            #[cfg(not(feature = "skills"))]
            Method::SkillsList | Method::SkillsGet | Method::ReadDirectory => {
                Err(ErrorObject::method_not_found(method.name()))
            }
            // Excluded above: the client answers these.
            Method::CreateMessage | Method::Elicit | Method::ListRoots => {
                Err(ErrorObject::method_not_found(method.name()))
            }
        }
    }

    /// `result`, shaped for its era and method, as the answer at once.
    fn answered<R: Shaped>(
        &self,
        era: Era,
        method: Method,
        id: &RequestId,
        result: R,
    ) -> Result<Routed<'static>, ErrorObject> {
        Ok(Routed::Answered(self.answer(era, method, id, result)))
    }

    /// The server's skills, for a method of the Skills extension: -32601
    /// when it serves none.
    #[cfg(feature = "skills")]
    fn skills(
        &self,
        method: Method,
    ) -> Result<&crate::server::registry::skills::Skills, ErrorObject> {
        self.inner
            .skills
            .as_ref()
            .ok_or_else(|| ErrorObject::method_not_found(method.name()))
    }
}

/// What the router made of a request: its answer at once, or the work
/// left to await.
enum Routed<'a> {
    Answered(Vec<u8>),
    Pending(PendingReply<'a>),
}
