//! The expand stage, and the pipeline around it: each entry point parses
//! (`ast`, `attr`), validates (`validate`) and, when nothing is wrong,
//! writes the code (`tool`, `resource`, `prompt`, `text_params`). On error
//! the user's item is still emitted (minus macro-only attributes) next to
//! every error, with a stub registration, so that one mistake does not
//! cascade into "cannot find type" where the item is registered.

mod prompt;
mod resource;
mod text_params;
mod tool;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{ImplItem, ItemFn, ItemImpl};

use crate::ast::{Item, Kind, Receiver};
use crate::errors::Errors;
use crate::validate;

/// The path of the runtime's support module, the only one the generated
/// code refers to.
fn private() -> TokenStream {
    private_at(Span::call_site())
}

/// [`private`] spanned at `span`, for code whose errors belong to one of
/// the user's tokens.
fn private_at(span: Span) -> TokenStream {
    quote_spanned!(span=> ::mcp_runtime::__private)
}

/// For method items: the statement that clones the server value (in
/// `__mcp_server`) into each request, and `state`, the receiver argument.
fn state_capture(state: Option<TokenStream>) -> (Option<TokenStream>, Option<TokenStream>) {
    match state {
        Some(arg) => (
            Some(quote!(let __mcp_state = ::core::clone::Clone::clone(&__mcp_server);)),
            Some(arg),
        ),
        None => (None, None),
    }
}

/// An expression of type `Definition`, given `__mcp_profile` in scope;
/// `state` is the receiver argument for methods.
fn build(item: &Item, call: &TokenStream, state: Option<TokenStream>) -> TokenStream {
    match item {
        Item::Tool(t) => tool::build(t, call, state),
        Item::Resource(r) => resource::build(r, call, state),
        Item::Prompt(p) => prompt::build(p, call, state),
    }
}

/// What `#[mcp_server]` leaves as the arguments of the item attributes it
/// has read: the method is then emitted as it is.
const IN_SERVER: &str = "__mcp_read_by_mcp_server";

/// `#[mcp_tool]`, `#[mcp_resource]` or `#[mcp_prompt]` on a free function
/// (or on a method already read by `#[mcp_server]`).
pub fn free_item(kind: Kind, args: TokenStream, input: TokenStream) -> TokenStream {
    if args.to_string() == IN_SERVER {
        return input;
    }
    let mut item: ItemFn = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(error) => {
            let error = syn::Error::new(
                error.span(),
                format!(
                    "#[{}] applies to a function (inside an impl block, also put #[mcp_server] on the impl)",
                    kind.attribute()
                ),
            );
            let error = error.to_compile_error();
            return quote!(#input #error);
        }
    };
    let mut errors = Errors::default();
    let read = Item::read(kind, args, &item.attrs, &mut item.sig, &mut errors);
    validate::item(&read, &mut errors);
    validate::free_function(&read, &item.sig.inputs, &mut errors);
    let errors = errors.into_compile_errors();
    if !errors.is_empty() && !matches!(read.signature().receiver, Receiver::None) {
        // A method outside `#[mcp_server]`: a registration struct cannot
        // be declared inside the impl block, so the item alone is emitted.
        return quote!(#item #errors);
    }
    let private = private();
    let ident = &item.sig.ident;
    let register = if errors.is_empty() {
        let build = build(&read, &quote!(#ident), None);
        quote!(definitions.add(|__mcp_profile: #private::SchemaProfile| #build);)
    } else {
        quote!(let _ = definitions;)
    };
    let vis = &item.vis;
    let key = read.key();
    let variant = format_ident!("{}", variant(kind));
    let doc = format!(
        "Registers the MCP {} [`{ident}`](fn@{ident}): `definitions![{ident}]`.",
        kind.noun()
    );
    quote! {
        #item
        #errors

        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}

        impl #private::Registrable for #ident {
            const KIND: #private::Kind = #private::Kind::#variant;
            const NAME: &'static str = #key;
            fn register(definitions: &mut #private::Definitions) {
                #register
            }
        }
    }
}

/// The `Kind` and `Definition` variant of an item kind.
fn variant(kind: Kind) -> &'static str {
    match kind {
        Kind::Tool => "Tool",
        Kind::Resource => "Resource",
        Kind::Prompt => "Prompt",
    }
}

/// `#[mcp_server]` on an impl block.
pub fn server_impl(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut item: ItemImpl = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(error) => {
            let error = syn::Error::new(error.span(), "#[mcp_server] applies to an impl block");
            let error = error.to_compile_error();
            return quote!(#input #error);
        }
    };
    let mut errors = Errors::default();
    if !args.is_empty() {
        errors.at(
            &args,
            "#[mcp_server] takes no options; put them on each #[mcp_tool], #[mcp_resource] or #[mcp_prompt]",
        );
    }
    if let Some((path, _)) = &item.trait_ {
        errors.at(path, "#[mcp_server] applies to an inherent impl block (`impl MyServer { ... }`), not a trait impl");
    }
    if !item.generics.params.is_empty() {
        errors.at(
            &item.generics,
            "#[mcp_server] cannot be generic: tools are registered for one concrete server type",
        );
    }
    let mut reads = Vec::new();
    let mut keys = validate::UniqueKeys::default();
    for member in &mut item.items {
        let ImplItem::Fn(method) = member else {
            continue;
        };
        let Some((position, kind)) = method
            .attrs
            .iter()
            .enumerate()
            .find_map(|(i, attr)| item_kind(attr).map(|kind| (i, kind)))
        else {
            continue;
        };
        // The attribute stays, marked, so that it expands to the plain
        // method (and its import counts as used).
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
                continue;
            }
        };
        let read = Item::read(kind, args, &method.attrs, &mut method.sig, &mut errors);
        validate::item(&read, &mut errors);
        keys.check(&read, &mut errors);
        reads.push(read);
    }
    let errors = errors.into_compile_errors();
    let private = private();
    let body = if errors.is_empty() {
        let builds = reads.iter().map(method_build);
        quote! {
            let mut definitions = #private::Definitions::new();
            #(
                {
                    let __mcp_server = #private::core::clone::Clone::clone(self);
                    definitions.add(move |__mcp_profile: #private::SchemaProfile| #builds);
                }
            )*
            definitions
        }
    } else {
        quote!(#private::Definitions::new())
    };
    let self_ty = &item.self_ty;
    quote! {
        #item
        #errors

        impl #self_ty {
            /// The MCP tools, resources and prompts defined in this impl
            /// block, sharing `self` as state.
            pub fn mcp_definitions(self: &#private::std::sync::Arc<Self>) -> #private::Definitions {
                #body
            }
        }
    }
}

/// The `Definition` expression of a method item read by `#[mcp_server]`.
fn method_build(read: &Item) -> TokenStream {
    let ident = &read.signature().ident;
    let state =
        matches!(read.signature().receiver, Receiver::SharedRef).then_some(quote!(&*__mcp_state,));
    build(read, &quote!(Self::#ident), state)
}

/// The kind of an item attribute (`#[mcp_tool]`, `#[mcp_runtime::mcp_prompt]`, ...).
fn item_kind(attr: &syn::Attribute) -> Option<Kind> {
    let last = attr.path().segments.last()?;
    Kind::ALL
        .into_iter()
        .find(|kind| last.ident == kind.attribute())
}
