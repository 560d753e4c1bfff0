//! The router: a request whose era rules passed goes to the code that
//! answers its method. Method names are parsed once, into [`Method`], when
//! the request arrives.

use std::sync::Arc;

use serde_json::Value;

use super::method::{Method, Requested};
use super::params::{Reply, parse};
use super::rounds::Rounds;
use super::task::Plan;
use crate::jsonrpc::{ErrorObject, RequestId, result_frame};
use crate::protocol::{
    CallToolRequestParams, CompleteResult, GetPromptRequestParams, PaginatedRequestParams,
    ReadResourceRequestParams, ResultType,
};
use crate::server::{Era, RequestContext, Server};

impl Server {
    /// Methods common to both eras. `method` is the name as received when
    /// the server does not know it.
    pub(super) async fn route(
        &self,
        era: Era,
        id: &RequestId,
        method: Requested,
        params: Option<Value>,
        context: RequestContext,
    ) -> Reply {
        let registry = &*self.inner;
        let options = &registry.options;
        let method = match method {
            Ok(method) => method,
            Err(unknown) => return Err(ErrorObject::method_not_found(&unknown)),
        };
        match method {
            Method::ToolsList
            | Method::ResourcesList
            | Method::TemplatesList
            | Method::PromptsList => {
                let PaginatedRequestParams { cursor, .. } = parse(params)?;
                let cursor = cursor.as_deref();
                let size = options.page_size;
                let page = match method {
                    Method::ToolsList => registry.tools.page("tools", cursor, size),
                    Method::ResourcesList => registry.resources.page("resources", cursor, size),
                    Method::TemplatesList => {
                        registry.templates.page("resourceTemplates", cursor, size)
                    }
                    _ => registry.prompts.page("prompts", cursor, size),
                }?;
                let page = page.for_era(era, options.list_ttl_ms, options.list_cache_scope);
                Ok(result_frame(id, &page))
            }
            Method::CallTool => {
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
            Method::ReadResource => {
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
            Method::GetPrompt => {
                let params: GetPromptRequestParams = parse(params)?;
                let arguments = params.arguments.unwrap_or_default();
                let prompt = self.prompt_for(&params.name, &arguments)?;
                let digest_input = Arc::new(serde_json::to_value(&arguments).unwrap_or_default());
                let rounds = Rounds::new(
                    method,
                    &params.name,
                    Some(digest_input),
                    params.input_responses,
                    params.request_state,
                );
                self.with_input(era, id, rounds, context, |context| async move {
                    let mut result = self.get_prompt(prompt, arguments, context).await?;
                    if era == Era::Modern {
                        result.result_type.get_or_insert(ResultType::Complete);
                    }
                    Ok(result)
                })
                .await
            }
            #[cfg(feature = "skills")]
            Method::SkillsList | Method::SkillsGet | Method::ReadDirectory => {
                match &registry.skills {
                    Some(skills) => skills.answer(era, id, method, params, options),
                    None => Err(ErrorObject::method_not_found(method.name())),
                }
            }
            #[cfg(not(feature = "skills"))]
            Method::SkillsList | Method::SkillsGet | Method::ReadDirectory => {
                Err(ErrorObject::method_not_found(method.name()))
            }
            Method::Complete => {
                let completion = self.complete(parse(params)?, context).await?;
                let result = CompleteResult {
                    completion,
                    result_type: (era == Era::Modern).then_some(ResultType::Complete),
                    meta: None,
                };
                Ok(result_frame(id, &result))
            }
            // Era-specific methods are answered before routing; in the other
            // era they do not exist.
            Method::Initialize
            | Method::Ping
            | Method::SetLogLevel
            | Method::Subscribe
            | Method::Unsubscribe
            | Method::Discover
            | Method::Listen
            | Method::TasksGet
            | Method::TasksUpdate
            | Method::TasksCancel
            // The client answers these; a server does not.
            | Method::CreateMessage
            | Method::Elicit
            | Method::ListRoots => Err(ErrorObject::method_not_found(method.name())),
        }
    }
}
