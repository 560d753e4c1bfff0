//! [`ServerBuilder`]: collects definitions, checks them once and makes
//! the [`Registry`] every request reads.

use std::fmt;
use std::sync::Arc;

use super::Registry;
use super::catalogue::{self, Catalogue, Current, ToolEntry};
#[cfg(feature = "skills")]
use super::skills::Skills;
#[cfg(feature = "skills")]
use crate::protocol::SKILLS_EXTENSION;
use crate::protocol::{
    Implementation, JsonObject, PromptsCapability, ResourcesCapability, ServerCapabilities,
    TASKS_EXTENSION, ToolsCapability,
};
#[cfg(feature = "skills")]
use crate::server::SkillDef;
use crate::server::engine::task::MakeTasks;
use crate::server::engine::{announce, discover_result};
use crate::server::middleware::Middleware;
#[cfg(feature = "redis")]
use crate::server::shared::{Backend, Instance};
use crate::server::{
    ListChanges, LiveRegistry, PromptDef, ResourceDef, ResourceTemplateDef, SchemaProfile, Server,
    ServerOptions, ToolDef,
};

/// How `build` checks and compiles the skills given.
#[cfg(feature = "skills")]
type CompileSkills = fn(Vec<SkillDef>) -> Result<(Skills, Vec<ResourceDef>), String>;

/// Collects tools, resources and prompts; [`build`](Self::build) checks them.
pub struct ServerBuilder {
    info: Implementation,
    instructions: Option<String>,
    tools: Vec<ToolDef>,
    resources: Vec<ResourceDef>,
    templates: Vec<ResourceTemplateDef>,
    prompts: Vec<PromptDef>,
    /// The skills given, and `Skills::build`, set by `skill` rather than
    /// called by `build`, so that a server that serves none links none of
    /// the skills' checks and frontmatter parser (169 KB).
    #[cfg(feature = "skills")]
    skills: Option<(Vec<SkillDef>, CompileSkills)>,
    options: ServerOptions,
    list_changes: Option<ListChanges>,
    live: bool,
    /// How to make the tasks, set by `live_registry` (a task tool may come
    /// later); a task tool brings its own. Not called by `build` itself,
    /// so that a server without tasks links none of their machinery.
    make_tasks: Option<MakeTasks>,
    /// Made by `shared_state` rather than in `build`, so that a server that
    /// never calls it links none of the Redis client (1.1 MB).
    #[cfg(feature = "redis")]
    shared: Option<Arc<dyn Backend>>,
    middleware: Vec<Arc<dyn Middleware>>,
    /// Set by `schema_profile` (in `register.rs`).
    pub(super) schema_profile: SchemaProfile,
}

impl ServerBuilder {
    /// An empty builder; see [`Server::builder`].
    pub(crate) fn new(info: Implementation) -> Self {
        ServerBuilder {
            info,
            instructions: None,
            tools: Vec::new(),
            resources: Vec::new(),
            templates: Vec::new(),
            prompts: Vec::new(),
            #[cfg(feature = "skills")]
            skills: None,
            options: ServerOptions::default(),
            list_changes: None,
            live: false,
            make_tasks: None,
            #[cfg(feature = "redis")]
            shared: None,
            middleware: Vec::new(),
            schema_profile: SchemaProfile::default(),
        }
    }

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
    /// (The `skills` feature.)
    #[cfg(feature = "skills")]
    pub fn skill(mut self, skill: SkillDef) -> Self {
        let (skills, _) = self
            .skills
            .get_or_insert_with(|| (Vec::new(), Skills::build));
        skills.push(skill);
        self
    }

    /// Sets the instructions clients may show to the model.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Lets the server announce changes made through `changes`: to
    /// `subscriptions/listen` streams (2026-07-28) and to legacy sessions,
    /// whose capabilities then say `listChanged` in both eras. A
    /// [`live_registry`](Self::live_registry) announces its own changes on
    /// this channel (or on one of its own when none is given).
    pub fn list_changes(mut self, changes: ListChanges) -> Self {
        self.list_changes = Some(changes);
        self
    }

    /// Makes the registry live: tools, prompts, resources and templates
    /// can be added, replaced and removed while the server runs, through
    /// the [`LiveRegistry`] that [`Server::registry`] and
    /// [`RequestContext::registry`](crate::server::RequestContext::registry)
    /// return, and every change is announced to the clients listening.
    ///
    /// A live server declares the `tools`, `prompts`, `resources` and
    /// `completions` capabilities with `listChanged` whatever it serves at
    /// build (any may appear later), and the tasks extension (a tool added
    /// later may run as a task). Requests read an immutable snapshot, so a
    /// request that started keeps the definitions it started with.
    ///
    /// With `shared_state` (the `redis` feature), announcements reach the
    /// clients of every instance; the registry itself is each instance's
    /// own (change it on every instance, from your own code or
    /// configuration).
    pub fn live_registry(mut self) -> Self {
        self.live = true;
        self.make_tasks = Some(crate::server::engine::task::make);
        self
    }

    /// Shares tasks and [`list_changes`](Self::list_changes) announcements
    /// with the other instances of this server through `state`, so that any
    /// instance serves any request (see [`shared`](crate::server::shared)).
    #[cfg(feature = "redis")]
    pub fn shared_state(mut self, state: crate::server::SharedState) -> Self {
        self.shared = Some(state.backend(&self.info.name));
        self
    }

    /// Adds a layer of [middleware](crate::server::middleware) around
    /// every request; the first added is the outermost.
    pub fn middleware(mut self, layer: impl Middleware) -> Self {
        self.middleware.push(Arc::new(layer));
        self
    }

    /// Replaces the options.
    pub fn options(mut self, options: ServerOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets [`ServerOptions::request_state_key`], keeping the other options.
    pub fn request_state_key(mut self, key: crate::server::StateKey) -> Self {
        self.options.request_state_key = key;
        self
    }

    /// Checks every definition (unique names, compilable schemas, valid
    /// skills) and makes the registry: skill entries, digests and listing
    /// pages are all computed here, once (a
    /// [`live_registry`](Self::live_registry) recomputes what a change
    /// touches).
    pub fn build(mut self) -> Result<Server, BuildError> {
        let tools = self
            .tools
            .into_iter()
            .map(|def| ToolEntry::compile(def).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()?;
        #[cfg(feature = "skills")]
        let skills = match self.skills {
            None => None,
            Some((defs, compile)) => {
                let (skills, files) = compile(defs).map_err(BuildError)?;
                self.resources.extend(files);
                Some(skills)
            }
        };
        let live = self.live;
        let has_completions = self.prompts.iter().any(|p| p.completer.is_some())
            || self.templates.iter().any(|t| t.completer.is_some());
        if live {
            self.list_changes.get_or_insert_with(ListChanges::new);
        }
        let mut capabilities = capabilities(
            live || !tools.is_empty(),
            live || !self.resources.is_empty() || !self.templates.is_empty(),
            live || !self.prompts.is_empty(),
            live || has_completions,
        );
        #[cfg(feature = "skills")]
        if skills.is_some() {
            // Declared in both eras: legacy clients see it in `initialize`.
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(SKILLS_EXTENSION.to_owned(), Skills::capability());
        }
        #[cfg(feature = "redis")]
        let watched = self.shared.is_some();
        #[cfg(not(feature = "redis"))]
        let watched = false;
        let tasks = (self.make_tasks)
            .or_else(|| tools.iter().find_map(|t| t.def.make_tasks))
            .map(|make| make(&self.options, watched));
        #[cfg(feature = "redis")]
        let shared = self.shared.map(|backend| {
            let store = tasks.as_ref().map(|tasks| tasks.store());
            Instance::new(backend, store, self.list_changes.as_ref())
        });
        #[cfg(feature = "redis")]
        if let Some(shared) = &shared
            && tokio::runtime::Handle::try_current().is_ok()
        {
            // Else the first request starts it.
            shared.start();
        }
        if self.list_changes.is_some() {
            capabilities = announce::announced(&capabilities);
        }
        let mut discover_capabilities = capabilities.clone();
        if tasks.is_some() {
            // The extension is 2026-07-28's: announced by discover only.
            discover_capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(TASKS_EXTENSION.to_owned(), Default::default());
        }
        let discover = discover_result(
            &self.info,
            &discover_capabilities,
            self.instructions.as_deref(),
            &self.options,
        );
        let catalogue = Catalogue {
            tools: Arc::new(catalogue::tools(tools)?),
            resources: Arc::new(catalogue::resources(arcs(self.resources))?),
            templates: Arc::new(catalogue::templates(arcs(self.templates))?),
            prompts: Arc::new(catalogue::prompts(arcs(self.prompts))?),
        };
        let catalogue = Arc::new(Current::new(catalogue));
        let live = match (&self.list_changes, live) {
            (Some(changes), true) => Some(LiveRegistry::new(
                catalogue.clone(),
                changes.clone(),
                self.schema_profile,
            )),
            _ => None,
        };
        let registry = Registry {
            catalogue,
            live,
            info: self.info,
            instructions: self.instructions,
            capabilities,
            discover,
            options: self.options,
            list_changes: self.list_changes,
            tasks,
            #[cfg(feature = "redis")]
            shared,
            #[cfg(feature = "skills")]
            skills,
            middleware: (!self.middleware.is_empty()).then(|| self.middleware.into()),
        };
        Ok(Server {
            inner: Arc::new(registry),
        })
    }
}

fn arcs<T>(entries: Vec<T>) -> Vec<Arc<T>> {
    entries.into_iter().map(Arc::new).collect()
}

/// Built field by field rather than parsed from JSON, which would compile
/// a deserializer for every capability type into every server.
fn capabilities(
    tools: bool,
    resources: bool,
    prompts: bool,
    completions: bool,
) -> ServerCapabilities {
    ServerCapabilities {
        logging: Some(JsonObject::new()),
        tools: tools.then_some(ToolsCapability {
            list_changed: Some(false),
        }),
        resources: resources.then_some(ResourcesCapability {
            list_changed: Some(false),
            subscribe: Some(false),
        }),
        prompts: prompts.then_some(PromptsCapability {
            list_changed: Some(false),
        }),
        completions: completions.then(JsonObject::new),
        ..ServerCapabilities::default()
    }
}

/// A definition the builder, or a [`LiveRegistry`] change, rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError(String);

impl BuildError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        BuildError(message.into())
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}
