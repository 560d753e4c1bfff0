//! Registration of macro-built tools, resources and prompts: each
//! annotated item implements [`Registrable`]; [`definitions!`](crate::definitions)
//! collects several (rejecting duplicate names at compile time) and
//! [`ServerBuilder::register`] adds them to a server.

use super::tool_schema::SchemaProfile;
use crate::protocol::{Icon, Meta};
use crate::server::{PromptDef, ResourceDef, ResourceTemplateDef, ServerBuilder, ToolDef};

/// One tool, resource, resource template or prompt.
pub enum Definition {
    /// A tool.
    Tool(ToolDef),
    /// A resource at a fixed URI.
    Resource(ResourceDef),
    /// A resource template.
    ResourceTemplate(ResourceTemplateDef),
    /// A prompt.
    Prompt(PromptDef),
}

/// Builds a definition for the server's [`SchemaProfile`].
type Deferred = Box<dyn FnOnce(SchemaProfile) -> Definition + Send>;

/// Tools, resources, resource templates and prompts for a server. Macro-built
/// items are built (schemas generated) when the server registers them, with
/// the profile set by [`ServerBuilder::schema_profile`].
#[derive(Default)]
pub struct Definitions {
    items: Vec<Deferred>,
}

impl Definitions {
    /// No definitions yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a definition built when registered, for the server's profile.
    pub fn add(&mut self, build: impl FnOnce(SchemaProfile) -> Definition + Send + 'static) {
        self.items.push(Box::new(build));
    }

    /// Adds a tool.
    pub fn tool(&mut self, tool: ToolDef) {
        self.add(move |_| Definition::Tool(tool));
    }

    /// Adds a resource at a fixed URI.
    pub fn resource(&mut self, resource: ResourceDef) {
        self.add(move |_| Definition::Resource(resource));
    }

    /// Adds a resource template.
    pub fn resource_template(&mut self, template: ResourceTemplateDef) {
        self.add(move |_| Definition::ResourceTemplate(template));
    }

    /// Adds a prompt.
    pub fn prompt(&mut self, prompt: PromptDef) {
        self.add(move |_| Definition::Prompt(prompt));
    }

    /// Adds everything from `other`.
    pub fn extend(&mut self, other: Definitions) {
        self.items.extend(other.items);
    }

    /// How many definitions there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Builds every definition for `profile`, in registration order (what
    /// [`ServerBuilder::register`] does; useful to inspect schemas in tests).
    pub fn build(self, profile: SchemaProfile) -> Vec<Definition> {
        self.items.into_iter().map(|build| build(profile)).collect()
    }
}

/// What kind of name a [`Registrable`] item claims; names must be unique
/// within a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A tool name.
    Tool,
    /// A resource URI or URI template.
    Resource,
    /// A prompt name.
    Prompt,
}

/// An item annotated with `#[mcp_tool]`, `#[mcp_resource]` or
/// `#[mcp_prompt]` (the macro implements it on a type named like the
/// function).
pub trait Registrable {
    /// The kind of the item.
    const KIND: Kind;
    /// Its name (tools, prompts) or URI (resources).
    const NAME: &'static str;
    /// Adds the item to `definitions` (built, schemas included, when a
    /// server registers it).
    fn register(definitions: &mut Definitions);
}

impl ServerBuilder {
    /// Adds every definition, building macro-built ones for the current
    /// [`schema_profile`](Self::schema_profile); names are checked by
    /// [`build`](Self::build).
    ///
    /// ```no_run
    /// use mcp_toolkit_runtime::mcp_tool;
    /// use mcp_toolkit_runtime::server::Server;
    ///
    /// /// Echo the text back.
    /// #[mcp_tool]
    /// fn echo(text: String) -> String {
    ///     text
    /// }
    ///
    /// let server = Server::builder(mcp_toolkit_runtime::server_info!())
    ///     .register(mcp_toolkit_runtime::definitions![echo])
    ///     .build();
    /// ```
    pub fn register(mut self, definitions: Definitions) -> Self {
        for definition in definitions.build(self.schema_profile) {
            self = match definition {
                Definition::Tool(tool) => self.tool(tool),
                Definition::Resource(resource) => self.resource(resource),
                Definition::ResourceTemplate(template) => self.resource_template(template),
                Definition::Prompt(prompt) => self.prompt(prompt),
            };
        }
        self
    }

    /// Shapes the schemas of macro-built tools registered after this call
    /// (with [`register`](Self::register)).
    ///
    /// The default is [`SchemaProfile::Standard`]: plain JSON Schema
    /// 2020-12, which the spec names as the dialect of tool schemas, with
    /// shared types in `$defs` behind `$ref` and optional parameters typed
    /// `[T, "null"]` — exactly what the functions accept, and what
    /// validating clients and the 2026-07-28 era expect. Choose
    /// [`SchemaProfile::Compatible`] for clients known to reject `$ref` or
    /// type arrays: definitions are inlined and optional parameters are
    /// simply left out of `required`.
    ///
    /// ```no_run
    /// use mcp_toolkit_runtime::mcp_tool;
    /// use mcp_toolkit_runtime::server::{SchemaProfile, Server};
    ///
    /// /// Echo the text back.
    /// #[mcp_tool]
    /// fn echo(text: Option<String>) -> String {
    ///     text.unwrap_or_default()
    /// }
    ///
    /// let server = Server::builder(mcp_toolkit_runtime::server_info!())
    ///     .schema_profile(SchemaProfile::Compatible)
    ///     .register(mcp_toolkit_runtime::definitions![echo])
    ///     .build();
    /// ```
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.schema_profile = profile;
        self
    }
}

impl ToolDef {
    /// Sets the icons clients may show for the tool.
    pub fn icons(mut self, icons: Vec<Icon>) -> Self {
        self.tool.icons = Some(icons);
        self
    }

    /// Sets the tool's `_meta`.
    pub fn meta(mut self, meta: Meta) -> Self {
        self.tool.meta = Some(meta);
        self
    }
}

impl ResourceTemplateDef {
    /// Sets the human-readable title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.template.title = Some(title.into());
        self
    }
}

impl PromptDef {
    /// Sets the human-readable title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.prompt.title = Some(title.into());
        self
    }
}

/// Collects items annotated with `#[mcp_tool]`, `#[mcp_resource]` or
/// `#[mcp_prompt]` into [`Definitions`], checking at compile time that no
/// two tools (or prompts, or resources) share a name (or URI).
///
/// ```ignore
/// Server::builder(server_info!()).register(definitions![echo, add, readme]);
/// ```
#[macro_export]
macro_rules! definitions {
    ($($item:path),* $(,)?) => {{
        const _: () = $crate::__private::assert_unique_names(&[$(
            (<$item as $crate::server::Registrable>::KIND, <$item as $crate::server::Registrable>::NAME)
        ),*]);
        let mut definitions = $crate::server::Definitions::new();
        $(<$item as $crate::server::Registrable>::register(&mut definitions);)*
        definitions
    }};
}

/// Panics at compile time (in a `const`) when two items of one kind share
/// a name.
pub const fn assert_unique_names(items: &[(Kind, &str)]) {
    let mut i = 0;
    while i < items.len() {
        let mut j = i + 1;
        while j < items.len() {
            if items[i].0 as u8 == items[j].0 as u8 && same_str(items[i].1, items[j].1) {
                panic!(
                    "two items given to `definitions!` have the same name (or URI): rename one with `#[mcp_tool(name = \"...\")]` / `#[mcp_prompt(name = \"...\")]`, change a resource's URI, or remove the duplicate"
                );
            }
            j += 1;
        }
        i += 1;
    }
}

const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
