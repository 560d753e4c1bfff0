//! `#[mcp_prompt]`: the expression that builds a prompt's definition
//! (arguments from the parameters).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::text_params::{self, Rungs, labels, option_str};
use super::{private, private_at, state_capture};
use crate::ast::Prompt;

/// An expression of type `Definition`; `state` is the receiver
/// argument for methods (the server value is then in `__mcp_server`).
pub fn build(prompt: &Prompt, call: &TokenStream, state: Option<TokenStream>) -> TokenStream {
    let private = private();
    let sig = &prompt.signature;
    let context = quote!(__mcp_request.context);
    let values = quote!(__mcp_request.arguments);
    let mut specs = Vec::new();
    let mut extracts = Vec::new();
    let mut arguments = Vec::new();
    for (i, param) in sig.params.iter().enumerate() {
        specs.push(text_params::spec(i, param, Rungs::Argument));
        extracts.push(text_params::extract(i, param, &context, &values));
        let spec = format_ident!("__mcp_param_{}", i);
        let name = &param.name;
        let description = option_str(param.description.as_deref());
        arguments.push(quote! {
            if #spec.is_argument() {
                __mcp_def = __mcp_def.argument(#name, #description, #spec.is_required());
            }
        });
    }
    let args = text_params::args(sig.params.len());
    let output = &sig.output;
    let prompt_spec = quote_spanned! {output.span()=>
        let __mcp_return = #private::prompt_spec::<#output>();
    };
    let await_ = sig.is_async.then_some(quote!(.await));
    let (clone_state, state_arg) = state_capture(state);
    let name = &prompt.name;
    let setters = labels(
        prompt.description.as_deref(),
        prompt.options.labels.title.get(),
    );
    let complete = completion(prompt.options.complete.get());
    quote! {{
        #(#specs)*
        #prompt_spec
        let mut __mcp_def = #private::PromptDef::new(#name, move |__mcp_request: #private::PromptRequest| {
            #clone_state
            async move {
                #(#extracts)*
                __mcp_return.convert(#call(#state_arg #(#args),*)#await_)
            }
        });
        #(#arguments)*
        #setters
        #complete
        #private::Definition::Prompt(__mcp_def)
    }}
}

/// `__mcp_def = __mcp_def.completion(...)` for `complete = path`, spanned
/// on the path so that a wrong signature is reported there.
pub fn completion(path: Option<&syn::Path>) -> Option<TokenStream> {
    let path = path?;
    let private = private_at(path.span());
    Some(quote_spanned! {path.span()=>
        __mcp_def = __mcp_def.completion(#private::completer(#path));
    })
}
