//! `#[mcp_tool]`: the expression that builds a tool's definition.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::private;
use super::text_params::option_str;
use crate::ast::Tool;
use crate::expand::state_capture;

/// An expression of type `Definition`, given `__mcp_profile` in scope;
/// `state` is the receiver argument for method tools (the server value
/// is then in `__mcp_server`).
pub fn build(tool: &Tool, call: &TokenStream, state: Option<TokenStream>) -> TokenStream {
    let private = private();
    let sig = &tool.signature;
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
        if param.header.is_some() {
            specs.push(quote_spanned!(span=> #private::assert_header_value::<#ty>();));
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
    let name = &tool.name;
    let setters = setters(tool);
    let (clone_state, state_arg) = state_capture(state);
    quote! {{
        #(#specs)*
        #ret
        let __mcp_output = __mcp_return.output_schema(__mcp_profile);
        let __mcp_wrapped = __mcp_output.as_ref().is_some_and(|output| output.wrapped);
        let mut __mcp_input = #private::InputSchema::new(__mcp_profile);
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
        #private::Definition::Tool(__mcp_def)
    }}
}

/// Description, title, annotations, icons, task support and `_meta`.
fn setters(tool: &Tool) -> TokenStream {
    let private = private();
    let options = &tool.options;
    let mut out = TokenStream::new();
    if let Some(description) = &tool.description {
        out.extend(quote!(__mcp_def = __mcp_def.description(#description);));
    }
    if let Some(title) = options.labels.title.get() {
        out.extend(quote!(__mcp_def = __mcp_def.title(#title);));
    }
    let hints = [
        &options.read_only,
        &options.destructive,
        &options.idempotent,
        &options.open_world,
    ]
    .map(|hint| hint.get().copied());
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
    if let Some(icons) = options.icons.get().filter(|icons| !icons.is_empty()) {
        out.extend(quote! {
            __mcp_def = __mcp_def.icons(::std::vec![#(#private::Icon {
                src: ::std::string::String::from(#icons),
                mime_type: ::core::option::Option::None,
                sizes: ::core::option::Option::None,
                theme: ::core::option::Option::None,
            }),*]);
        });
    }
    if let Some(scopes) = options.scopes.get().filter(|scopes| !scopes.is_empty()) {
        out.extend(quote!(__mcp_def = __mcp_def.scopes([#(#scopes),*]);));
    }
    if let Some(variant) = options.task_support.get() {
        out.extend(quote! {
            __mcp_def = __mcp_def.task_support(#private::TaskSupport::#variant);
        });
    }
    if let Some(meta) = options.meta.get().filter(|meta| !meta.is_empty()) {
        let (keys, values): (Vec<_>, Vec<_>) = meta.iter().cloned().unzip();
        out.extend(quote! {
            let mut __mcp_meta = #private::Meta::new();
            #(__mcp_meta.insert(::std::string::String::from(#keys), #private::serde_json::json!(#values));)*
            __mcp_def = __mcp_def.meta(__mcp_meta);
        });
    }
    out
}

fn option_bool(flag: Option<bool>) -> TokenStream {
    match flag {
        Some(flag) => quote!(::core::option::Option::Some(#flag)),
        None => quote!(::core::option::Option::None),
    }
}
