//! Validate, run, check: the handler stage of `tools/call`,
//! `resources/read`, `prompts/get` and `completion/complete`. Arguments are
//! checked against the input schema before the handler runs, its panics are
//! caught, and structured output is checked against the output schema.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use serde_json::Value;

use super::params::panicked;
use crate::jsonrpc::ErrorObject;
use crate::protocol::{
    CallToolResult, CompleteRequestParams, Completion, CompletionReference, GetPromptResult,
    ReadResourceResult,
};
use crate::server::auth::Principal;
use crate::server::registry::catalogue::ToolEntry;
use crate::server::registry::completion::cap;
use crate::server::registry::handler::catch_panic;
use crate::server::{
    CompletionRequest, PromptDef, PromptRequest, RequestContext, ResourceRead, Server, ToolCall,
};

impl Server {
    /// The tool `name` as served now to `caller`, for a call that keeps it
    /// until it ends (a live registry may replace or remove it meanwhile).
    /// A tool hidden from the caller is as unknown as one that is not
    /// there.
    pub(crate) fn tool_to_call(
        &self,
        name: &str,
        caller: Option<&Principal>,
    ) -> Result<Arc<ToolEntry>, ErrorObject> {
        self.catalogue()
            .tools
            .get_for(name, caller)
            .cloned()
            .ok_or_else(|| ErrorObject::invalid_params(format!("Unknown tool: {name}")))
    }

    /// Runs tool `entry` on `arguments`: checks them against its input
    /// schema, runs the handler (a panic while it is polled is caught) and
    /// checks its structured output against the output schema. The input
    /// check and the handler's start happen here, before the returned
    /// future is polled, so that the future holds only the handler's box,
    /// not the request's context (each async layer would keep its own copy).
    pub(crate) fn call_tool(
        entry: Arc<ToolEntry>,
        arguments: Arc<Value>,
        context: RequestContext,
    ) -> impl Future<Output = Result<CallToolResult, ErrorObject>> + Send + 'static {
        let started = match entry.input.check(&arguments) {
            Ok(()) => Ok(catch_panic((entry.def.handler)(ToolCall::new(
                arguments, context,
            )))),
            Err(report) => Err(format!(
                "Invalid arguments for tool {}: {report}",
                entry.name()
            )),
        };
        async move {
            let result = match started {
                Ok(running) => running.await.map_err(panicked)?,
                Err(invalid) => return Ok(CallToolResult::error(invalid)),
            };
            match result {
                Ok(result) => checked_output(&entry, result),
                Err(error) => Ok(CallToolResult::error(error.message())),
            }
        }
    }

    /// Reads resource `uri`, from a resource or the first template that
    /// matches it. The handler starts here, as in
    /// [`call_tool`](Self::call_tool).
    pub(super) fn read_resource(
        &self,
        uri: String,
        context: RequestContext,
    ) -> impl Future<Output = Result<ReadResourceResult, ErrorObject>> + Send + 'static {
        let catalogue = self.catalogue();
        let caller = context.principal();
        let found = if let Some(resource) = catalogue.resources.get_for(&uri, caller) {
            Some((resource.handler.clone(), Default::default()))
        } else {
            catalogue
                .templates
                .iter_for(caller)
                .find_map(|t| t.matcher.matches(&uri).map(|v| (t.handler.clone(), v)))
        };
        let started = match found {
            Some((handler, variables)) => Ok(catch_panic(handler(ResourceRead {
                uri,
                variables,
                context,
            }))),
            None => Err(ErrorObject::resource_not_found(&uri)),
        };
        async move { started?.await.map_err(panicked)? }
    }

    pub(super) async fn complete(
        &self,
        params: CompleteRequestParams,
        context: RequestContext,
    ) -> Result<Completion, ErrorObject> {
        let catalogue = self.catalogue();
        let caller = context.principal();
        let completer = match &params.r#ref {
            CompletionReference::Prompt(prompt) => {
                let Some(def) = catalogue.prompts.get_for(&prompt.name, caller) else {
                    return Err(ErrorObject::invalid_params(format!(
                        "Unknown prompt: {}",
                        prompt.name
                    )));
                };
                def.completer.as_ref()
            }
            CompletionReference::Resource(resource) => catalogue
                .templates
                .iter_for(caller)
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
            context_arguments: params.context.and_then(|c| c.arguments).unwrap_or_default(),
            context,
        };
        catch_panic(completer(request))
            .await
            .map(cap)
            .map_err(panicked)
    }

    /// The prompt `name`, once `arguments` has every argument it requires.
    pub(super) fn prompt_for(
        &self,
        name: &str,
        arguments: &BTreeMap<String, String>,
        caller: Option<&Principal>,
    ) -> Result<Arc<PromptDef>, ErrorObject> {
        let Some(prompt) = self.catalogue().prompts.get_for(name, caller).cloned() else {
            return Err(ErrorObject::invalid_params(format!(
                "Unknown prompt: {name}"
            )));
        };
        if let Some(missing) = prompt
            .required_arguments()
            .find(|a| !arguments.contains_key(*a))
        {
            return Err(ErrorObject::invalid_params(format!(
                "prompt `{name}` needs the argument `{missing}`"
            )));
        }
        Ok(prompt)
    }

    /// Gets `prompt` with `arguments`; the handler starts here, as in
    /// [`call_tool`](Self::call_tool).
    pub(super) fn get_prompt(
        prompt: &PromptDef,
        arguments: BTreeMap<String, String>,
        context: RequestContext,
    ) -> impl Future<Output = Result<GetPromptResult, ErrorObject>> + Send + 'static {
        let running = catch_panic((prompt.handler)(PromptRequest { arguments, context }));
        async move { running.await.map_err(panicked)? }
    }
}

/// `result` as the tool's answer when its structured output, if it has an
/// output schema and succeeded, satisfies that schema; -32603 otherwise.
fn checked_output(
    entry: &ToolEntry,
    result: CallToolResult,
) -> Result<CallToolResult, ErrorObject> {
    let Some(output) = &entry.output else {
        return Ok(result);
    };
    if result.is_error == Some(true) {
        return Ok(result);
    }
    let name = entry.name();
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
    Ok(result)
}
