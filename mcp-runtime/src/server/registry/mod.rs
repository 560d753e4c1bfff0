//! The registry: what a server serves, defined before it starts and frozen
//! by [`ServerBuilder::build`](crate::server::ServerBuilder::build). Tools,
//! resources and templates, prompts, completions and skills are each
//! defined in their own module; the builder checks them (names, schemas,
//! skills) and computes everything that does not change per request
//! (listing pages, capabilities, the `server/discover` result).

pub(crate) mod builder;
pub(crate) mod completion;
pub(crate) mod handler;
pub(crate) mod list_changes;
pub(crate) mod listing;
pub(crate) mod options;
pub(crate) mod prompt;
pub(crate) mod register;
pub(crate) mod resource;
#[cfg(feature = "skills")]
pub(crate) mod skill;
#[cfg(feature = "skills")]
pub(crate) mod skills;
pub(crate) mod tool;
pub(crate) mod tool_schema;

use std::sync::Arc;

use listing::Listing;
#[cfg(feature = "skills")]
use skills::Skills;

#[cfg(feature = "http")]
use crate::protocol::param_headers::ParamHeaders;
use crate::protocol::{DiscoverResult, Implementation, ServerCapabilities};
use crate::schema::CompiledSchema;
use crate::server::engine::task::TaskStore;
use crate::server::middleware::Chain;
use crate::server::{
    ListChanges, PromptDef, ResourceDef, ResourceTemplateDef, ServerOptions, ToolDef,
};

/// A tool with its schemas compiled once, at build.
pub(crate) struct ToolEntry {
    pub(crate) def: ToolDef,
    pub(crate) input: CompiledSchema,
    pub(crate) output: Option<CompiledSchema>,
    /// What the HTTP transport checks against `Mcp-Param-*` headers.
    #[cfg(feature = "http")]
    pub(crate) param_headers: ParamHeaders,
}

/// Everything a built server serves; shared by every request.
pub(crate) struct Registry {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) discover: DiscoverResult,
    pub(crate) tools: Listing<ToolEntry>,
    pub(crate) resources: Listing<ResourceDef>,
    pub(crate) templates: Listing<ResourceTemplateDef>,
    pub(crate) prompts: Listing<PromptDef>,
    pub(crate) options: ServerOptions,
    pub(crate) list_changes: Option<ListChanges>,
    /// Present when some tool may run as a task.
    pub(crate) tasks: Option<Arc<TaskStore>>,
    /// Present when instances share tasks and announcements.
    #[cfg(feature = "redis")]
    pub(crate) shared: Option<Arc<crate::server::shared::Instance>>,
    /// Present when the server serves skills.
    #[cfg(feature = "skills")]
    pub(crate) skills: Option<Skills>,
    /// The middleware, outermost first; `None` when there is none.
    pub(crate) middleware: Option<Chain>,
}
