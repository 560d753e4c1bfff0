//! The only items the macros' generated code refers to, always by absolute
//! path (`::mcp_toolkit_runtime::__private::...`). Not a public API: it changes with
//! the macros.

pub use ::core;
pub use ::schemars;
pub use ::serde_json;
pub use ::std;

pub use crate::protocol::{Icon, Meta, TaskSupport, ToolAnnotations};
pub use crate::server::macro_support::completion::completer;
pub use crate::server::macro_support::prompt_result::prompt_spec;
pub use crate::server::macro_support::read_result::read_spec;
pub use crate::server::macro_support::register::assert_unique_names;
pub use crate::server::macro_support::signature::{
    ContextParam, FallibleStructuredReturn, OptionalParam, Param, ParamSpec, PlainReturn,
    RequiredParam, Ret, ReturnSpec, StructuredReturn, UnsupportedParam, UnsupportedReturn,
    assert_header_value,
};
pub use crate::server::macro_support::text_param::{
    ContextText, OptionalText, RequiredQueryText, RequiredText, Text, TextSpec, UnboundText,
    UnsupportedText,
};
pub use crate::server::macro_support::tool_schema::InputSchema;
pub use crate::server::{
    Definition, Definitions, Kind, PromptDef, PromptRequest, Registrable, ResourceDef,
    ResourceRead, ResourceTemplateDef, SchemaProfile, ToolCall, ToolDef, ToolOutcome,
};
