//! [`ServerBuilder`]: collects definitions, checks them once and freezes
//! them into the [`Registry`] every request reads.

use std::fmt;
use std::sync::Arc;

use super::listing::Listing;
#[cfg(feature = "skills")]
use super::skills::Skills;
use super::{Registry, ToolEntry};
#[cfg(feature = "skills")]
use crate::protocol::SKILLS_EXTENSION;
use crate::protocol::headers::read_param_headers;
#[cfg(feature = "http")]
use crate::protocol::param_headers::ParamHeaders;
use crate::protocol::{
    Implementation, JsonObject, PromptsCapability, ResourcesCapability, ServerCapabilities,
    TASKS_EXTENSION, TaskSupport, ToolsCapability,
};
use crate::schema::CompiledSchema;
#[cfg(feature = "skills")]
use crate::server::SkillDef;
use crate::server::engine::{discover_result, listen, task::TaskStore};
use crate::server::middleware::Middleware;
#[cfg(feature = "redis")]
use crate::server::shared::Instance;
use crate::server::{
    ListChanges, PromptDef, ResourceDef, ResourceTemplateDef, SchemaProfile, Server, ServerOptions,
    ToolDef, is_valid_tool_name,
};

/// Collects tools, resources and prompts; [`build`](Self::build) checks them.
pub struct ServerBuilder {
    info: Implementation,
    instructions: Option<String>,
    tools: Vec<ToolDef>,
    resources: Vec<ResourceDef>,
    templates: Vec<ResourceTemplateDef>,
    prompts: Vec<PromptDef>,
    #[cfg(feature = "skills")]
    skills: Vec<SkillDef>,
    options: ServerOptions,
    list_changes: Option<ListChanges>,
    #[cfg(feature = "redis")]
    shared: Option<crate::server::SharedState>,
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
            skills: Vec::new(),
            options: ServerOptions::default(),
            list_changes: None,
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
    /// (The `skills` feature, on by default.)
    #[cfg(feature = "skills")]
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

    /// Shares tasks and [`list_changes`](Self::list_changes) announcements
    /// with the other instances of this server through `state`, so that any
    /// instance serves any request (see [`shared`](crate::server::shared)).
    #[cfg(feature = "redis")]
    pub fn shared_state(mut self, state: crate::server::SharedState) -> Self {
        self.shared = Some(state);
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
    /// skills) and freezes the registry: skill entries, digests and listing
    /// pages are all computed here, once.
    // Only skills add resources and capabilities after the fact.
    #[cfg_attr(not(feature = "skills"), allow(unused_mut))]
    pub fn build(mut self) -> Result<Server, BuildError> {
        let tools = self
            .tools
            .into_iter()
            .map(compile_tool)
            .collect::<Result<Vec<_>, _>>()?;
        #[cfg(feature = "skills")]
        let skills = if self.skills.is_empty() {
            None
        } else {
            let (skills, files) = Skills::build(self.skills).map_err(BuildError)?;
            self.resources.extend(files);
            Some(skills)
        };
        let has_completions = self.prompts.iter().any(|p| p.completer.is_some())
            || self.templates.iter().any(|t| t.completer.is_some());
        #[cfg_attr(not(feature = "skills"), allow(unused_mut))]
        let mut capabilities = capabilities(
            !tools.is_empty(),
            !self.resources.is_empty() || !self.templates.is_empty(),
            !self.prompts.is_empty(),
            has_completions,
        );
        #[cfg(feature = "skills")]
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
                let store = TaskStore::new(
                    self.options.max_tasks,
                    self.options.task_ttl,
                    self.options.task_poll_interval,
                );
                #[cfg(feature = "redis")]
                let store = match self.shared {
                    Some(_) => store.watched(),
                    None => store,
                };
                Arc::new(store)
            });
        #[cfg(feature = "redis")]
        let shared = self.shared.map(|state| {
            let backend = state.backend(&self.info.name);
            Instance::new(backend, tasks.as_ref(), self.list_changes.as_ref())
        });
        #[cfg(feature = "redis")]
        if let Some(shared) = &shared
            && tokio::runtime::Handle::try_current().is_ok()
        {
            // Else the first request starts it.
            shared.start();
        }
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
        let discover = discover_result(
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
    if let Some(scope) = def.scopes.iter().find(|s| !mcp_names::is_scope_token(s)) {
        return Err(BuildError(format!(
            "tool `{name}`: {scope:?} is not an OAuth scope token"
        )));
    }
    let annotations = read_param_headers(&def.tool.input_schema)
        .map_err(|why| BuildError(format!("tool `{name}`: {why}")))?;
    // Checked whatever the transport, so a tool is valid or not in every
    // build; kept only where HTTP requests carry the headers.
    #[cfg(not(feature = "http"))]
    let _ = annotations;
    Ok(ToolEntry {
        def,
        input,
        output,
        #[cfg(feature = "http")]
        param_headers: ParamHeaders::new(annotations),
    })
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

/// A definition the builder rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError(String);

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}
