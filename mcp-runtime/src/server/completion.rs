//! Argument completion (`completion/complete`) for prompts and templates.

use std::collections::BTreeMap;

use super::context::RequestContext;
use super::handler::Handler;
use crate::protocol::Completion;

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
