//! Writes the code for `#[mcp_tool]`, `#[mcp_resource]`, `#[mcp_prompt]`
//! and `#[mcp_server]`. On any error the user's item is still emitted
//! (minus macro-only attributes) next to the errors, so one mistake does
//! not cascade into "cannot find function".

use proc_macro2::TokenStream;
use quote::quote;
use syn::{ImplItem, ItemFn, ItemImpl, LitStr};

use crate::errors::Errors;
use crate::prompt::Prompt;
use crate::resource::Resource;
use crate::signature::{FnSignature, Receiver};
use crate::tool::Tool;

/// Which attribute made the item.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Tool,
    Resource,
    Prompt,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Tool, Kind::Resource, Kind::Prompt];

    fn attribute(self) -> &'static str {
        match self {
            Kind::Tool => "mcp_tool",
            Kind::Resource => "mcp_resource",
            Kind::Prompt => "mcp_prompt",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Resource => "resource",
            Kind::Prompt => "prompt",
        }
    }

    /// How a duplicate is renamed.
    fn fix(self) -> &'static str {
        match self {
            Kind::Tool => "give one another name with `#[mcp_tool(name = \"...\")]`",
            Kind::Resource => "give one another URI",
            Kind::Prompt => "give one another name with `#[mcp_prompt(name = \"...\")]`",
        }
    }
}

/// A tool, resource or prompt read from its function.
enum Item {
    Tool(Tool),
    Resource(Resource),
    Prompt(Prompt),
}

impl Item {
    fn read(
        kind: Kind,
        args: TokenStream,
        attrs: &[syn::Attribute],
        sig: &mut syn::Signature,
        errors: &mut Errors,
    ) -> Self {
        match kind {
            Kind::Tool => Item::Tool(Tool::read(args, attrs, sig, errors)),
            Kind::Resource => Item::Resource(Resource::read(args, attrs, sig, errors)),
            Kind::Prompt => Item::Prompt(Prompt::read(args, attrs, sig, errors)),
        }
    }

    fn kind(&self) -> Kind {
        match self {
            Item::Tool(_) => Kind::Tool,
            Item::Resource(_) => Kind::Resource,
            Item::Prompt(_) => Kind::Prompt,
        }
    }

    /// The name (tools, prompts) or URI (resources) that must be unique.
    fn key(&self) -> &LitStr {
        match self {
            Item::Tool(tool) => &tool.name,
            Item::Resource(resource) => &resource.uri,
            Item::Prompt(prompt) => &prompt.name,
        }
    }

    fn signature(&self) -> &FnSignature {
        match self {
            Item::Tool(tool) => &tool.signature,
            Item::Resource(resource) => &resource.signature,
            Item::Prompt(prompt) => &prompt.signature,
        }
    }

    /// An expression of type `Definition`, given `__mcp_profile` in scope.
    fn build(&self, call: &TokenStream, state: Option<TokenStream>) -> TokenStream {
        match self {
            Item::Tool(tool) => tool.build(call, state),
            Item::Resource(resource) => resource.build(call, state),
            Item::Prompt(prompt) => prompt.build(call, state),
        }
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
    if read.signature().receiver != Receiver::None {
        errors.at(
            &item.sig.inputs,
            format!(
                "a method {0} needs `#[mcp_server]` on its impl block, which registers the server value as the {0}'s state",
                kind.noun()
            ),
        );
    }
    let errors_tokens = errors.into_compile_errors();
    if !errors_tokens.is_empty() {
        return quote!(#item #errors_tokens);
    }
    let vis = &item.vis;
    let ident = &item.sig.ident;
    let build = read.build(&quote!(#ident), None);
    let key = read.key();
    let variant = match kind {
        Kind::Tool => quote!(Tool),
        Kind::Resource => quote!(Resource),
        Kind::Prompt => quote!(Prompt),
    };
    let doc = format!(
        "Registers the MCP {} [`{ident}`](fn@{ident}): `definitions![{ident}]`.",
        kind.noun()
    );
    quote! {
        #item

        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}

        impl ::mcp_runtime::__private::Registrable for #ident {
            const KIND: ::mcp_runtime::__private::Kind = ::mcp_runtime::__private::Kind::#variant;
            const NAME: &'static str = #key;
            fn register(definitions: &mut ::mcp_runtime::__private::Definitions) {
                definitions.add(|__mcp_profile: ::mcp_runtime::__private::SchemaProfile| #build);
            }
        }
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
    let mut builds = Vec::new();
    let mut keys: Vec<(Kind, LitStr)> = Vec::new();
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
        let marker = quote::format_ident!("{}", IN_SERVER);
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
        let key = read.key();
        if let Some((_, first)) = keys
            .iter()
            .find(|(k, first)| *k == kind && first.value() == key.value())
        {
            let what = match kind {
                Kind::Resource => "resource in this impl block already has the URI",
                Kind::Tool => "tool in this impl block is already named",
                Kind::Prompt => "prompt in this impl block is already named",
            };
            errors.at(
                key,
                format!("another {what} `{}`: {}", first.value(), kind.fix()),
            );
        }
        keys.push((read.kind(), key.clone()));
        let ident = &read.signature().ident;
        let call = quote!(Self::#ident);
        let state =
            (read.signature().receiver == Receiver::SharedRef).then_some(quote!(&*__mcp_state,));
        builds.push(read.build(&call, state));
    }
    let errors_tokens = errors.into_compile_errors();
    if !errors_tokens.is_empty() {
        return quote!(#item #errors_tokens);
    }
    let self_ty = &item.self_ty;
    quote! {
        #item

        impl #self_ty {
            /// The MCP tools, resources and prompts defined in this impl
            /// block, sharing `self` as state.
            pub fn mcp_definitions(self: &::mcp_runtime::__private::std::sync::Arc<Self>) -> ::mcp_runtime::__private::Definitions {
                let mut definitions = ::mcp_runtime::__private::Definitions::new();
                #(
                    {
                        let __mcp_server = ::mcp_runtime::__private::core::clone::Clone::clone(self);
                        definitions.add(move |__mcp_profile: ::mcp_runtime::__private::SchemaProfile| #builds);
                    }
                )*
                definitions
            }
        }
    }
}

/// The kind of an item attribute (`#[mcp_tool]`, `#[mcp_runtime::mcp_prompt]`, ...).
fn item_kind(attr: &syn::Attribute) -> Option<Kind> {
    let last = attr.path().segments.last()?;
    Kind::ALL
        .into_iter()
        .find(|kind| last.ident == kind.attribute())
}
