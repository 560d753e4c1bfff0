//! Static resources -> a lookup: one enum of the resources the server
//! listed (a variant each, named after the resource, documented with its
//! URI) with `ALL` and `uri()`, and one client method reading any of them.
//! The enum is a snapshot of the list when the client was generated; any
//! other URI can still be read through `inner().read_resource(uri)`.

use mcp_toolkit_runtime::protocol::Resource;
use proc_macro2::TokenStream;
use syn::{ImplItem, Item};

use crate::client::{described, method_item};
use crate::docs::doc_attrs;
use crate::emit::Emitter;
use crate::error::Error;
use crate::naming::{Scope, camel_ident};
use crate::syntax::{ident, parse_tokens, str_lit};

/// The lookup of the static resources.
pub struct ResourceTypes<'r> {
    /// The enum's identifier.
    pub name: String,
    /// The client method reading one.
    pub method: String,
    /// Each resource with its variant's identifier, in the server's order,
    /// each URI once.
    pub variants: Vec<(&'r Resource, String)>,
}

/// Plans the lookup of `resources` (at most `max_width` of them; the
/// notes say which were left out): the enum `name`, read by `method`.
pub fn plan<'r>(
    resources: &'r [Resource],
    name: String,
    method: String,
    max_width: usize,
    notes: &mut Vec<String>,
) -> ResourceTypes<'r> {
    let mut idents = Scope::default();
    let mut uris = std::collections::BTreeSet::new();
    let mut variants = Vec::new();
    for resource in resources {
        if !uris.insert(resource.uri.as_str()) {
            continue;
        }
        if variants.len() == max_width {
            notes.push(format!(
                "the static resources beyond the first {max_width} (`Limits::max_width`); \
                 read them with `inner().read_resource(uri)`"
            ));
            break;
        }
        let variant = idents.claim(&camel_ident(&resource.name, "Resource"), "");
        variants.push((resource, variant));
    }
    ResourceTypes {
        name,
        method,
        variants,
    }
}

/// The enum and its `impl` (`ALL`, `uri()`).
pub fn lookup(emitter: &Emitter, r: &ResourceTypes) -> Result<[Item; 2], Error> {
    let vis = &emitter.vis;
    let name = ident(&r.name);
    let variants = r.variants.iter().map(|(resource, variant)| {
        let docs = described(
            resource.title.as_ref().or(Some(&resource.name)),
            resource.description.as_ref(),
            format!("`{}`", resource.uri),
        );
        let variant = ident(variant);
        quote::quote!(#(#docs)* #variant)
    });
    let all = r.variants.iter().map(|(_, v)| ident(v));
    let arms = r.variants.iter().map(|(resource, variant)| {
        let variant = ident(variant);
        let uri = str_lit(&resource.uri);
        quote::quote!(Self::#variant => #uri)
    });
    let docs =
        doc_attrs(&["The resources the server listed when this client was generated.".to_owned()]);
    let uri_body: TokenStream = match r.variants.is_empty() {
        true => quote::quote!(match self {}),
        false => quote::quote!(match self { #(#arms,)* }),
    };
    Ok([
        parse_tokens(quote::quote! {
            #(#docs)*
            #[derive(::std::fmt::Debug, ::std::clone::Clone, ::std::marker::Copy, ::std::cmp::PartialEq, ::std::cmp::Eq, ::std::hash::Hash)]
            #vis enum #name {
                #(#variants,)*
            }
        })?,
        parse_tokens(quote::quote! {
            impl #name {
                #[doc = " Every listed resource, in the server's order."]
                #vis const ALL: &'static [Self] = &[#(Self::#all),*];

                #[doc = " The resource's URI."]
                #vis fn uri(self) -> &'static str {
                    #uri_body
                }
            }
        })?,
    ])
}

/// The client method reading one of the listed resources.
pub fn method(emitter: &Emitter, r: &ResourceTypes) -> Result<ImplItem, Error> {
    let rt = &emitter.rt;
    let method = ident(&r.method);
    let name = ident(&r.name);
    let docs = doc_attrs(&[format!(
        "Reads one of the resources the server listed (`{}`).",
        r.name
    )]);
    method_item(
        emitter,
        docs,
        quote::quote! {
            fn #method(&self, resource: #name) -> #rt::codegen::Request<'_, #rt::protocol::ReadResourceResult> {
                #rt::codegen::read_resource(&self.client, resource.uri())
            }
        },
    )
}
