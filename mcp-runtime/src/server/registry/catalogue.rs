//! The catalogue: the tools, resources, templates and prompts a server
//! serves at one moment. A catalogue never changes once made; a live
//! registry ([`LiveRegistry`](crate::server::LiveRegistry)) makes the next
//! one and swaps it in. Every request reads the snapshot current when it
//! looks, and keeps what it found (an `Arc`) for as long as it runs, so a
//! call that started keeps the definition it started with and no lock is
//! held across a handler.

use std::sync::{Arc, PoisonError, RwLock};

use super::audience::{Audience, Restricted};
use super::listing::Listing;
use crate::protocol::headers::read_param_headers;
#[cfg(feature = "http")]
use crate::protocol::param_headers::ParamHeaders;
use crate::schema::CompiledSchema;
use crate::server::auth::Principal;
use crate::server::{
    BuildError, PromptDef, ResourceDef, ResourceTemplateDef, ToolDef, is_valid_tool_name,
};

/// A tool with its schemas compiled once, when it is added.
pub(crate) struct ToolEntry {
    pub(crate) def: ToolDef,
    pub(crate) input: CompiledSchema,
    pub(crate) output: Option<CompiledSchema>,
    /// What the HTTP transport checks against `Mcp-Param-*` headers.
    #[cfg(feature = "http")]
    pub(crate) param_headers: ParamHeaders,
}

impl ToolEntry {
    /// Checks the tool's name, schemas, scopes and `Mcp-Param-*`
    /// annotations, and compiles its schemas: the rules for every tool,
    /// added at build or later.
    pub(crate) fn compile(def: ToolDef) -> Result<Self, BuildError> {
        let name = &def.tool.name;
        if !is_valid_tool_name(name) {
            return Err(BuildError::new(format!(
                "tool name `{name}` is invalid: use 1 to 128 characters from A-Z, a-z, 0-9, `_`, `-` and `.`"
            )));
        }
        if def.tool.input_schema.get("type").and_then(|t| t.as_str()) != Some("object") {
            return Err(BuildError::new(format!(
                "tool `{name}`: the input schema must have \"type\": \"object\""
            )));
        }
        let input = CompiledSchema::compile(&def.tool.input_schema)
            .map_err(|e| BuildError::new(format!("tool `{name}`: invalid input schema: {e}")))?;
        let output = def
            .tool
            .output_schema
            .as_ref()
            .map(CompiledSchema::compile)
            .transpose()
            .map_err(|e| BuildError::new(format!("tool `{name}`: invalid output schema: {e}")))?;
        if let Some(scope) = def
            .scopes
            .iter()
            .find(|s| !mcp_toolkit_names::is_scope_token(s))
        {
            return Err(BuildError::new(format!(
                "tool `{name}`: {scope:?} is not an OAuth scope token"
            )));
        }
        let annotations = read_param_headers(&def.tool.input_schema)
            .map_err(|why| BuildError::new(format!("tool `{name}`: {why}")))?;
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

    /// The tool's name, its key in the catalogue.
    pub(crate) fn name(&self) -> &str {
        &self.def.tool.name
    }
}

impl Restricted for ToolEntry {
    fn audience(&self) -> Option<&Audience> {
        self.def.audience()
    }
}

/// What a server serves at one moment. Each collection is shared with the
/// catalogues before and after it that left it unchanged.
pub(crate) struct Catalogue {
    pub(crate) tools: Arc<Listing<ToolEntry>>,
    pub(crate) resources: Arc<Listing<ResourceDef>>,
    pub(crate) templates: Arc<Listing<ResourceTemplateDef>>,
    pub(crate) prompts: Arc<Listing<PromptDef>>,
}

impl Catalogue {
    /// Whether the resource at `uri` is served, but not to `caller` (a
    /// fixed resource hidden from it, or only templates hidden from it
    /// match): such a resource must seem not to exist.
    pub(crate) fn hides(&self, uri: &str, caller: Option<&Principal>) -> bool {
        if let Some(resource) = self.resources.get(uri) {
            return !resource.shown_to(caller);
        }
        let mut matching = self
            .templates
            .iter()
            .filter(|t| t.matcher.matches(uri).is_some())
            .peekable();
        matching.peek().is_some() && matching.all(|t| !t.shown_to(caller))
    }
}

/// Each kind's listing is built by one function, so that the build and
/// every later change key, sort and serialize it the same way.
pub(crate) fn tools(entries: Vec<Arc<ToolEntry>>) -> Result<Listing<ToolEntry>, BuildError> {
    Listing::from_shared(entries, ToolEntry::name, |t| &t.def.tool, "tool").map_err(BuildError::new)
}

pub(crate) fn resources(
    entries: Vec<Arc<ResourceDef>>,
) -> Result<Listing<ResourceDef>, BuildError> {
    Listing::from_shared(entries, ResourceDef::uri, |r| &r.resource, "resource")
        .map_err(BuildError::new)
}

pub(crate) fn templates(
    entries: Vec<Arc<ResourceTemplateDef>>,
) -> Result<Listing<ResourceTemplateDef>, BuildError> {
    Listing::from_shared(
        entries,
        ResourceTemplateDef::uri_template,
        |t| &t.template,
        "resource template",
    )
    .map_err(BuildError::new)
}

pub(crate) fn prompts(entries: Vec<Arc<PromptDef>>) -> Result<Listing<PromptDef>, BuildError> {
    Listing::from_shared(entries, PromptDef::name, |p| &p.prompt, "prompt").map_err(BuildError::new)
}

/// The current catalogue: read by every request, replaced by a change.
pub(crate) struct Current(RwLock<Arc<Catalogue>>);

impl Current {
    pub(crate) fn new(catalogue: Catalogue) -> Self {
        Current(RwLock::new(Arc::new(catalogue)))
    }

    /// The catalogue as it is now; the lock is held only to clone the `Arc`.
    pub(crate) fn load(&self) -> Arc<Catalogue> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Makes `next` the catalogue later requests see.
    pub(crate) fn store(&self, next: Catalogue) {
        let previous = std::mem::replace(
            &mut *self.0.write().unwrap_or_else(PoisonError::into_inner),
            Arc::new(next),
        );
        // Dropped outside the lock: the last reference may free thousands
        // of definitions.
        drop(previous);
    }
}
