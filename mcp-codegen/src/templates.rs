//! Resource templates -> one method each: the template's variables as
//! `&str` parameters (query variables, which a URI may leave out, as
//! `Option<&str>`), expanded by the runtime with `mcp-toolkit-uri-template` and
//! read with `resources/read`.

use mcp_toolkit_runtime::protocol::ResourceTemplate;
use mcp_toolkit_uri_template::UriTemplate;
use syn::ImplItem;

use crate::client::{described, method_item};
use crate::emit::Emitter;
use crate::error::Error;
use crate::naming::{Scope, snake_ident};
use crate::syntax::{ident, str_lit};

/// One variable of a template: the parameter that sets it.
pub struct Variable {
    /// The variable's name in the template.
    pub name: String,
    /// The parameter's identifier.
    pub param: String,
    /// Whether a URI may leave it out (a query variable).
    pub optional: bool,
}

/// What the client needs to know about one resource template.
pub struct TemplateTypes<'t> {
    /// The template.
    pub template: &'t ResourceTemplate,
    /// The client method's identifier.
    pub method: String,
    /// Its variables, each once, in order of appearance.
    pub variables: Vec<Variable>,
}

/// The template's variables, or why it gets no method: its URI template
/// does not parse (RFC 6570, within `mcp-toolkit-uri-template`'s bounds).
pub fn variables(template: &ResourceTemplate) -> Result<Vec<Variable>, String> {
    let parsed = UriTemplate::parse(&template.uri_template)
        .map_err(|e| format!("its URI template does not parse: {e}"))?;
    let mut params = Scope::default();
    let mut seen = std::collections::BTreeSet::new();
    Ok(parsed
        .variables()
        .filter(|name| seen.insert(*name))
        .map(|name| Variable {
            name: name.to_owned(),
            param: params.claim(&snake_ident(name, "variable"), "_"),
            optional: parsed.is_optional(name),
        })
        .collect())
}

/// The template's method:
///
/// ```text
/// vis fn METHOD(&self, VAR: &str, ...) -> Request<'_, ReadResourceResult> {
///     codegen::read_template(&self.client, URI_TEMPLATE, &[(NAME, Some(VAR)), ...])
/// }
/// ```
pub fn method(emitter: &Emitter, t: &TemplateTypes) -> Result<ImplItem, Error> {
    let rt = &emitter.rt;
    let method = ident(&t.method);
    let uri_template = str_lit(&t.template.uri_template);
    let params = t.variables.iter().map(|v| {
        let param = ident(&v.param);
        match v.optional {
            true => quote::quote!(#param: ::std::option::Option<&str>),
            false => quote::quote!(#param: &str),
        }
    });
    let pairs = t.variables.iter().map(|v| {
        let name = str_lit(&v.name);
        let param = ident(&v.param);
        match v.optional {
            true => quote::quote!((#name, #param)),
            false => quote::quote!((#name, ::std::option::Option::Some(#param))),
        }
    });
    let docs = described(
        t.template.title.as_ref(),
        t.template.description.as_ref(),
        format!(
            "Reads the resource template `{}` named `{}`.",
            t.template.uri_template, t.template.name
        ),
    );
    method_item(
        emitter,
        docs,
        quote::quote! {
            fn #method(&self, #(#params),*) -> #rt::codegen::Request<'_, #rt::protocol::ReadResourceResult> {
                #rt::codegen::read_template(&self.client, #uri_template, &[#(#pairs),*])
            }
        },
    )
}
