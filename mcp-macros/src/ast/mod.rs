//! The parse stage for items: a tool, resource or prompt read from its
//! attribute's options, its doc comment and its function signature, and
//! (`server`) an `#[mcp_server]` impl block with the items among its
//! methods. Only what cannot be read at all is an error here; `validate`
//! checks the rest.

mod docs;
mod server;
mod signature;

pub use server::{parse_impl_block, read_by_server, read_method};
pub use signature::{FnSignature, Param, Receiver};

use mcp_toolkit_uri_template::UriTemplate;
use proc_macro2::{Span, TokenStream};
use syn::{ItemFn, LitStr};

use crate::attr::{Labels, PromptOptions, ResourceOptions, ToolOptions};
use crate::errors::Errors;
use docs::{describe, doc_lines};

/// Which attribute made the item.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Tool,
    Resource,
    Prompt,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Tool, Kind::Resource, Kind::Prompt];

    /// The attribute's name: `mcp_tool`, ...
    pub fn attribute(self) -> &'static str {
        match self {
            Kind::Tool => "mcp_tool",
            Kind::Resource => "mcp_resource",
            Kind::Prompt => "mcp_prompt",
        }
    }

    /// The item's name in messages: `tool`, ...
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Resource => "resource",
            Kind::Prompt => "prompt",
        }
    }
}

/// A tool, resource or prompt read from its function.
pub enum Item {
    Tool(Tool),
    Resource(Resource),
    Prompt(Prompt),
}

/// A tool: options, description, signature.
pub struct Tool {
    /// The tool's name: `name = "..."` or the function's.
    pub name: LitStr,
    pub options: ToolOptions,
    pub description: Option<String>,
    pub signature: FnSignature,
}

/// A resource or resource template.
pub struct Resource {
    /// The URI or URI template (empty when missing, which is reported).
    pub uri: LitStr,
    /// The parsed template, when the URI parses.
    pub template: Option<UriTemplate>,
    /// The resource's name: `name = "..."` or the function's.
    pub name: LitStr,
    pub options: ResourceOptions,
    pub description: Option<String>,
    pub signature: FnSignature,
}

/// A prompt.
pub struct Prompt {
    /// The prompt's name: `name = "..."` or the function's.
    pub name: LitStr,
    pub options: PromptOptions,
    pub description: Option<String>,
    pub signature: FnSignature,
}

impl Item {
    /// Reads the attribute's `args` and the function (`attrs` and `sig`,
    /// whose macro-only parameter attributes are removed).
    pub fn read(
        kind: Kind,
        args: TokenStream,
        attrs: &[syn::Attribute],
        sig: &mut syn::Signature,
        errors: &mut Errors,
    ) -> Self {
        let described = describe(&doc_lines(attrs));
        let fn_name = LitStr::new(&sig.ident.to_string(), sig.ident.span());
        match kind {
            Kind::Tool => {
                let options = ToolOptions::parse(args, errors);
                let signature = FnSignature::read(sig, &described.arguments, "tool", errors);
                let (name, description) = labels(&options.labels, fn_name, described.description);
                Item::Tool(Tool {
                    name,
                    description,
                    options,
                    signature,
                })
            }
            Kind::Resource => {
                let options = ResourceOptions::parse(args, errors);
                let signature = FnSignature::read(sig, &described.arguments, "resource", errors);
                let (name, description) = labels(&options.labels, fn_name, described.description);
                let uri = options.uri.get().cloned().unwrap_or_else(|| {
                    errors.at(
                        &sig.ident,
                        "#[mcp_resource] needs the resource's URI: `#[mcp_resource(\"docs://readme\")]`, or a URI template such as `#[mcp_resource(\"notes://{title}\")]`",
                    );
                    LitStr::new("", Span::call_site())
                });
                let template = (!uri.value().is_empty())
                    .then(|| parse_template(&uri, errors))
                    .flatten();
                Item::Resource(Resource {
                    uri,
                    template,
                    name,
                    description,
                    options,
                    signature,
                })
            }
            Kind::Prompt => {
                let options = PromptOptions::parse(args, errors);
                let signature = FnSignature::read(sig, &described.arguments, "prompt", errors);
                let (name, description) = labels(&options.labels, fn_name, described.description);
                Item::Prompt(Prompt {
                    name,
                    description,
                    options,
                    signature,
                })
            }
        }
    }

    /// Which attribute made it.
    pub fn kind(&self) -> Kind {
        match self {
            Item::Tool(_) => Kind::Tool,
            Item::Resource(_) => Kind::Resource,
            Item::Prompt(_) => Kind::Prompt,
        }
    }

    /// The name (tools, prompts) or URI (resources) that must be unique.
    pub fn key(&self) -> &LitStr {
        match self {
            Item::Tool(tool) => &tool.name,
            Item::Resource(resource) => &resource.uri,
            Item::Prompt(prompt) => &prompt.name,
        }
    }

    /// The function's signature.
    pub fn signature(&self) -> &FnSignature {
        match self {
            Item::Tool(tool) => &tool.signature,
            Item::Resource(resource) => &resource.signature,
            Item::Prompt(prompt) => &prompt.signature,
        }
    }
}

/// Parses the input of `#[mcp_tool]`, `#[mcp_resource]` or
/// `#[mcp_prompt]`; an error when it is not a function.
pub fn parse_function(kind: Kind, input: TokenStream) -> syn::Result<ItemFn> {
    syn::parse2(input).map_err(|error| {
        syn::Error::new(
            error.span(),
            format!(
                "#[{}] applies to a function (inside an impl block, also put #[mcp_server] on the impl)",
                kind.attribute()
            ),
        )
    })
}

/// The name (`name = "..."`, else the function's) and the description
/// (`description = "..."` wins over the doc comment).
fn labels(labels: &Labels, fn_name: LitStr, doc: Option<String>) -> (LitStr, Option<String>) {
    let name = labels.name.get().cloned().unwrap_or(fn_name);
    let description = labels.description.get().map(LitStr::value).or(doc);
    (name, description)
}

/// Parses the URI as an RFC 6570 template.
fn parse_template(uri: &LitStr, errors: &mut Errors) -> Option<UriTemplate> {
    UriTemplate::parse(&uri.value())
        .map_err(|error| {
            errors.at(
                uri,
                format!("invalid URI template: {error}; write variables as `{{name}}` (path) or `{{?name}}` (query), e.g. `\"notes://{{title}}\"`"),
            );
        })
        .ok()
}
