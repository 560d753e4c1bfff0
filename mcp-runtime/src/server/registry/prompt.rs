//! Prompts: definitions and the request a handler receives.

use std::collections::BTreeMap;

use super::audience::Audience;
use super::completion::{Completer, CompletionRequest};
use super::handler::{Handler, erase};
use crate::jsonrpc::ErrorObject;
use crate::protocol::{Completion, GetPromptResult, Prompt, PromptArgument};
use crate::server::RequestContext;

/// What a prompt handler returns.
pub type PromptOutcome = Result<GetPromptResult, ErrorObject>;

/// One `prompts/get`: the arguments (required ones are guaranteed present)
/// and the request context.
pub struct PromptRequest {
    /// The arguments the client passed.
    pub arguments: BTreeMap<String, String>,
    /// The request context.
    pub context: RequestContext,
}

/// A prompt: its listed metadata and its handler.
pub struct PromptDef {
    pub(crate) prompt: Prompt,
    pub(crate) handler: Handler<PromptRequest, PromptOutcome>,
    pub(crate) completer: Option<Completer>,
    /// Who sees it (`visible_to`, in `audience.rs`); `None`: everyone.
    pub(crate) audience: Option<Audience>,
}

impl PromptDef {
    /// The prompt's name, its key in the catalogue.
    pub(crate) fn name(&self) -> &str {
        &self.prompt.name
    }

    /// A prompt named `name` without arguments.
    pub fn new<F, Fut>(name: impl Into<String>, handler: F) -> Self
    where
        F: Fn(PromptRequest) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = PromptOutcome> + Send + 'static,
    {
        let prompt = Prompt {
            name: name.into(),
            title: None,
            description: None,
            arguments: None,
            icons: None,
            meta: None,
        };
        PromptDef {
            prompt,
            handler: erase(handler),
            completer: None,
            audience: None,
        }
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.prompt.description = Some(description.into());
        self
    }

    /// Declares an argument.
    pub fn argument(mut self, name: &str, description: Option<&str>, required: bool) -> Self {
        self.prompt
            .arguments
            .get_or_insert_with(Vec::new)
            .push(PromptArgument {
                name: name.to_owned(),
                title: None,
                description: description.map(str::to_owned),
                required: Some(required),
            });
        self
    }

    /// Answers `completion/complete` for this prompt's arguments.
    pub fn completion<F, Fut>(mut self, completer: F) -> Self
    where
        F: Fn(CompletionRequest) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Completion> + Send + 'static,
    {
        self.completer = Some(erase(completer));
        self
    }

    /// The names of the required arguments.
    pub(crate) fn required_arguments(&self) -> impl Iterator<Item = &str> {
        self.prompt
            .arguments
            .iter()
            .flatten()
            .filter(|a| a.required == Some(true))
            .map(|a| a.name.as_str())
    }
}
