//! `#[mcp_resource("scheme://path/{var}")]`: a resource (fixed URI) or
//! resource template read from its function, checked against the URI
//! template, and the expression that builds its definition.

use mcp_uri_template::UriTemplate;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::LitStr;
use syn::meta::ParseNestedMeta;
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;

use crate::docs::{describe, doc_lines};
use crate::errors::Errors;
use crate::options::{Labels, lit, unknown};
use crate::signature::{FnSignature, state_capture};
use crate::text_params::{self, Rungs, labels};

const OPTIONS: &[&str] = &[
    "uri",
    "name",
    "title",
    "description",
    "mime_type",
    "complete",
];

/// What `#[mcp_resource(...)]` says.
#[derive(Default)]
struct ResourceOptions {
    uri: Option<LitStr>,
    labels: Labels,
    mime_type: Option<LitStr>,
    complete: Option<syn::Path>,
}

impl ResourceOptions {
    /// Parses `"uri", option = ...` (or `uri = "..."`), recording mistakes.
    fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut options = ResourceOptions::default();
        let parser = |input: ParseStream| {
            if input.peek(LitStr) {
                options.uri = Some(input.parse()?);
                if !input.is_empty() {
                    input.parse::<syn::Token![,]>()?;
                }
            }
            let rest: TokenStream = input.parse()?;
            syn::meta::parser(|meta| options.option(meta)).parse2(rest)
        };
        if let Err(error) = parser.parse2(args) {
            errors.push(error);
        }
        options
    }

    fn option(&mut self, meta: ParseNestedMeta) -> syn::Result<()> {
        if self.labels.option(&meta)? {
            return Ok(());
        }
        if meta.path.is_ident("uri") {
            self.uri = Some(meta.value()?.parse()?);
        } else if meta.path.is_ident("mime_type") {
            self.mime_type = Some(meta.value()?.parse()?);
        } else if meta.path.is_ident("complete") {
            self.complete = Some(meta.value()?.parse()?);
        } else {
            return Err(unknown(&meta, "#[mcp_resource]", OPTIONS));
        }
        Ok(())
    }
}

/// A resource read from its function.
pub struct Resource {
    /// The URI or URI template.
    pub uri: LitStr,
    /// The parsed template, when the URI is valid.
    template: Option<UriTemplate>,
    name: LitStr,
    options: ResourceOptions,
    description: Option<String>,
    /// The function's signature.
    pub signature: FnSignature,
}

impl Resource {
    /// Reads the attribute's `args` and the function, checking the URI
    /// template against the parameters.
    pub fn read(
        args: TokenStream,
        attrs: &[syn::Attribute],
        sig: &mut syn::Signature,
        errors: &mut Errors,
    ) -> Self {
        let options = ResourceOptions::parse(args, errors);
        let described = describe(&doc_lines(attrs));
        let signature = FnSignature::read(sig, &described.arguments, "resource", errors);
        let uri = options.uri.clone().unwrap_or_else(|| {
            errors.at(
                &sig.ident,
                "#[mcp_resource] needs the resource's URI: `#[mcp_resource(\"docs://readme\")]`, or a URI template such as `#[mcp_resource(\"notes://{title}\")]`",
            );
            LitStr::new("", Span::call_site())
        });
        let template = (!uri.value().is_empty())
            .then(|| parse_uri(&uri, errors))
            .flatten();
        if let Some(template) = &template {
            check_variables(template, &uri, &signature, errors);
            if let (Some(complete), None) = (&options.complete, template.variables().next()) {
                errors.at(
                    complete,
                    "`complete` applies to resource templates only: this URI has no `{variable}` to complete; remove it",
                );
            }
        }
        for param in &signature.params {
            if let Some(header) = &param.header {
                errors.at(
                    header,
                    "`header` applies to tool parameters only: remove it from this resource parameter",
                );
            }
        }
        let name = options
            .labels
            .name
            .clone()
            .unwrap_or_else(|| lit(&sig.ident.to_string(), sig.ident.span()));
        let description = options
            .labels
            .description
            .as_ref()
            .map(LitStr::value)
            .or(described.description);
        Resource {
            uri,
            template,
            name,
            options,
            description,
            signature,
        }
    }

    /// An expression of type `Definition`; `state` is the receiver
    /// argument for methods (the server value is then in `__mcp_server`).
    pub fn build(&self, call: &TokenStream, state: Option<TokenStream>) -> TokenStream {
        let private = quote!(::mcp_runtime::__private);
        let sig = &self.signature;
        let template = self.template.as_ref();
        let mut specs = Vec::new();
        let mut extracts = Vec::new();
        let context = quote!(__mcp_read.context);
        let values = quote!(__mcp_read.variables);
        for (i, param) in sig.params.iter().enumerate() {
            let name = param.name.value();
            let rungs = match template {
                Some(t) if t.is_optional(&name) => Rungs::Query,
                Some(t) if t.variables().any(|v| v == name) => Rungs::Variable,
                _ => Rungs::Unbound,
            };
            specs.push(text_params::spec(i, param, rungs));
            extracts.push(text_params::extract(i, param, &context, &values));
        }
        let args = text_params::args(sig.params.len());
        let output = &sig.output;
        let read_spec = quote_spanned! {output.span()=>
            let __mcp_return = #private::read_spec::<#output>();
        };
        let mime = match &self.options.mime_type {
            Some(mime) => quote!(::core::option::Option::Some(#mime)),
            None => quote!(__mcp_return.mime_type()),
        };
        let await_ = sig.is_async.then_some(quote!(.await));
        let (clone_state, state_arg) = state_capture(state);
        let uri = &self.uri;
        let name = &self.name;
        let handler = quote! {
            move |__mcp_read: #private::ResourceRead| {
                #clone_state
                async move {
                    #(#extracts)*
                    __mcp_return.convert(#call(#state_arg #(#args),*)#await_, &__mcp_read.uri, __mcp_mime)
                }
            }
        };
        let is_template = template.is_some_and(|t| t.variables().next().is_some());
        let (make, variant) = if is_template {
            (
                quote! {
                    match #private::ResourceTemplateDef::new(#uri, #name, #handler) {
                        ::core::result::Result::Ok(def) => def,
                        ::core::result::Result::Err(error) => ::core::unreachable!("checked by #[mcp_resource]: {}", error),
                    }
                },
                quote!(ResourceTemplate),
            )
        } else {
            (
                quote!(#private::ResourceDef::new(#uri, #name, #handler)),
                quote!(Resource),
            )
        };
        let complete = is_template
            .then(|| crate::prompt::completion(self.options.complete.as_ref()))
            .flatten();
        let setters = labels(
            self.description.as_deref(),
            self.options.labels.title.as_ref(),
        );
        quote! {{
            #(#specs)*
            #read_spec
            let __mcp_mime: ::core::option::Option<&'static str> = #mime;
            let mut __mcp_def = #make;
            if let ::core::option::Option::Some(mime) = __mcp_mime {
                __mcp_def = __mcp_def.mime_type(mime);
            }
            #setters
            #complete
            #private::Definition::#variant(__mcp_def)
        }}
    }
}

/// Parses the URI as an RFC 6570 template with a scheme.
fn parse_uri(uri: &LitStr, errors: &mut Errors) -> Option<UriTemplate> {
    let text = uri.value();
    let template = match UriTemplate::parse(&text) {
        Ok(template) => template,
        Err(error) => {
            errors.at(
                uri,
                format!("invalid URI template: {error}; write variables as `{{name}}` (path) or `{{?name}}` (query), e.g. `\"notes://{{title}}\"`"),
            );
            return None;
        }
    };
    if !has_scheme(&text) {
        errors.at(
            uri,
            format!("`{text}` has no URI scheme: start it with one, e.g. `\"file:///{text}\"` or `\"myapp://{text}\"`"),
        );
        return None;
    }
    Some(template)
}

/// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`, before any
/// template expression.
fn has_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// Every template variable needs a parameter of the same name.
fn check_variables(template: &UriTemplate, uri: &LitStr, sig: &FnSignature, errors: &mut Errors) {
    let mut reported = Vec::new();
    for variable in template.variables() {
        if reported.contains(&variable) || sig.params.iter().any(|p| p.name.value() == variable) {
            continue;
        }
        reported.push(variable);
        let example = if template.is_optional(variable) {
            format!("`{variable}: Option<String>`")
        } else {
            format!("`{variable}: String`")
        };
        errors.at(
            uri,
            format!("the URI template variable `{variable}` has no parameter: add {example} to the function, or rename a parameter with `#[mcp(rename = \"{variable}\")]`"),
        );
    }
}
