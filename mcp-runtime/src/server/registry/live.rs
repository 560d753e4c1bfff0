//! A registry that changes while the server runs: [`LiveRegistry`], the
//! handle that adds, replaces and removes tools, prompts, resources and
//! templates, and [`Batch`], several changes made as one.
//!
//! A change is checked by the rules [`build`](crate::server::ServerBuilder::build)
//! applies (valid names, compilable schemas, no two entries with one name)
//! and fails with the same [`BuildError`]; a batch that fails anywhere
//! changes nothing. A change that succeeds makes the next
//! catalogue from the current one, swaps it in for the requests that start
//! afterwards, and announces it: one `notifications/*/list_changed` per
//! kind the batch touched, and `notifications/resources/updated` for each
//! resource it replaced.

use std::fmt;
use std::sync::{Arc, Mutex, Weak};

use super::audience::Restricted;
use super::catalogue::{self, Catalogue, Current, ToolEntry};
use super::listing::Listing;
use crate::server::{
    BuildError, Definition, Definitions, ListChange, ListChanges, PromptDef, ResourceDef,
    ResourceTemplateDef, SchemaProfile, ToolDef,
};
use crate::sync::lock;

/// The handle to a live server's registry: what it serves can change
/// while it runs, and every client that listens is told.
///
/// A server has one when its builder asked for it with
/// [`live_registry`](crate::server::ServerBuilder::live_registry); get it
/// from [`Server::registry`](crate::server::Server::registry) outside a
/// request and from [`RequestContext::registry`](crate::server::RequestContext::registry)
/// (or a parameter of type `Option<LiveRegistry>` of a macro-built handler)
/// inside one. Clones share the registry.
///
/// ```
/// use mcp_toolkit_runtime::protocol::CallToolResult;
/// use mcp_toolkit_runtime::server::{Batch, Server, ToolCall, ToolDef};
///
/// fn tool(name: &str) -> ToolDef {
///     ToolDef::new(name, |_call: ToolCall| async { Ok(CallToolResult::text("ok")) })
/// }
///
/// let server = Server::builder(mcp_toolkit_runtime::server_info!())
///     .tool(tool("status"))
///     .live_registry()
///     .build()?;
/// let registry = server.registry().expect("asked for at build");
/// registry.add_tool(tool("report"))?;
/// // Several changes, one announcement per kind, all or nothing:
/// registry.apply(Batch::new().remove_tool("report").add_tool(tool("export")))?;
/// assert_eq!(registry.tool_names(), ["export", "status"]);
/// // The same rules as at build:
/// assert!(registry.add_tool(tool("status")).is_err());
/// # Ok::<(), mcp_toolkit_runtime::server::BuildError>(())
/// ```
#[derive(Clone)]
pub struct LiveRegistry {
    inner: Arc<Live>,
}

struct Live {
    current: Arc<Current>,
    changes: ListChanges,
    profile: SchemaProfile,
    /// One change at a time, each made from the catalogue the last one left.
    writer: Mutex<()>,
}

impl fmt::Debug for LiveRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let now = self.inner.current.load();
        f.debug_struct("LiveRegistry")
            .field("tools", &now.tools.len())
            .field("resources", &now.resources.len())
            .field("resource_templates", &now.templates.len())
            .field("prompts", &now.prompts.len())
            .finish()
    }
}

impl LiveRegistry {
    pub(crate) fn new(current: Arc<Current>, changes: ListChanges, profile: SchemaProfile) -> Self {
        LiveRegistry {
            inner: Arc::new(Live {
                current,
                changes,
                profile,
                writer: Mutex::new(()),
            }),
        }
    }

    /// Makes every change in `batch`, or none when one fails; then
    /// announces what changed, once per kind.
    pub fn apply(&self, batch: Batch) -> Result<(), BuildError> {
        let live = &*self.inner;
        let _one_writer = lock(&live.writer);
        let now = live.current.load();
        let mut draft = Draft::from(&now);
        for change in batch.changes {
            draft.apply(change, live.profile)?;
        }
        let Some((next, announcements)) = draft.finish()? else {
            return Ok(());
        };
        live.current.store(next);
        for announcement in announcements {
            live.changes.announce(announcement);
        }
        Ok(())
    }

    /// Adds a tool; fails when one has its name.
    pub fn add_tool(&self, tool: ToolDef) -> Result<(), BuildError> {
        self.apply(Batch::new().add_tool(tool))
    }

    /// Adds a tool, or replaces the one with its name.
    pub fn replace_tool(&self, tool: ToolDef) -> Result<(), BuildError> {
        self.apply(Batch::new().replace_tool(tool))
    }

    /// Removes the tool `name`; fails when there is none.
    pub fn remove_tool(&self, name: &str) -> Result<(), BuildError> {
        self.apply(Batch::new().remove_tool(name))
    }

    /// Adds a prompt; fails when one has its name.
    pub fn add_prompt(&self, prompt: PromptDef) -> Result<(), BuildError> {
        self.apply(Batch::new().add_prompt(prompt))
    }

    /// Removes the prompt `name`; fails when there is none.
    pub fn remove_prompt(&self, name: &str) -> Result<(), BuildError> {
        self.apply(Batch::new().remove_prompt(name))
    }

    /// Adds a resource; fails when one has its URI.
    pub fn add_resource(&self, resource: ResourceDef) -> Result<(), BuildError> {
        self.apply(Batch::new().add_resource(resource))
    }

    /// Removes the resource at `uri`; fails when there is none.
    pub fn remove_resource(&self, uri: &str) -> Result<(), BuildError> {
        self.apply(Batch::new().remove_resource(uri))
    }

    /// Adds every definition (macro-built ones built for the server's
    /// [`SchemaProfile`]), as one batch.
    ///
    /// ```
    /// use mcp_toolkit_runtime::mcp_tool;
    /// use mcp_toolkit_runtime::server::{LiveRegistry, Server};
    ///
    /// /// The signed-in user's inbox.
    /// #[mcp_tool]
    /// fn inbox() -> String {
    ///     "3 new messages".into()
    /// }
    ///
    /// /// Sign in: the tools that need a user appear.
    /// #[mcp_tool]
    /// fn login(registry: Option<LiveRegistry>) -> Result<String, String> {
    ///     let registry = registry.ok_or("the registry is not live")?;
    ///     registry
    ///         .register(mcp_toolkit_runtime::definitions![inbox])
    ///         .map_err(|e| e.to_string())?;
    ///     Ok("signed in".into())
    /// }
    ///
    /// /// Sign out: they disappear again.
    /// #[mcp_tool]
    /// fn logout(registry: Option<LiveRegistry>) -> Result<String, String> {
    ///     let registry = registry.ok_or("the registry is not live")?;
    ///     registry.remove_tool("inbox").map_err(|e| e.to_string())?;
    ///     Ok("signed out".into())
    /// }
    ///
    /// let server = Server::builder(mcp_toolkit_runtime::server_info!())
    ///     .register(mcp_toolkit_runtime::definitions![login, logout])
    ///     .live_registry()
    ///     .build()?;
    /// # Ok::<(), mcp_toolkit_runtime::server::BuildError>(())
    /// ```
    pub fn register(&self, definitions: Definitions) -> Result<(), BuildError> {
        self.apply(Batch::new().register(definitions))
    }

    /// The names of the tools served now, sorted.
    pub fn tool_names(&self) -> Vec<String> {
        names(&self.inner.current.load().tools, ToolEntry::name)
    }

    /// The names of the prompts served now, sorted.
    pub fn prompt_names(&self) -> Vec<String> {
        names(&self.inner.current.load().prompts, PromptDef::name)
    }

    /// The URIs of the resources served now, sorted.
    pub fn resource_uris(&self) -> Vec<String> {
        names(&self.inner.current.load().resources, ResourceDef::uri)
    }

    /// The URI templates served now, sorted.
    pub fn resource_template_uris(&self) -> Vec<String> {
        names(
            &self.inner.current.load().templates,
            ResourceTemplateDef::uri_template,
        )
    }

    /// The channel this registry's announcements travel on, to announce
    /// what it cannot see itself ([`ListChanges::resource_updated`] when a
    /// resource's content changes).
    pub fn list_changes(&self) -> &ListChanges {
        &self.inner.changes
    }
}

impl LiveRegistry {
    /// A handle that does not keep the registry alive: for a task that
    /// feeds the registry from elsewhere (a mounted server, a gateway's
    /// host) and should end with the server rather than keep it.
    pub fn downgrade(&self) -> WeakLiveRegistry {
        WeakLiveRegistry {
            inner: Arc::downgrade(&self.inner),
        }
    }
}

/// A [`LiveRegistry`] that does not keep it alive
/// ([`LiveRegistry::downgrade`]).
#[derive(Clone, Debug)]
pub struct WeakLiveRegistry {
    inner: Weak<Live>,
}

impl WeakLiveRegistry {
    /// The registry, while its server or another handle keeps it.
    pub fn upgrade(&self) -> Option<LiveRegistry> {
        self.inner.upgrade().map(|inner| LiveRegistry { inner })
    }
}

fn names<T: Restricted>(listing: &Listing<T>, key: fn(&T) -> &str) -> Vec<String> {
    listing.iter().map(|entry| key(entry).to_owned()).collect()
}

/// Changes made together by [`LiveRegistry::apply`]: all of them or none,
/// in order (a batch may remove a tool and add another of the same name),
/// announced once per kind.
#[derive(Default)]
#[must_use = "a batch does nothing until applied"]
pub struct Batch {
    changes: Vec<Change>,
}

enum Change {
    Tool(Edit<ToolDef>),
    Prompt(Edit<PromptDef>),
    Resource(Edit<ResourceDef>),
    Template(Edit<ResourceTemplateDef>),
    Register(Definitions),
}

enum Edit<T> {
    /// Fails when the key is taken.
    Add(T),
    /// Adds, or replaces the entry with the same key.
    Replace(T),
    /// Fails when the key is free.
    Remove(String),
}

impl Edit<ToolDef> {
    fn compiled(self) -> Result<Edit<ToolEntry>, BuildError> {
        Ok(match self {
            Edit::Add(def) => Edit::Add(ToolEntry::compile(def)?),
            Edit::Replace(def) => Edit::Replace(ToolEntry::compile(def)?),
            Edit::Remove(name) => Edit::Remove(name),
        })
    }
}

impl fmt::Debug for Batch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Batch")
            .field("changes", &self.changes.len())
            .finish()
    }
}

impl Batch {
    /// No changes yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn with(mut self, change: Change) -> Self {
        self.changes.push(change);
        self
    }

    /// Adds a tool; the batch fails when one has its name.
    pub fn add_tool(self, tool: ToolDef) -> Self {
        self.with(Change::Tool(Edit::Add(tool)))
    }

    /// Adds a tool, or replaces the one with its name.
    pub fn replace_tool(self, tool: ToolDef) -> Self {
        self.with(Change::Tool(Edit::Replace(tool)))
    }

    /// Removes the tool `name`; the batch fails when there is none.
    pub fn remove_tool(self, name: impl Into<String>) -> Self {
        self.with(Change::Tool(Edit::Remove(name.into())))
    }

    /// Adds a prompt; the batch fails when one has its name.
    pub fn add_prompt(self, prompt: PromptDef) -> Self {
        self.with(Change::Prompt(Edit::Add(prompt)))
    }

    /// Adds a prompt, or replaces the one with its name.
    pub fn replace_prompt(self, prompt: PromptDef) -> Self {
        self.with(Change::Prompt(Edit::Replace(prompt)))
    }

    /// Removes the prompt `name`; the batch fails when there is none.
    pub fn remove_prompt(self, name: impl Into<String>) -> Self {
        self.with(Change::Prompt(Edit::Remove(name.into())))
    }

    /// Adds a resource; the batch fails when one has its URI.
    pub fn add_resource(self, resource: ResourceDef) -> Self {
        self.with(Change::Resource(Edit::Add(resource)))
    }

    /// Adds a resource, or replaces the one at its URI (whose subscribers
    /// are told it was updated).
    pub fn replace_resource(self, resource: ResourceDef) -> Self {
        self.with(Change::Resource(Edit::Replace(resource)))
    }

    /// Removes the resource at `uri`; the batch fails when there is none.
    pub fn remove_resource(self, uri: impl Into<String>) -> Self {
        self.with(Change::Resource(Edit::Remove(uri.into())))
    }

    /// Adds a resource template; the batch fails when one has its URI
    /// template.
    pub fn add_resource_template(self, template: ResourceTemplateDef) -> Self {
        self.with(Change::Template(Edit::Add(template)))
    }

    /// Adds a resource template, or replaces the one with its URI template.
    pub fn replace_resource_template(self, template: ResourceTemplateDef) -> Self {
        self.with(Change::Template(Edit::Replace(template)))
    }

    /// Removes the resource template `uri_template`; the batch fails when
    /// there is none.
    pub fn remove_resource_template(self, uri_template: impl Into<String>) -> Self {
        self.with(Change::Template(Edit::Remove(uri_template.into())))
    }

    /// Adds every definition (as [`ServerBuilder::register`](crate::server::ServerBuilder::register)
    /// does at build).
    pub fn register(self, definitions: Definitions) -> Self {
        self.with(Change::Register(definitions))
    }
}

/// The next catalogue, being made: each kind is copied from the current
/// one the first time a change touches it.
struct Draft {
    tools: Kind<ToolEntry>,
    prompts: Kind<PromptDef>,
    resources: Kind<ResourceDef>,
    templates: Kind<ResourceTemplateDef>,
    /// Resources replaced, whose subscribers are told.
    updated: Vec<String>,
}

impl From<&Arc<Catalogue>> for Draft {
    fn from(now: &Arc<Catalogue>) -> Self {
        Draft {
            tools: Kind::new(&now.tools, ToolEntry::name, "tool"),
            prompts: Kind::new(&now.prompts, PromptDef::name, "prompt"),
            resources: Kind::new(&now.resources, ResourceDef::uri, "resource"),
            templates: Kind::new(
                &now.templates,
                ResourceTemplateDef::uri_template,
                "resource template",
            ),
            updated: Vec::new(),
        }
    }
}

impl Draft {
    fn apply(&mut self, change: Change, profile: SchemaProfile) -> Result<(), BuildError> {
        match change {
            Change::Tool(edit) => self.tools.edit(edit.compiled()?).map(drop),
            Change::Prompt(edit) => self.prompts.edit(edit).map(drop),
            Change::Template(edit) => self.templates.edit(edit).map(drop),
            Change::Resource(edit) => {
                if let Some(uri) = self.resources.edit(edit)? {
                    self.updated.push(uri);
                }
                Ok(())
            }
            Change::Register(definitions) => {
                for definition in definitions.build(profile) {
                    let change = match definition {
                        Definition::Tool(tool) => Change::Tool(Edit::Add(tool)),
                        Definition::Prompt(prompt) => Change::Prompt(Edit::Add(prompt)),
                        Definition::Resource(resource) => Change::Resource(Edit::Add(resource)),
                        Definition::ResourceTemplate(template) => {
                            Change::Template(Edit::Add(template))
                        }
                    };
                    self.apply(change, profile)?;
                }
                Ok(())
            }
        }
    }

    /// The next catalogue and its announcements; `None` when nothing
    /// changed.
    fn finish(self) -> Result<Option<(Catalogue, Vec<ListChange>)>, BuildError> {
        let mut announcements = Vec::new();
        if self.tools.touched() {
            announcements.push(ListChange::Tools);
        }
        if self.prompts.touched() {
            announcements.push(ListChange::Prompts);
        }
        if self.resources.touched() || self.templates.touched() {
            announcements.push(ListChange::Resources);
        }
        if announcements.is_empty() {
            return Ok(None);
        }
        announcements.extend(self.updated.into_iter().map(ListChange::ResourceUpdated));
        let next = Catalogue {
            tools: self.tools.finish(catalogue::tools)?,
            prompts: self.prompts.finish(catalogue::prompts)?,
            resources: self.resources.finish(catalogue::resources)?,
            templates: self.templates.finish(catalogue::templates)?,
        };
        Ok(Some((next, announcements)))
    }
}

/// How the catalogue lists one kind (see [`catalogue::tools`]).
type MakeListing<T> = fn(Vec<Arc<T>>) -> Result<Listing<T>, BuildError>;

/// One kind of entry in a [`Draft`].
struct Kind<T> {
    now: Arc<Listing<T>>,
    key: fn(&T) -> &str,
    name: &'static str,
    /// The entries sorted by key, once a change touched this kind. A
    /// sorted `Vec` rather than a map: registries are small, and a map per
    /// kind of entry was a twentieth of the runtime's compiled code.
    next: Option<Vec<Arc<T>>>,
}

impl<T: Restricted> Kind<T> {
    fn new(now: &Arc<Listing<T>>, key: fn(&T) -> &str, name: &'static str) -> Self {
        Kind {
            now: now.clone(),
            key,
            name,
            next: None,
        }
    }

    fn touched(&self) -> bool {
        self.next.is_some()
    }

    /// Makes one edit; returns the key of an entry it replaced.
    fn edit(&mut self, edit: Edit<T>) -> Result<Option<String>, BuildError> {
        let (now, key_of) = (&self.now, self.key);
        // A listing is sorted by this same key.
        let next = self
            .next
            .get_or_insert_with(|| now.iter().cloned().collect());
        let find = |next: &[Arc<T>], key: &str| next.binary_search_by(|e| key_of(e).cmp(key));
        let kind = self.name;
        match edit {
            Edit::Add(entry) => match find(next, key_of(&entry)) {
                Ok(_) => Err(BuildError::new(format!(
                    "two {kind}s are named `{}`",
                    key_of(&entry)
                ))),
                Err(at) => {
                    next.insert(at, Arc::new(entry));
                    Ok(None)
                }
            },
            Edit::Replace(entry) => match find(next, key_of(&entry)) {
                Ok(at) => {
                    let key = key_of(&entry).to_owned();
                    next[at] = Arc::new(entry);
                    Ok(Some(key))
                }
                Err(at) => {
                    next.insert(at, Arc::new(entry));
                    Ok(None)
                }
            },
            Edit::Remove(key) => match find(next, &key) {
                Ok(at) => {
                    next.remove(at);
                    Ok(None)
                }
                Err(_) => Err(BuildError::new(format!("there is no {kind} `{key}`"))),
            },
        }
    }

    /// The listing for the next catalogue: the current one when untouched.
    fn finish(self, build: MakeListing<T>) -> Result<Arc<Listing<T>>, BuildError> {
        match self.next {
            None => Ok(self.now),
            Some(next) => build(next).map(Arc::new),
        }
    }
}
