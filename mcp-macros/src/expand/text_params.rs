//! Code for the parameters of resources and prompts, whose values arrive as
//! strings (URI template variables, prompt arguments). Which rungs of the
//! runtime's ladder are in scope decides what a parameter may be.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::private;
use crate::ast::Param;

/// What a parameter may be.
#[derive(Clone, Copy)]
pub enum Rungs {
    /// Prompt arguments: context, optional or required.
    Argument,
    /// A variable in the path of a URI template: optional or required.
    Variable,
    /// A query variable (`{?name}`), which a URI may leave out: optional.
    Query,
    /// A resource parameter outside the template: context only.
    Unbound,
}

/// `let __mcp_param_{i} = ...;`: the parameter's `TextSpec`, spanned on its
/// type so that an unsupported type is reported there.
pub fn spec(i: usize, param: &Param, rungs: Rungs) -> TokenStream {
    let private = private();
    let ty = &param.ty;
    let spec = format_ident!("__mcp_param_{}", i);
    let traits = match rungs {
        Rungs::Argument => {
            quote!(
                ContextText as _,
                OptionalText as _,
                RequiredText as _,
                UnsupportedText as _
            )
        }
        Rungs::Variable => quote!(OptionalText as _, RequiredText as _, UnsupportedText as _),
        Rungs::Query => quote!(OptionalText as _, RequiredQueryText as _),
        Rungs::Unbound => quote!(ContextText as _, UnboundText as _),
    };
    quote_spanned! {ty.span()=>
        let #spec = {
            #[allow(unused_imports)]
            use #private::{#traits};
            (&&&&#private::Text::<#ty>::new()).spec()
        };
    }
}

/// `let __mcp_arg_{i} = ...;` from `context` and `values` (a
/// `BTreeMap<String, String>`), returning the error response on failure.
pub fn extract(
    i: usize,
    param: &Param,
    context: &TokenStream,
    values: &TokenStream,
) -> TokenStream {
    let spec = format_ident!("__mcp_param_{}", i);
    let arg = format_ident!("__mcp_arg_{}", i);
    let name = &param.name;
    quote! {
        let #arg = match #spec.extract(&#context, &#values, #name) {
            ::core::result::Result::Ok(value) => value,
            ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
        };
    }
}

/// The argument identifiers, in order.
pub fn args(count: usize) -> Vec<syn::Ident> {
    (0..count)
        .map(|i| format_ident!("__mcp_arg_{}", i))
        .collect()
}

/// `Some("text")` or `None`.
pub fn option_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// `__mcp_def = __mcp_def.description(...)` and `.title(...)`, when given.
pub fn labels(description: Option<&str>, title: Option<&syn::LitStr>) -> TokenStream {
    let description = description.map(|d| quote!(__mcp_def = __mcp_def.description(#d);));
    let title = title.map(|t| quote!(__mcp_def = __mcp_def.title(#t);));
    quote!(#description #title)
}
