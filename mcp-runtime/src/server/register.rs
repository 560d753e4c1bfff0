//! Registration of macro-built tools, resources and prompts: each
//! annotated item implements [`Registrable`]; [`definitions!`](crate::definitions)
//! collects several (rejecting duplicate names at compile time) and
//! [`ServerBuilder::register`] adds them to a server.

use super::tool_schema::SchemaProfile;
use super::{PromptDef, ResourceDef, ResourceTemplateDef, ServerBuilder, ToolDef};
use crate::protocol::{Icon, Meta};

/// Tools, resources, resource templates and prompts, ready for a server.
#[derive(Default)]
pub struct Definitions {
    tools: Vec<ToolDef>,
    resources: Vec<ResourceDef>,
    templates: Vec<ResourceTemplateDef>,
    prompts: Vec<PromptDef>,
}

impl Definitions {
    /// No definitions yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a tool.
    pub fn tool(&mut self, tool: ToolDef) {
        self.tools.push(tool);
    }

    /// Adds a resource at a fixed URI.
    pub fn resource(&mut self, resource: ResourceDef) {
        self.resources.push(resource);
    }

    /// Adds a resource template.
    pub fn resource_template(&mut self, template: ResourceTemplateDef) {
        self.templates.push(template);
    }

    /// Adds a prompt.
    pub fn prompt(&mut self, prompt: PromptDef) {
        self.prompts.push(prompt);
    }

    /// Adds everything from `other`.
    pub fn extend(&mut self, other: Definitions) {
        self.tools.extend(other.tools);
        self.resources.extend(other.resources);
        self.templates.extend(other.templates);
        self.prompts.extend(other.prompts);
    }

    /// The tools, in registration order.
    pub fn tools(&self) -> &[ToolDef] {
        &self.tools
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
    /// Builds the definition (schemas included) and adds it to `definitions`.
    fn register(definitions: &mut Definitions, profile: SchemaProfile);
}

impl ServerBuilder {
    /// Adds every definition; names are checked by [`build`](Self::build).
    ///
    /// ```no_run
    /// use mcp_runtime::mcp_tool;
    /// use mcp_runtime::server::Server;
    ///
    /// /// Echo the text back.
    /// #[mcp_tool]
    /// fn echo(text: String) -> String {
    ///     text
    /// }
    ///
    /// let server = Server::builder(mcp_runtime::server_info!())
    ///     .register(mcp_runtime::definitions![echo])
    ///     .build();
    /// ```
    pub fn register(mut self, definitions: Definitions) -> Self {
        for tool in definitions.tools {
            self = self.tool(tool);
        }
        for resource in definitions.resources {
            self = self.resource(resource);
        }
        for template in definitions.templates {
            self = self.resource_template(template);
        }
        for prompt in definitions.prompts {
            self = self.prompt(prompt);
        }
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

/// Collects annotated items into [`Definitions`], checking at compile time
/// that no two tools (or prompts, or resources) share a name.
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
        $(<$item as $crate::server::Registrable>::register(
            &mut definitions,
            $crate::server::SchemaProfile::Standard,
        );)*
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
                    "two items given to `definitions!` have the same name (or URI): rename one with `#[mcp_tool(name = \"...\")]` / `#[mcp_prompt(name = \"...\")]`, or remove the duplicate"
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
