//! Conversion of a prompt function's return value into a `prompts/get`
//! result.

use std::fmt::Display;

use super::read_result::handler_error;
use crate::protocol::{ContentBlock, GetPromptResult, PromptMessage, Role};
use crate::server::PromptOutcome;

/// A value a prompt function can return: `String` (one user message),
/// `PromptMessage`, `Vec<PromptMessage>`, a full `GetPromptResult`, or a
/// `Result` of one of those. In `Result<T, E>`, an
/// [`ErrorObject`](crate::jsonrpc::ErrorObject) error is sent as it is; any
/// other `E: Display` becomes an internal error (-32603) with its message.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP prompt",
    label = "not convertible into prompt messages",
    note = "return `String` (one user message), `PromptMessage`, `Vec<PromptMessage>`, `GetPromptResult`, or a `Result` of one whose error implements `Display`"
)]
pub trait IntoPromptResult {
    /// Converts the value.
    fn into_prompt_result(self) -> PromptOutcome;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> PromptOutcome {
        Ok(self)
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> PromptOutcome {
        Ok(GetPromptResult {
            description: None,
            messages: self,
            result_type: None,
            meta: None,
        })
    }
}

impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> PromptOutcome {
        vec![self].into_prompt_result()
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> PromptOutcome {
        PromptMessage::user(self).into_prompt_result()
    }
}

impl IntoPromptResult for &'static str {
    fn into_prompt_result(self) -> PromptOutcome {
        PromptMessage::user(self).into_prompt_result()
    }
}

impl<T: IntoPromptResult, E: Display + 'static> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> PromptOutcome {
        self.map_err(handler_error)?.into_prompt_result()
    }
}

impl PromptMessage {
    /// A text message from the user.
    pub fn user(text: impl Into<String>) -> Self {
        PromptMessage {
            role: Role::User,
            content: ContentBlock::text(text),
        }
    }

    /// A text message from the assistant.
    pub fn assistant(text: impl Into<String>) -> Self {
        PromptMessage {
            role: Role::Assistant,
            content: ContentBlock::text(text),
        }
    }
}

/// How a prompt function's return type `R` becomes a result; used by
/// `#[mcp_prompt]`.
pub struct PromptSpec<R> {
    convert: fn(R) -> PromptOutcome,
}

impl<R> Clone for PromptSpec<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for PromptSpec<R> {}

/// The spec of `R`; naming it for another type is the compile error
/// explained by [`IntoPromptResult`].
pub fn prompt_spec<R: IntoPromptResult>() -> PromptSpec<R> {
    PromptSpec {
        convert: R::into_prompt_result,
    }
}

impl<R> PromptSpec<R> {
    /// Converts the value.
    pub fn convert(&self, value: R) -> PromptOutcome {
        (self.convert)(value)
    }
}
