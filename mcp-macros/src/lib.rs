//! Attribute macros that turn Rust functions into MCP tools, resources and
//! prompts. Use them
//! through `mcp_toolkit_runtime` (`mcp_toolkit_runtime::mcp_tool`), which re-exports them:
//! the generated code refers to `::mcp_toolkit_runtime::__private` only.
//!
//! Layout, after serde_derive and thiserror: parse, then validate, then
//! expand. Parsing and validation collect every mistake they find in one
//! `errors::Errors`, so that all are reported at once, spanned, while the
//! user's item is still emitted; expansion runs only when its `check()`
//! finds none (an `Errors` dropped unchecked panics, so no path can lose
//! them).
//!
//! - `attr`: every option of every attribute, one struct per attribute;
//!   an option given twice is an error.
//! - `ast`: a tool, resource or prompt read from its options, doc comment
//!   and signature; an `#[mcp_server]` impl block and its items.
//! - `validate`: every rule an item or impl block must follow (tool names,
//!   URI templates against parameters, unique names in a block, ...).
//! - `expand`: the generated code, which refers to `::mcp_toolkit_runtime::__private`
//!   through one function; it reports nothing itself.

mod ast;
mod attr;
mod errors;
mod expand;
mod validate;

use proc_macro::TokenStream;

/// Makes a function an MCP tool.
///
/// Parameters become the input schema (context types such as
/// `RequestContext` or `Progress` are recognised by trait and left out),
/// the doc comment the description (an `# Arguments` list describes
/// parameters), the return type the output. The function stays as written;
/// a type of the same name is added for registration with
/// `mcp_toolkit_runtime::definitions![name]`.
///
/// Options: `name = "..."`, `title = "..."`, `description = "..."`,
/// `read_only`, `destructive`, `idempotent`, `open_world` (each optionally
/// `= false`), `icons = ["https://..."]`, `meta(key = value, ...)`,
/// `task_support = "optional"` or `"required"` (the call may run as a task
/// of the 2026-07-28 tasks extension; see `ToolDef::task_support`).
/// Parameter options: `#[mcp(rename = "...", description = "...",
/// header = "...")]`; `#[serde(rename = "...")]` is honoured.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::free_item(ast::Kind::Tool, args.into(), input.into()).into()
}

/// Makes a function an MCP resource (fixed URI) or resource template.
///
/// ```ignore
/// /// The project's README.
/// #[mcp_resource("docs://readme", mime_type = "text/markdown")]
/// fn readme() -> String { ... }
///
/// /// A note by title; `None` is "resource not found".
/// #[mcp_resource("notes://{title}{?rev}")]
/// async fn note(title: String, rev: Option<u32>) -> Option<String> { ... }
/// ```
///
/// The first argument is the URI or an RFC 6570 URI template (checked at
/// compile time). Each template variable binds the parameter of the same
/// name (after `#[mcp(rename = "...")]`), parsed with `FromStr`; a query
/// variable (`{?name}`) may be absent, so its parameter is an `Option`.
/// Parameters outside the template must be request context
/// (`RequestContext`, ...). The return type picks the body: `String` text,
/// `Vec<u8>` binary (base64 `blob`), `Json<T>` JSON, or see
/// `IntoReadResult`; `Option` and `Result` of those work too.
///
/// Options: `name = "..."` (default: the function's name), `title`,
/// `description` (default: the doc comment), `mime_type` (default: from the
/// return type), and for a template `complete = path`: a function
/// `fn(CompletionRequest) -> Completion` (or `async fn`) answering
/// `completion/complete` for its variables. Register with
/// `mcp_toolkit_runtime::definitions![name]`.
#[proc_macro_attribute]
pub fn mcp_resource(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::free_item(ast::Kind::Resource, args.into(), input.into()).into()
}

/// Makes a function an MCP prompt.
///
/// ```ignore
/// /// Ask for a code review.
/// ///
/// /// # Arguments
/// ///
/// /// * `code` - The code to review.
/// #[mcp_prompt]
/// fn review(code: String, language: Option<String>) -> String { ... }
/// ```
///
/// Parameters are the prompt's arguments (strings on the wire: `String`,
/// `Option<String>` for an optional one, or any `FromStr` type); context
/// types are left out. The doc comment is the description (an `# Arguments`
/// list describes arguments). The return type gives the messages: `String`
/// is one user message; `PromptMessage`, `Vec<PromptMessage>`,
/// `GetPromptResult` and `Result` of those work too (see
/// `IntoPromptResult`).
///
/// Options: `name = "..."`, `title = "..."`, `description = "..."`,
/// `complete = path`: a function `fn(CompletionRequest) -> Completion` (or
/// `async fn`) answering `completion/complete` for the arguments.
/// Register with `mcp_toolkit_runtime::definitions![name]`.
#[proc_macro_attribute]
pub fn mcp_prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::free_item(ast::Kind::Prompt, args.into(), input.into()).into()
}

/// Makes the `#[mcp_tool]`, `#[mcp_resource]` and `#[mcp_prompt]` methods
/// of an impl block tools, resources and prompts that share the value as
/// state, and adds `fn mcp_definitions(self: &Arc<Self>) -> Definitions`
/// for registration.
#[proc_macro_attribute]
pub fn mcp_server(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::server_impl(args.into(), input.into()).into()
}
