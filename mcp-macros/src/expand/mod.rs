//! The expand stage, and the pipeline around it: each entry point parses
//! (`ast`, `attr`), validates (`validate`) and, only when `Errors::check`
//! finds nothing, writes the code (`tool`, `resource`, `prompt`,
//! `text_params`). Nothing here reports a mistake of its own. On error the
//! user's item is still emitted (minus macro-only attributes) next to every
//! error, with a stub registration, so that one mistake does not cascade
//! into "cannot find type" where the item is registered.

mod prompt;
mod resource;
mod text_params;
mod tool;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ImplItem;

use crate::ast::{self, Item, Kind, Receiver};
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
    quote_spanned!(span=> ::mcp_toolkit_runtime::__private)
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

/// `#[mcp_tool]`, `#[mcp_resource]` or `#[mcp_prompt]` on a free function
/// (or on a method already read by `#[mcp_server]`).
pub fn free_item(kind: Kind, args: TokenStream, input: TokenStream) -> TokenStream {
    if ast::read_by_server(&args) {
        return input;
    }
    let mut item = match ast::parse_function(kind, input.clone()) {
        Ok(item) => item,
        Err(error) => return with_error(input, &error),
    };
    let mut errors = Errors::default();
    let read = Item::read(kind, args, &item.attrs, &mut item.sig, &mut errors);
    validate::free_item(&read, &item.sig.inputs, &mut errors);
    let private = private();
    let ident = &item.sig.ident;
    let (errors, register) = match errors.check() {
        Ok(()) => {
            let build = build(&read, &quote!(#ident), None);
            let register =
                quote!(definitions.add(|__mcp_profile: #private::SchemaProfile| #build););
            (None, register)
        }
        // A method outside `#[mcp_server]`: a registration struct cannot be
        // declared inside the impl block, so the item alone is emitted.
        Err(error) if !matches!(read.signature().receiver, Receiver::None) => {
            return with_error(quote!(#item), &error);
        }
        Err(error) => (Some(error.to_compile_error()), quote!(let _ = definitions;)),
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
    let mut block = match ast::parse_impl_block(input.clone()) {
        Ok(block) => block,
        Err(error) => return with_error(input, &error),
    };
    let mut errors = Errors::default();
    validate::impl_block(&args, &block, &mut errors);
    let mut items = Vec::new();
    for member in &mut block.items {
        let ImplItem::Fn(method) = member else {
            continue;
        };
        if let Some(item) = ast::read_method(method, &mut errors) {
            validate::method_item(&item, &items, &mut errors);
            items.push(item);
        }
    }
    let private = private();
    let (errors, body) = match errors.check() {
        Ok(()) => {
            let builds = items.iter().map(method_build);
            let body = quote! {
                let mut definitions = #private::Definitions::new();
                #(
                    {
                        let __mcp_server = #private::core::clone::Clone::clone(self);
                        definitions.add(move |__mcp_profile: #private::SchemaProfile| #builds);
                    }
                )*
                definitions
            };
            (None, body)
        }
        Err(error) => (
            Some(error.to_compile_error()),
            quote!(#private::Definitions::new()),
        ),
    };
    let self_ty = &block.self_ty;
    quote! {
        #block
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

/// The input as it came, and `error`.
fn with_error(input: TokenStream, error: &syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    quote!(#input #error)
}

/// The `Definition` expression of a method item read by `#[mcp_server]`.
fn method_build(read: &Item) -> TokenStream {
    let ident = &read.signature().ident;
    let state =
        matches!(read.signature().receiver, Receiver::SharedRef).then_some(quote!(&*__mcp_state,));
    build(read, &quote!(Self::#ident), state)
}
