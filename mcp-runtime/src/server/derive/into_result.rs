//! Conversion of a tool function's return value into a `tools/call` result.
//!
//! Types listed here convert as they are. Any other `Serialize + JsonSchema`
//! type (or `Result` of one) becomes structured output with an output
//! schema; the macros choose between the two by trait.

use std::fmt::Display;

use crate::protocol::{
    AudioContent, CallToolResult, ContentBlock, EmbeddedResource, ImageContent, ResourceLink,
    TextContent,
};
use crate::server::ToolOutcome;

/// A value a tool can return without an output schema: text, content
/// blocks, a full [`CallToolResult`], or a `Result` of one of those whose
/// error becomes a result with `isError: true`.
pub trait IntoToolResult {
    /// Converts the value; `Err` means a failure the client sees as
    /// `isError: true`.
    fn into_tool_result(self) -> ToolOutcome;
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> ToolOutcome {
        Ok(self)
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> ToolOutcome {
        Ok(CallToolResult::text(self))
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self) -> ToolOutcome {
        Ok(CallToolResult::text(self))
    }
}

/// No content: the call succeeded and has nothing to say.
impl IntoToolResult for () {
    fn into_tool_result(self) -> ToolOutcome {
        Ok(CallToolResult::from_content(Vec::new()))
    }
}

impl IntoToolResult for Vec<ContentBlock> {
    fn into_tool_result(self) -> ToolOutcome {
        Ok(CallToolResult::from_content(self))
    }
}

macro_rules! single_block {
    ($($block:ty),*) => {$(
        impl IntoToolResult for $block {
            fn into_tool_result(self) -> ToolOutcome {
                Ok(CallToolResult::from_content(vec![ContentBlock::from(self)]))
            }
        }
    )*};
}

single_block!(
    ContentBlock,
    TextContent,
    ImageContent,
    AudioContent,
    ResourceLink,
    EmbeddedResource
);

/// `Err` becomes a result with `isError: true` carrying the error's message.
impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolOutcome {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => Ok(CallToolResult::error(error.to_string())),
        }
    }
}
