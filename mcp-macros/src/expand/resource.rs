//! `#[mcp_resource]`: the expression that builds the definition of a
//! resource (fixed URI) or resource template.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::prompt::completion;
use super::text_params::{self, Rungs, labels};
use super::{private, state_capture};
use crate::ast::Resource;

/// An expression of type `Definition`; `state` is the receiver
/// argument for methods (the server value is then in `__mcp_server`).
pub fn build(resource: &Resource, call: &TokenStream, state: Option<TokenStream>) -> TokenStream {
    let private = private();
    let sig = &resource.signature;
    let template = resource.template.as_ref();
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
    let mime = match resource.options.mime_type.get() {
        Some(mime) => quote!(::core::option::Option::Some(#mime)),
        None => quote!(__mcp_return.mime_type()),
    };
    let await_ = sig.is_async.then_some(quote!(.await));
    let (clone_state, state_arg) = state_capture(state);
    let uri = &resource.uri;
    let name = &resource.name;
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
        .then(|| completion(resource.options.complete.get()))
        .flatten();
    let setters = labels(
        resource.description.as_deref(),
        resource.options.labels.title.get(),
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
