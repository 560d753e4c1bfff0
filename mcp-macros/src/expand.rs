//! Writes the code for `#[mcp_tool]` and `#[mcp_server]`. On any error the
//! user's item is still emitted (minus macro-only attributes) next to the
//! errors, so one mistake does not cascade into "cannot find function".

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ImplItem, ItemFn, ItemImpl, LitStr};

use crate::docs::{describe, doc_lines};
use crate::errors::Errors;
use crate::options::{ToolOptions, lit};
use crate::signature::{Receiver, ToolSignature};

/// `#[mcp_tool]` on a free function.
pub fn free_tool(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut item: ItemFn = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(error) => {
            let error = syn::Error::new(
                error.span(),
                "#[mcp_tool] applies to a function (inside an impl block, also put #[mcp_server] on the impl)",
            );
            let error = error.to_compile_error();
            return quote!(#input #error);
        }
    };
    let mut errors = Errors::default();
    let tool = Tool::read(args, &item.attrs, &mut item.sig, &mut errors);
    if tool.signature.receiver != Receiver::None {
        errors.at(
            &item.sig.inputs,
            "a method tool needs `#[mcp_server]` on its impl block, which registers the server value as the tool's state",
        );
    }
    let vis = &item.vis;
    let ident = &item.sig.ident;
    let errors_tokens = errors.into_compile_errors();
    if !errors_tokens.is_empty() {
        return quote!(#item #errors_tokens);
    }
    let call = quote!(#ident);
    let build = tool.build(&call, None);
    let name = &tool.name;
    let doc = format!("Registers the MCP tool [`{ident}`](fn@{ident}): `definitions![{ident}]`.");
    quote! {
        #item

        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}

        impl ::mcp_runtime::__private::Registrable for #ident {
            const KIND: ::mcp_runtime::__private::Kind = ::mcp_runtime::__private::Kind::Tool;
            const NAME: &'static str = #name;
            fn register(
                definitions: &mut ::mcp_runtime::__private::Definitions,
                profile: ::mcp_runtime::__private::SchemaProfile,
            ) {
                definitions.tool(#build);
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
            "#[mcp_server] takes no options; put them on each #[mcp_tool]",
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
    let mut names: Vec<LitStr> = Vec::new();
    for member in &mut item.items {
        let ImplItem::Fn(method) = member else {
            continue;
        };
        let Some(position) = method.attrs.iter().position(is_tool_attr) else {
            continue;
        };
        let attr = method.attrs.remove(position);
        let args = match &attr.meta {
            syn::Meta::Path(_) => TokenStream::new(),
            syn::Meta::List(list) => list.tokens.clone(),
            syn::Meta::NameValue(nv) => {
                errors.at(nv, "write `#[mcp_tool]` or `#[mcp_tool(option, ...)]`");
                continue;
            }
        };
        let tool = Tool::read(args, &method.attrs, &mut method.sig, &mut errors);
        if let Some(first) = names.iter().find(|n| n.value() == tool.name.value()) {
            errors.at(
                &tool.name,
                format!("another tool in this impl block is already named `{}`: give one another name with `#[mcp_tool(name = \"...\")]`", first.value()),
            );
        }
        names.push(tool.name.clone());
        let ident = &tool.signature.ident;
        let call = quote!(Self::#ident);
        let state =
            (tool.signature.receiver == Receiver::SharedRef).then_some(quote!(&*__mcp_state,));
        builds.push(tool.build(&call, state));
    }
    let errors_tokens = errors.into_compile_errors();
    if !errors_tokens.is_empty() {
        return quote!(#item #errors_tokens);
    }
    let self_ty = &item.self_ty;
    quote! {
        #item

        impl #self_ty {
            /// The MCP tools defined in this impl block, sharing `self` as state.
            pub fn mcp_definitions(self: &::mcp_runtime::__private::std::sync::Arc<Self>) -> ::mcp_runtime::__private::Definitions {
                let profile = ::mcp_runtime::__private::SchemaProfile::Standard;
                let mut definitions = ::mcp_runtime::__private::Definitions::new();
                #(
                    {
                        let __mcp_server = ::mcp_runtime::__private::core::clone::Clone::clone(self);
                        definitions.tool(#builds);
                    }
                )*
                definitions
            }
        }
    }
}

fn is_tool_attr(attr: &syn::Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "mcp_tool")
}

/// A tool read from its function: options, description, signature.
struct Tool {
    name: LitStr,
    options: ToolOptions,
    description: Option<String>,
    signature: ToolSignature,
}

impl Tool {
    fn read(
        args: TokenStream,
        attrs: &[syn::Attribute],
        sig: &mut syn::Signature,
        errors: &mut Errors,
    ) -> Self {
        let options = ToolOptions::parse(args, errors);
        let described = describe(&doc_lines(attrs));
        let signature = ToolSignature::read(sig, &described.arguments, errors);
        let name = options
            .name
            .clone()
            .unwrap_or_else(|| lit(&sig.ident.to_string(), sig.ident.span()));
        if !is_valid_tool_name(&name.value()) {
            errors.at(
                &name,
                format!(
                    "`{}` is not a valid MCP tool name: use 1 to 128 characters from A-Z, a-z, 0-9, `_`, `-` and `.`, e.g. `#[mcp_tool(name = \"my_tool\")]`",
                    name.value()
                ),
            );
        }
        let description = options
            .description
            .as_ref()
            .map(LitStr::value)
            .or(described.description);
        Tool {
            name,
            options,
            description,
            signature,
        }
    }

    /// An expression of type `ToolDef`, given `profile` in scope; `state`
    /// is the receiver argument for method tools (the server value is
    /// then in `__mcp_server`).
    fn build(&self, call: &TokenStream, state: Option<TokenStream>) -> TokenStream {
        let private = quote!(::mcp_runtime::__private);
        let sig = &self.signature;
        let mut specs = Vec::new();
        let mut describes = Vec::new();
        let mut extracts = Vec::new();
        let mut args = Vec::new();
        for (i, param) in sig.params.iter().enumerate() {
            let ty = &param.ty;
            let spec = format_ident!("__mcp_param_{}", i);
            let arg = format_ident!("__mcp_arg_{}", i);
            let span = ty.span();
            specs.push(quote_spanned! {span=>
                let #spec = {
                    #[allow(unused_imports)]
                    use #private::{ContextParam as _, OptionalParam as _, RequiredParam as _, UnsupportedParam as _};
                    (&&&&#private::Param::<#ty>::new()).spec()
                };
            });
            if let Some(header) = &param.header {
                specs.push(quote_spanned!(span=> #private::assert_header_value::<#ty>();));
                let _ = header;
            }
            let name = &param.name;
            let description = option_str(param.description.as_deref());
            let header = match &param.header {
                Some(h) => quote!(::core::option::Option::Some(#h)),
                None => quote!(::core::option::Option::None),
            };
            describes.push(quote!(#spec.describe(&mut __mcp_input, #name, #description, #header);));
            extracts.push(quote! {
                let #arg = match #spec.extract(&__mcp_call, #name) {
                    ::core::result::Result::Ok(value) => value,
                    ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
                };
            });
            args.push(arg);
        }
        let output = &sig.output;
        let ret_span = output.span();
        let ret = quote_spanned! {ret_span=>
            let __mcp_return = {
                #[allow(unused_imports)]
                use #private::{PlainReturn as _, FallibleStructuredReturn as _, StructuredReturn as _, UnsupportedReturn as _};
                (&&&&#private::Ret::<#output>::new()).spec()
            };
        };
        let await_ = sig.is_async.then_some(quote!(.await));
        let name = &self.name;
        let setters = self.setters();
        let (clone_state, state_arg) = match state {
            Some(arg) => (
                Some(quote!(let __mcp_state = ::core::clone::Clone::clone(&__mcp_server);)),
                Some(arg),
            ),
            None => (None, None),
        };
        quote! {{
            #(#specs)*
            #ret
            let __mcp_output = __mcp_return.output_schema(profile);
            let __mcp_wrapped = __mcp_output.as_ref().is_some_and(|output| output.wrapped);
            let mut __mcp_input = #private::InputSchema::new(profile);
            #(#describes)*
            let mut __mcp_def = #private::ToolDef::new(#name, move |__mcp_call: #private::ToolCall| {
                #clone_state
                async move {
                    #(#extracts)*
                    __mcp_return.convert(#call(#state_arg #(#args),*)#await_, __mcp_wrapped)
                }
            })
            .input_schema(__mcp_input.finish());
            if let ::core::option::Option::Some(output) = __mcp_output {
                __mcp_def = __mcp_def.output_schema(output.schema);
            }
            #setters
            __mcp_def
        }}
    }

    /// Description, title, annotations, icons and `_meta`.
    fn setters(&self) -> TokenStream {
        let private = quote!(::mcp_runtime::__private);
        let options = &self.options;
        let mut out = TokenStream::new();
        if let Some(description) = &self.description {
            out.extend(quote!(__mcp_def = __mcp_def.description(#description);));
        }
        if let Some(title) = &options.title {
            out.extend(quote!(__mcp_def = __mcp_def.title(#title);));
        }
        let hints = [
            options.read_only,
            options.destructive,
            options.idempotent,
            options.open_world,
        ];
        if hints.iter().any(Option::is_some) {
            let [read_only, destructive, idempotent, open_world] = hints.map(option_bool);
            out.extend(quote! {
                let mut __mcp_annotations = #private::ToolAnnotations::default();
                __mcp_annotations.read_only_hint = #read_only;
                __mcp_annotations.destructive_hint = #destructive;
                __mcp_annotations.idempotent_hint = #idempotent;
                __mcp_annotations.open_world_hint = #open_world;
                __mcp_def = __mcp_def.annotations(__mcp_annotations);
            });
        }
        if !options.icons.is_empty() {
            let icons = &options.icons;
            out.extend(quote! {
                __mcp_def = __mcp_def.icons(::std::vec![#(#private::Icon {
                    src: ::std::string::String::from(#icons),
                    mime_type: ::core::option::Option::None,
                    sizes: ::core::option::Option::None,
                    theme: ::core::option::Option::None,
                }),*]);
            });
        }
        if !options.meta.is_empty() {
            let (keys, values): (Vec<_>, Vec<_>) = options.meta.iter().cloned().unzip();
            out.extend(quote! {
                let mut __mcp_meta = #private::Meta::new();
                #(__mcp_meta.insert(::std::string::String::from(#keys), #private::serde_json::json!(#values));)*
                __mcp_def = __mcp_def.meta(__mcp_meta);
            });
        }
        out
    }
}

fn option_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_bool(flag: Option<bool>) -> TokenStream {
    match flag {
        Some(flag) => quote!(::core::option::Option::Some(#flag)),
        None => quote!(::core::option::Option::None),
    }
}

/// The spec's rule for tool names: 1 to 128 of `A-Za-z0-9_-.`.
fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}
