//! The MCP server: a registry of tools, resources, prompts and skills, built
//! once and shared by every request, and the router that serves both
//! protocol eras.
//!
//! ```no_run
//! use mcp_runtime::protocol::CallToolResult;
//! use mcp_runtime::server::{Server, ToolCall, ToolDef};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let server = Server::builder(mcp_runtime::server_info!())
//!     .tool(ToolDef::new("hello", |_call: ToolCall| async { Ok(CallToolResult::text("hi")) }))
//!     .build()?;
//! server.serve_stdio().await?;
//! # Ok(())
//! # }
//! ```

pub(crate) mod completion;
mod context;
mod dispatch;
mod extract;
mod handler;
mod input;
mod into_result;
mod list_changes;
mod listen;
mod listing;
mod prompt;
pub(crate) mod prompt_result;
pub(crate) mod read_result;
pub(crate) mod register;
mod request_state;
mod resource;
mod session;
pub(crate) mod signature;
mod skill;
mod skill_set;
mod subscribe;
mod task;
pub(crate) mod text_param;
mod tool;
pub(crate) mod tool_schema;

use std::fmt;
use std::sync::Arc;

use serde_json::json;

pub use completion::{CompletionRequest, CompletionReturn};
pub use context::{ClientMeta, Era, RequestContext};
pub use extract::{FromRequestContext, Progress};
pub use handler::BoxFuture;
pub use input::InputError;
pub use into_result::IntoToolResult;
pub use list_changes::{ListChange, ListChanges};
pub use mcp_uri_template::{UriTemplate, UriTemplateError};
pub use prompt::{PromptDef, PromptOutcome, PromptRequest};
pub use prompt_result::IntoPromptResult;
pub use read_result::{IntoReadResult, Json};
pub use register::{Definition, Definitions, Kind, Registrable};
pub use request_state::StateKey;
pub use resource::{ReadOutcome, ResourceDef, ResourceRead, ResourceTemplateDef};
pub use session::Session;
pub use signature::{HeaderValue, ToolParam, ToolReturn};
pub use skill::SkillDef;
pub use text_param::{QueryParam, TextParam, UnboundParam};
pub use tool::{ToolCall, ToolDef, ToolError, ToolOutcome};

/// Whether a tool may run as a task; see [`ToolDef::task_support`].
pub use crate::protocol::TaskSupport;
pub use tool_schema::{OutputSchema, SchemaProfile};

pub(crate) use context::Peer;
pub(crate) use dispatch::Answer;
pub(crate) use handler::catch_panic;
use listing::Listing;
use skill_set::Skills;
use task::TaskStore;

use crate::protocol::{
    CacheScope, DiscoverResult, Implementation, SKILLS_EXTENSION, ServerCapabilities,
    TASKS_EXTENSION,
};
use crate::schema::CompiledSchema;
use crate::transport::http::param_headers::ParamHeaders;

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

/// Tunables with sensible defaults.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Entries per `*/list` page (default 100).
    pub page_size: usize,
    /// `ttlMs` of list and discover results in 2026-07-28 (default 5 minutes:
    /// the registry does not change while the server runs).
    pub list_ttl_ms: u64,
    /// `cacheScope` of list and discover results (default public).
    pub list_cache_scope: CacheScope,
    /// `ttlMs` of `resources/read` results when the handler sets none
    /// (default 0: do not cache).
    pub read_ttl_ms: u64,
    /// `cacheScope` of `resources/read` results when the handler sets none
    /// (default private).
    pub read_cache_scope: CacheScope,
    /// Seals the `requestState` of multi-round-trip requests (2026-07-28).
    /// The default is random per process: give every instance behind a load
    /// balancer the same key so that any instance can take the next round.
    pub request_state_key: StateKey,
    /// How long a client may take to answer a round (default 10 minutes).
    pub request_state_ttl: std::time::Duration,
    /// The most tasks the server holds at once, running or ended (default
    /// 1000). An ended task is kept until its TTL is over or until a new
    /// task needs its room (the oldest ended one goes first); a call that
    /// would create one more while all are running fails with -32603.
    pub max_tasks: usize,
    /// How long a task and its result are kept from its creation, as the
    /// tasks' `ttlMs` (default 1 hour, at most a year). A task still running
    /// then is stopped.
    pub task_ttl: std::time::Duration,
    /// The `pollIntervalMs` suggested to clients polling tasks (default 1
    /// second).
    pub task_poll_interval: std::time::Duration,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            page_size: 100,
            list_ttl_ms: 300_000,
            list_cache_scope: CacheScope::Public,
            read_ttl_ms: 0,
            read_cache_scope: CacheScope::Private,
            request_state_key: StateKey::random(),
            request_state_ttl: std::time::Duration::from_secs(600),
            max_tasks: 1000,
            task_ttl: std::time::Duration::from_secs(3600),
            task_poll_interval: std::time::Duration::from_secs(1),
        }
    }
}

/// A server, cheap to clone and shared by every connection.
#[derive(Clone)]
pub struct Server {
    inner: Arc<Registry>,
}

pub(crate) struct ToolEntry {
    def: ToolDef,
    input: CompiledSchema,
    output: Option<CompiledSchema>,
    /// What the HTTP transport checks against `Mcp-Param-*` headers.
    param_headers: ParamHeaders,
}

pub(crate) struct Registry {
    info: Implementation,
    instructions: Option<String>,
    capabilities: ServerCapabilities,
    discover: DiscoverResult,
    tools: Listing<ToolEntry>,
    resources: Listing<ResourceDef>,
    templates: Listing<ResourceTemplateDef>,
    prompts: Listing<PromptDef>,
    options: ServerOptions,
    list_changes: Option<ListChanges>,
    /// Present when some tool may run as a task.
    tasks: Option<Arc<TaskStore>>,
    /// Present when the server serves skills.
    skills: Option<Skills>,
}

impl Server {
    /// Starts a server description; pass [`server_info!()`](crate::server_info)
    /// to report your crate's name and version.
    pub fn builder(info: Implementation) -> ServerBuilder {
        ServerBuilder {
            info,
            instructions: None,
            tools: Vec::new(),
            resources: Vec::new(),
            templates: Vec::new(),
            prompts: Vec::new(),
            skills: Vec::new(),
            options: ServerOptions::default(),
            list_changes: None,
            schema_profile: SchemaProfile::default(),
        }
    }

    /// The name and version this server reports.
    pub fn info(&self) -> &Implementation {
        &self.inner.info
    }

    /// The `Mcp-Param-*` headers a call of the tool `name` must carry.
    pub(crate) fn tool_param_headers(&self, name: &str) -> Option<&ParamHeaders> {
        self.inner.tools.get(name).map(|t| &t.param_headers)
    }
}

/// Collects tools, resources and prompts; [`build`](Self::build) checks them.
pub struct ServerBuilder {
    info: Implementation,
    instructions: Option<String>,
    tools: Vec<ToolDef>,
    resources: Vec<ResourceDef>,
    templates: Vec<ResourceTemplateDef>,
    prompts: Vec<PromptDef>,
    skills: Vec<SkillDef>,
    options: ServerOptions,
    list_changes: Option<ListChanges>,
    /// Set by `schema_profile` (in `register.rs`).
    schema_profile: SchemaProfile,
}

impl ServerBuilder {
    /// Adds a tool.
    pub fn tool(mut self, tool: ToolDef) -> Self {
        self.tools.push(tool);
        self
    }

    /// Adds a resource at a fixed URI.
    pub fn resource(mut self, resource: ResourceDef) -> Self {
        self.resources.push(resource);
        self
    }

    /// Adds a resource template.
    pub fn resource_template(mut self, template: ResourceTemplateDef) -> Self {
        self.templates.push(template);
        self
    }

    /// Adds a prompt.
    pub fn prompt(mut self, prompt: PromptDef) -> Self {
        self.prompts.push(prompt);
        self
    }

    /// Adds a skill (the `io.modelcontextprotocol/skills` extension). With
    /// at least one, the server declares the extension (with
    /// `directoryRead`) and the `resources` capability in both eras, answers
    /// `skills/list`, `skills/get` and `resources/directory/read`, and
    /// serves each file as a resource at `skill://<skill-path>/<file-path>`.
    /// [`build`](Self::build) checks the skill (see [`SkillDef`]).
    pub fn skill(mut self, skill: SkillDef) -> Self {
        self.skills.push(skill);
        self
    }

    /// Sets the instructions clients may show to the model.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Lets the server announce changes made through `changes` to
    /// `subscriptions/listen` streams (2026-07-28), and advertise
    /// `listChanged` there.
    pub fn list_changes(mut self, changes: ListChanges) -> Self {
        self.list_changes = Some(changes);
        self
    }

    /// Replaces the options.
    pub fn options(mut self, options: ServerOptions) -> Self {
        self.options = options;
        self
    }

    /// Checks every definition (unique names, compilable schemas, valid
    /// skills) and freezes the registry: skill entries, digests and listing
    /// pages are all computed here, once.
    pub fn build(mut self) -> Result<Server, BuildError> {
        let tools = self
            .tools
            .into_iter()
            .map(compile_tool)
            .collect::<Result<Vec<_>, _>>()?;
        let skills = if self.skills.is_empty() {
            None
        } else {
            let (skills, files) = Skills::build(self.skills).map_err(BuildError)?;
            self.resources.extend(files);
            Some(skills)
        };
        let has_completions = self.prompts.iter().any(|p| p.completer.is_some())
            || self.templates.iter().any(|t| t.completer.is_some());
        let mut capabilities = capabilities(
            !tools.is_empty(),
            !self.resources.is_empty() || !self.templates.is_empty(),
            !self.prompts.is_empty(),
            has_completions,
        )?;
        if skills.is_some() {
            // Declared in both eras: legacy clients see it in `initialize`.
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(SKILLS_EXTENSION.to_owned(), Skills::capability());
        }
        let tasks = tools
            .iter()
            .any(|t| t.def.task_support != TaskSupport::Forbidden)
            .then(|| {
                Arc::new(TaskStore::new(
                    self.options.max_tasks,
                    self.options.task_ttl,
                    self.options.task_poll_interval,
                ))
            });
        let mut discover_capabilities = match &self.list_changes {
            Some(_) => listen::announced(&capabilities),
            None => capabilities.clone(),
        };
        if tasks.is_some() {
            // The extension is 2026-07-28's: announced by discover only.
            discover_capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(TASKS_EXTENSION.to_owned(), Default::default());
        }
        let discover = dispatch::discover_result(
            &self.info,
            &discover_capabilities,
            self.instructions.as_deref(),
            &self.options,
        );
        let registry = Registry {
            tools: Listing::build(tools, |t| t.def.tool.name.as_str(), |t| &t.def.tool, "tool")
                .map_err(BuildError)?,
            resources: Listing::build(
                self.resources,
                |r| r.resource.uri.as_str(),
                |r| &r.resource,
                "resource",
            )
            .map_err(BuildError)?,
            templates: Listing::build(
                self.templates,
                |t| t.template.uri_template.as_str(),
                |t| &t.template,
                "resource template",
            )
            .map_err(BuildError)?,
            prompts: Listing::build(
                self.prompts,
                |p| p.prompt.name.as_str(),
                |p| &p.prompt,
                "prompt",
            )
            .map_err(BuildError)?,
            info: self.info,
            instructions: self.instructions,
            capabilities,
            discover,
            options: self.options,
            list_changes: self.list_changes,
            tasks,
            skills,
        };
        Ok(Server {
            inner: Arc::new(registry),
        })
    }
}

fn compile_tool(def: ToolDef) -> Result<ToolEntry, BuildError> {
    let name = &def.tool.name;
    if !is_valid_tool_name(name) {
        return Err(BuildError(format!(
            "tool name `{name}` is invalid: use 1 to 128 characters from A-Z, a-z, 0-9, `_`, `-` and `.`"
        )));
    }
    if def.tool.input_schema.get("type").and_then(|t| t.as_str()) != Some("object") {
        return Err(BuildError(format!(
            "tool `{name}`: the input schema must have \"type\": \"object\""
        )));
    }
    let input = CompiledSchema::compile(&def.tool.input_schema)
        .map_err(|e| BuildError(format!("tool `{name}`: invalid input schema: {e}")))?;
    let output = def
        .tool
        .output_schema
        .as_ref()
        .map(CompiledSchema::compile)
        .transpose()
        .map_err(|e| BuildError(format!("tool `{name}`: invalid output schema: {e}")))?;
    let param_headers = ParamHeaders::from_schema(&def.tool.input_schema);
    Ok(ToolEntry {
        def,
        input,
        output,
        param_headers,
    })
}

/// The spec's rule for tool names: 1 to 128 of `A-Za-z0-9_-.`.
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn capabilities(
    tools: bool,
    resources: bool,
    prompts: bool,
    completions: bool,
) -> Result<ServerCapabilities, BuildError> {
    let mut caps = serde_json::Map::new();
    caps.insert("logging".into(), json!({}));
    if tools {
        caps.insert("tools".into(), json!({ "listChanged": false }));
    }
    if resources {
        caps.insert(
            "resources".into(),
            json!({ "listChanged": false, "subscribe": false }),
        );
    }
    if prompts {
        caps.insert("prompts".into(), json!({ "listChanged": false }));
    }
    if completions {
        caps.insert("completions".into(), json!({}));
    }
    serde_json::from_value(caps.into()).map_err(|e| BuildError(format!("capabilities: {e}")))
}

/// A definition the builder rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError(String);

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}
