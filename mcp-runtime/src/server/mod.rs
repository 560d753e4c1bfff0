//! The MCP server: a registry of tools, resources, prompts and skills,
//! shared by every request (fixed at build, or [live](ServerBuilder::live_registry)),
//! and the engine that serves both protocol eras.
//!
//! ```no_run
//! use mcp_toolkit_runtime::protocol::CallToolResult;
//! use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let server = Server::builder(mcp_toolkit_runtime::server_info!())
//!     .tool(ToolDef::new("hello", |_call: ToolCall| async { Ok(CallToolResult::text("hi")) }))
//!     .build()?;
//! server.serve_stdio().await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Layout
//!
//! - `registry/`: what the server serves. One module per kind of
//!   definition (`tool`, `resource`, `prompt`, `completion`, `skill`), the
//!   `builder` that checks them and makes the registry, the `catalogue`
//!   (the snapshot of what is served now, with `listing`, the precomputed
//!   `*/list` pages) and `live`, the handle that changes it.
//! - `engine/`: how one request is served, one stage per module (see the
//!   crate docs for the whole path from bytes to reply): `request` (entry,
//!   era pick, `_meta`) → `era` (the era's rules, the request context) →
//!   `intercept` (middleware) → `route` (method to handler) → `rounds`
//!   (multi-round input) → `invoke` (validate, run, check the result). Beside them: the per-connection
//!   `session`, the handler's `context` and `peer`, `input` (questions to
//!   the client), `request_state` (sealed multi-round state), `discover`,
//!   `listen`, `subscribe` and `task` (the tasks extension); `announce`
//!   (announcements to one listener) and `legacy_feed` (a legacy session's,
//!   run by the transports).
//! - [`middleware`]: layers around every request (logging, limits,
//!   timeouts, your own rules), run by the engine's `intercept` stage.
//! - `shared` (the `redis` feature): the state several instances share
//!   (tasks, announcements) through Redis; the engine's `task`, `listen`
//!   and `legacy_feed` consult it.
//! - `derive/`: what the macros' generated code targets: parameter and
//!   return-type conversions, context extractors, text parameters.
//!
//! Modules below this one name public types through this module's
//! re-exports (`crate::server::RequestContext`), which resolve to a sibling
//! module, never to code in this file. The one exception, on purpose:
//! engine modules add `impl Server` blocks, because serving a request is
//! the engine's job and [`Server`] is only the handle that shares the
//! registry. No module imports a later stage of the request path, and
//! there are no import cycles.

pub mod auth;
mod derive;
mod engine;
pub mod middleware;
mod registry;
#[cfg(feature = "redis")]
pub mod shared;

use std::sync::Arc;

pub use derive::extract::{FromRequestContext, Progress};
pub use derive::into_result::IntoToolResult;
pub use derive::prompt_result::IntoPromptResult;
pub use derive::read_result::{IntoReadResult, Json};
pub use derive::signature::{HeaderValue, ToolParam, ToolReturn};
pub use derive::text_param::{QueryParam, TextParam, UnboundParam};
pub use engine::client_meta::{ClientMeta, Era};
pub use engine::context::RequestContext;
pub use engine::input::InputError;
pub use engine::request_state::StateKey;
pub use engine::session::Session;
pub use mcp_toolkit_names::is_valid_tool_name;
pub use mcp_toolkit_uri_template::{UriTemplate, UriTemplateError};
pub use registry::builder::{BuildError, ServerBuilder};
pub use registry::completion::{CompletionRequest, CompletionReturn};
pub use registry::handler::BoxFuture;
pub use registry::list_changes::{ListChange, ListChanges};
pub use registry::live::{Batch, LiveRegistry, WeakLiveRegistry};
pub use registry::options::ServerOptions;
pub use registry::prompt::{PromptDef, PromptOutcome, PromptRequest};
pub use registry::register::{Definition, Definitions, Kind, Registrable};
pub use registry::resource::{ReadOutcome, ResourceDef, ResourceRead, ResourceTemplateDef};
#[cfg(feature = "skills")]
pub use registry::skill::SkillDef;
pub use registry::tool::{ToolCall, ToolDef, ToolError, ToolOutcome};
pub use registry::tool_schema::{OutputSchema, SchemaProfile};
#[cfg(feature = "redis")]
pub use shared::{SharedState, SharedStateError};

/// Whether a tool may run as a task; see [`ToolDef::task_support`].
pub use crate::protocol::TaskSupport;

#[cfg(feature = "http")]
pub(crate) use engine::classify::{Classified, Decoded, Rejection};
pub(crate) use engine::inbound::Inbound;
#[cfg(feature = "http")]
pub(crate) use engine::legacy_feed::LegacyFeed;
pub(crate) use engine::params::panicked;
#[cfg(feature = "http")]
pub(crate) use engine::peer::Outbox;
pub(crate) use engine::peer::Peer;
#[cfg(feature = "http")]
pub(crate) use engine::request::Answer;
pub(crate) use registry::handler::{catch_panic, poll_catching};

/// Paths the macros' generated code reaches through `crate::__private`.
pub(crate) mod macro_support {
    pub(crate) use super::derive::{prompt_result, read_result, signature, text_param};
    pub(crate) use super::registry::{completion, register, tool_schema};
}

use crate::protocol::Implementation;
use registry::Registry;
use registry::catalogue::Catalogue;
#[cfg(feature = "http")]
use registry::catalogue::ToolEntry;

/// The name and version of the crate that invokes it, as an
/// [`Implementation`]: servers report the user's crate, not this one.
#[macro_export]
macro_rules! server_info {
    () => {
        $crate::protocol::Implementation::new(
            ::core::env!("CARGO_PKG_NAME"),
            ::core::env!("CARGO_PKG_VERSION"),
        )
    };
}

/// A server, cheap to clone and shared by every connection.
#[derive(Clone)]
pub struct Server {
    inner: Arc<Registry>,
}

impl Server {
    /// Starts a server description; pass [`server_info!()`](crate::server_info)
    /// to report your crate's name and version.
    pub fn builder(info: Implementation) -> ServerBuilder {
        ServerBuilder::new(info)
    }

    /// The name and version this server reports.
    pub fn info(&self) -> &Implementation {
        &self.inner.info
    }

    /// The handle that changes what this server serves while it runs,
    /// when its builder asked for a
    /// [`live_registry`](ServerBuilder::live_registry); `None` otherwise.
    pub fn registry(&self) -> Option<LiveRegistry> {
        self.inner.live.clone()
    }

    /// The tools, resources, templates and prompts served now.
    pub(crate) fn catalogue(&self) -> Arc<Catalogue> {
        self.inner.catalogue.load()
    }

    /// The tool `name` as served now to `caller` (`None` when hidden
    /// from it, so that no check reveals that it exists).
    #[cfg(feature = "http")]
    pub(crate) fn tool(
        &self,
        name: &str,
        caller: Option<&auth::Principal>,
    ) -> Option<Arc<ToolEntry>> {
        self.catalogue().tools.get_for(name, caller).cloned()
    }

    /// Every scope some tool served now needs, for `scopes_supported`.
    #[cfg(feature = "http")]
    pub(crate) fn all_tool_scopes(&self) -> Vec<String> {
        let catalogue = self.catalogue();
        let mut scopes: Vec<String> = catalogue
            .tools
            .iter()
            .flat_map(|t| t.def.scopes.iter().cloned())
            .collect();
        scopes.sort_unstable();
        scopes.dedup();
        scopes
    }
}
