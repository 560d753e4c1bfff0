//! Validate, run, check: the handler stage of `tools/call`,
//! `resources/read`, `prompts/get` and `completion/complete`. Arguments are
//! checked against the input schema before the handler runs, its panics are
//! caught, and structured output is checked against the output schema.

use std::collections::BTreeMap;
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

    pub(crate) async fn call_tool(
        &self,
        entry: Arc<ToolEntry>,
        arguments: Arc<Value>,
        context: RequestContext,
    ) -> Result<CallToolResult, ErrorObject> {
        let name = entry.name();
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
        if let Some(output) = &entry.output
            && result.is_error != Some(true)
        {
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
        Ok(result)
    }

    pub(super) async fn read_resource(
        &self,
        uri: String,
        context: RequestContext,
    ) -> Result<ReadResourceResult, ErrorObject> {
        let catalogue = self.catalogue();
        let caller = context.principal();
        let (handler, variables) = if let Some(resource) = catalogue.resources.get_for(&uri, caller)
        {
            (resource.handler.clone(), Default::default())
        } else if let Some((template, variables)) = catalogue
            .templates
            .iter_for(caller)
            .find_map(|t| t.matcher.matches(&uri).map(|v| (t, v)))
        {
            (template.handler.clone(), variables)
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

    pub(super) async fn get_prompt(
        &self,
        prompt: &PromptDef,
        arguments: BTreeMap<String, String>,
        context: RequestContext,
    ) -> Result<GetPromptResult, ErrorObject> {
        let request = PromptRequest { arguments, context };
        catch_panic((prompt.handler)(request))
            .await
            .map_err(panicked)?
    }
}
