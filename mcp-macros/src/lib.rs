//! Attribute macros that turn Rust functions into MCP tools. Use them
//! through `mcp_runtime` (`mcp_runtime::mcp_tool`), which re-exports them:
//! the generated code refers to `::mcp_runtime::__private` only.
//!
//! Layout, after serde_derive: `options` and `docs` read attributes,
//! `signature` reads a function signature, `expand` writes code, and
//! `errors` collects every mistake so that all are reported at once while
//! the user's item is still emitted.

mod docs;
mod errors;
mod expand;
mod options;
mod signature;

use proc_macro::TokenStream;

/// Makes a function an MCP tool.
///
/// Parameters become the input schema (context types such as
/// `RequestContext` or `Progress` are recognised by trait and left out),
/// the doc comment the description (an `# Arguments` list describes
/// parameters), the return type the output. The function stays as written;
/// a type of the same name is added for registration with
/// `mcp_runtime::definitions![name]`.
///
/// Options: `name = "..."`, `title = "..."`, `description = "..."`,
/// `read_only`, `destructive`, `idempotent`, `open_world` (each optionally
/// `= false`), `icons = ["https://..."]`, `meta(key = value, ...)`.
/// Parameter options: `#[mcp(rename = "...", description = "...",
/// header = "...")]`; `#[serde(rename = "...")]` is honoured.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::free_tool(args.into(), input.into()).into()
}

/// Makes the `#[mcp_tool]` methods of an impl block tools that share the
/// value as state, and adds `fn mcp_definitions(self: &Arc<Self>) ->
/// Definitions` for registration.
#[proc_macro_attribute]
pub fn mcp_server(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::server_impl(args.into(), input.into()).into()
}
