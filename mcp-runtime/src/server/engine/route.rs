//! The router: one `match` over [`Method`], the one place a request is
//! sent to the code that answers it. A method its era does not define, or
//! that the client answers, is -32601 before the match; every answer is
//! shaped for its era by [`shape`](super::shape).

use std::sync::Arc;

use serde_json::Value;

use super::params::{PendingReply, parse, take_input_responses, take_object};
use super::rounds::Rounds;
use super::task::{Plan, ToolTask};
use crate::jsonrpc::ErrorObject;
use crate::protocol::{
    CallToolRequestParams, CompleteResult, EmptyResult, GetPromptRequestParams, Method,
    PaginatedRequestParams, ReadResourceRequestParams, SetLevelRequestParams,
};
use crate::server::Server;
use crate::server::middleware::McpRequest;

impl Server {
    /// Answers an admitted request. Boxed, and so polled through one
    /// vtable: the router's state machine is the largest function of the
    /// crate, and as the body of an `async fn` the compiler would copy it
    /// into every codegen unit that awaits it (two here, 28 KB each, in
    /// every server binary). One allocation per request is the price.
    pub(super) fn route(&self, request: McpRequest) -> PendingReply<'_> {
        Box::pin(async move {
            let McpRequest {
                era,
                id,
                method,
                params,
                context,
            } = request;
            let method = match method {
                Ok(method) if method.served_by_server() && method.eras().contains(era) => method,
                Ok(method) => return Err(ErrorObject::method_not_found(method.name())),
                Err(unknown) => return Err(ErrorObject::method_not_found(&unknown)),
            };
            let registry = &*self.inner;
            let page_size = registry.options.page_size;
            let answer = |result| self.answer(era, method, &id, result);
            // Who asks, for entries restricted to an audience.
            let caller = context.principal();
            match method {
                Method::Initialize => {
                    let result = self.initialize(&context.session, params)?;
                    Ok(self.answer(era, method, &id, result))
                }
                Method::Ping => Ok(self.answer(era, method, &id, EmptyResult::default())),
                Method::SetLogLevel => {
                    let SetLevelRequestParams { level, .. } = parse(params)?;
                    context.session.set_log_level(level);
                    Ok(self.answer(era, method, &id, EmptyResult::default()))
                }
                Method::Subscribe | Method::Unsubscribe => {
                    let params = parse(params)?;
                    let session = &context.session;
                    let result = self.legacy_subscription(method, session, params, caller)?;
                    Ok(self.answer(era, method, &id, result))
                }
                // Built, and shaped, once with the server.
                Method::Discover => Ok(crate::jsonrpc::result_frame(&id, &registry.discover)),
                Method::Listen => {
                    let result = self.listen(&id, parse(params)?, context).await?;
                    Ok(self.answer(era, method, &id, result))
                }
                Method::TasksGet | Method::TasksUpdate | Method::TasksCancel => {
                    match &registry.tasks {
                        Some(tasks) => {
                            let client = context.client();
                            tasks.method(self, &id, method, params, client).await
                        }
                        None => Err(ErrorObject::method_not_found(method.name())),
                    }
                }
                Method::ToolsList => {
                    let PaginatedRequestParams { cursor, .. } = parse(params)?;
                    let catalogue = self.catalogue();
                    let page =
                        catalogue
                            .tools
                            .page("tools", cursor.as_deref(), page_size, caller)?;
                    Ok(answer(page))
                }
                Method::ResourcesList => {
                    let PaginatedRequestParams { cursor, .. } = parse(params)?;
                    let catalogue = self.catalogue();
                    let page = catalogue.resources.page(
                        "resources",
                        cursor.as_deref(),
                        page_size,
                        caller,
                    )?;
                    Ok(answer(page))
                }
                Method::TemplatesList => {
                    let PaginatedRequestParams { cursor, .. } = parse(params)?;
                    let catalogue = self.catalogue();
                    let page = catalogue.templates.page(
                        "resourceTemplates",
                        cursor.as_deref(),
                        page_size,
                        caller,
                    )?;
                    Ok(answer(page))
                }
                Method::PromptsList => {
                    let PaginatedRequestParams { cursor, .. } = parse(params)?;
                    let catalogue = self.catalogue();
                    let page =
                        catalogue
                            .prompts
                            .page("prompts", cursor.as_deref(), page_size, caller)?;
                    Ok(answer(page))
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
                    // arguments again for the requestState digest after
                    // the handler ran.
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
                        return tasks.call_tool(self, &id, call).await;
                    }
                    self.with_input(era, &id, rounds, context, |context| async move {
                        self.call_tool(tool, arguments, context).await
                    })
                    .await
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
                    self.with_input(era, &id, rounds, context, |context| {
                        self.read_resource(params.uri, context)
                    })
                    .await
                }
                Method::GetPrompt => {
                    let mut params = params;
                    let input_responses = take_input_responses(&mut params)?;
                    let params: GetPromptRequestParams = parse(params)?;
                    let arguments = params.arguments.unwrap_or_default();
                    let prompt = self.prompt_for(&params.name, &arguments, caller)?;
                    let digest_input =
                        Arc::new(serde_json::to_value(&arguments).unwrap_or_default());
                    let rounds = Rounds::new(
                        method,
                        params.name,
                        Some(digest_input),
                        input_responses,
                        params.request_state,
                    );
                    self.with_input(era, &id, rounds, context, |context| {
                        self.get_prompt(&prompt, arguments, context)
                    })
                    .await
                }
                Method::Complete => {
                    let completion = self.complete(parse(params)?, context).await?;
                    let result = CompleteResult {
                        completion,
                        result_type: None,
                        meta: None,
                    };
                    Ok(self.answer(era, method, &id, result))
                }
                #[cfg(feature = "skills")]
                Method::SkillsList => {
                    let PaginatedRequestParams { cursor, .. } = parse(params)?;
                    let page = self.skills(method)?.list(cursor.as_deref(), page_size)?;
                    Ok(answer(page))
                }
                #[cfg(feature = "skills")]
                Method::SkillsGet => {
                    let crate::protocol::GetSkillRequestParams { uri } = parse(params)?;
                    let result = self.skills(method)?.get(&uri)?;
                    Ok(self.answer(era, method, &id, result))
                }
                #[cfg(feature = "skills")]
                Method::ReadDirectory => {
                    let crate::protocol::ReadResourceDirectoryRequestParams { uri, cursor } =
                        parse(params)?;
                    let skills = self.skills(method)?;
                    let page = skills.read_directory(&uri, cursor.as_deref(), page_size)?;
                    Ok(answer(page))
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
        })
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
