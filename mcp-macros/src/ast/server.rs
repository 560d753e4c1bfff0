//! The parse stage for `#[mcp_server]`: the impl block and the tools,
//! resources and prompts among its methods. Whether the block may carry
//! them (an inherent impl, not generic, no options, unique names) is
//! `validate`'s job. Methods are read one at a time, so that the pipeline
//! validates each before reading the next and errors come in source order.

use proc_macro2::TokenStream;
use quote::format_ident;
use syn::{ImplItemFn, ItemImpl};

use super::{Item, Kind};
use crate::errors::Errors;

/// What `#[mcp_server]` leaves as the arguments of the item attributes it
/// has read, so that they expand to the method as written.
const IN_SERVER: &str = "__mcp_read_by_mcp_server";

/// Whether an item attribute's `args` are [`IN_SERVER`]'s mark.
pub fn read_by_server(args: &TokenStream) -> bool {
    args.to_string() == IN_SERVER
}

/// Parses `#[mcp_server]`'s input; an error when it is not an impl block.
pub fn parse_impl_block(input: TokenStream) -> syn::Result<ItemImpl> {
    syn::parse2(input)
        .map_err(|error| syn::Error::new(error.span(), "#[mcp_server] applies to an impl block"))
}

/// The item a method's `#[mcp_tool]`, `#[mcp_resource]` or `#[mcp_prompt]`
/// makes of it, if any, marking that attribute as read so that the method
/// is then emitted as written (minus macro-only parameter attributes).
pub fn read_method(method: &mut ImplItemFn, errors: &mut Errors) -> Option<Item> {
    let (position, kind) = method
        .attrs
        .iter()
        .enumerate()
        .find_map(|(i, attr)| item_kind(attr).map(|kind| (i, kind)))?;
    // The attribute stays, marked, so that it expands to the plain method
    // (and its import counts as used).
    let attr = method.attrs[position].clone();
    let path = attr.path();
    let marker = format_ident!("{}", IN_SERVER);
    method.attrs[position] = syn::parse_quote!(#[#path(#marker)]);
    let args = match &attr.meta {
        syn::Meta::Path(_) => TokenStream::new(),
        syn::Meta::List(list) => list.tokens.clone(),
        syn::Meta::NameValue(nv) => {
            errors.at(
                nv,
                format!("write `#[{0}]` or `#[{0}(option, ...)]`", kind.attribute()),
            );
            return None;
        }
    };
    Some(Item::read(
        kind,
        args,
        &method.attrs,
        &mut method.sig,
        errors,
    ))
}

/// The kind of an item attribute (`#[mcp_tool]`, `#[mcp_toolkit_runtime::mcp_prompt]`, ...).
fn item_kind(attr: &syn::Attribute) -> Option<Kind> {
    let last = attr.path().segments.last()?;
    Kind::ALL
        .into_iter()
        .find(|kind| last.ident == kind.attribute())
}
