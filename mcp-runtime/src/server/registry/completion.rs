//! Argument completion (`completion/complete`) for prompts and templates.

use std::collections::BTreeMap;

use super::handler::Handler;
use crate::protocol::Completion;
use crate::server::RequestContext;

/// One completion request for a prompt argument or template variable.
pub struct CompletionRequest {
    /// The argument or variable being completed.
    pub argument: String,
    /// What the user typed so far.
    pub value: String,
    /// Values of other arguments already filled in.
    pub context_arguments: BTreeMap<String, String>,
    /// The request context.
    pub context: RequestContext,
}

pub(crate) type Completer = Handler<CompletionRequest, Completion>;

/// The spec caps a completion at 100 values; longer lists are cut and
/// flagged with `hasMore`.
pub(crate) const MAX_COMPLETION_VALUES: usize = 100;

pub(crate) fn cap(mut completion: Completion) -> Completion {
    if completion.values.len() > MAX_COMPLETION_VALUES {
        let total = completion.total.unwrap_or(completion.values.len() as u64);
        completion.values.truncate(MAX_COMPLETION_VALUES);
        completion.total = Some(total);
        completion.has_more = Some(true);
    }
    completion
}

/// What a completion function named by `complete = path` in
/// `#[mcp_prompt]` or `#[mcp_resource]` returns: a [`Completion`] (sync
/// function) or a future of one (`async fn`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a completion function",
    label = "not a `Completion` or a future of one",
    note = "a completion function is `fn(CompletionRequest) -> Completion` or `async fn(CompletionRequest) -> Completion`"
)]
pub trait CompletionReturn: Send + 'static {
    /// The future that resolves to the completion.
    type Future: std::future::Future<Output = Completion> + Send + 'static;

    /// Turns the returned value into a future.
    fn into_completion_future(self) -> Self::Future;
}

impl CompletionReturn for Completion {
    type Future = std::future::Ready<Completion>;

    fn into_completion_future(self) -> Self::Future {
        std::future::ready(self)
    }
}

impl<F> CompletionReturn for F
where
    F: std::future::Future<Output = Completion> + Send + 'static,
{
    type Future = F;

    fn into_completion_future(self) -> Self::Future {
        self
    }
}

/// Adapts a completion function (sync or async) to the form
/// `PromptDef::completion` and `ResourceTemplateDef::completion` take; used
/// by `complete = path`.
pub fn completer<F, R>(
    function: F,
) -> impl Fn(CompletionRequest) -> R::Future + Send + Sync + 'static
where
    F: Fn(CompletionRequest) -> R + Send + Sync + 'static,
    R: CompletionReturn,
{
    move |request| function(request).into_completion_future()
}
