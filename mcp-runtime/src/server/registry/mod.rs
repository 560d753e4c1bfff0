//! The registry: what a server serves. Tools, resources and templates,
//! prompts, completions and skills are each defined in their own module;
//! the builder checks them (names, schemas, skills) and computes everything
//! that does not change per request (capabilities, the `server/discover`
//! result, the first [`catalogue`]). The catalogue (the tools, resources,
//! templates and prompts, with their listing pages) is a snapshot that a
//! [`live`] registry replaces while the server runs; everything else is
//! fixed at build.

pub(crate) mod audience;
pub(crate) mod builder;
pub(crate) mod catalogue;
pub(crate) mod completion;
pub(crate) mod handler;
pub(crate) mod list_changes;
pub(crate) mod listing;
pub(crate) mod live;
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

use catalogue::Current;
#[cfg(feature = "skills")]
use skills::Skills;

use crate::protocol::{DiscoverResult, Implementation, ServerCapabilities};
use crate::server::engine::task::Tasks;
use crate::server::middleware::Chain;
use crate::server::{ListChanges, LiveRegistry, ServerOptions};

/// Everything a built server serves; shared by every request.
pub(crate) struct Registry {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) discover: DiscoverResult,
    /// The tools, resources, templates and prompts served now.
    pub(crate) catalogue: Arc<Current>,
    /// The handle that changes the catalogue, on a live registry.
    pub(crate) live: Option<LiveRegistry>,
    pub(crate) options: ServerOptions,
    pub(crate) list_changes: Option<ListChanges>,
    /// Present when some tool may run as a task, now or (live) later.
    pub(crate) tasks: Option<Arc<dyn Tasks>>,
    /// Present when instances share tasks and announcements.
    #[cfg(feature = "redis")]
    pub(crate) shared: Option<Arc<crate::server::shared::Instance>>,
    /// Present when the server serves skills.
    #[cfg(feature = "skills")]
    pub(crate) skills: Option<Skills>,
    /// The middleware, outermost first; `None` when there is none.
    pub(crate) middleware: Option<Chain>,
}
