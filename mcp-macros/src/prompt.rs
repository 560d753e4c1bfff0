//! `#[mcp_prompt]`: a prompt read from its function (arguments from the
//! parameters, description from the doc comment), and the expression that
//! builds its definition.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::LitStr;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use crate::docs::{describe, doc_lines};
use crate::errors::Errors;
use crate::options::{Labels, lit, unknown};
use crate::signature::{FnSignature, state_capture};
use crate::text_params::{self, Rungs, labels, option_str};

const OPTIONS: &[&str] = &["name", "title", "description", "complete"];

/// A prompt read from its function.
pub struct Prompt {
    /// The prompt's name.
    pub name: LitStr,
    labels: Labels,
    description: Option<String>,
    /// `complete = path`: the completion function of the arguments.
    complete: Option<syn::Path>,
    /// The function's signature.
    pub signature: FnSignature,
}

impl Prompt {
    /// Reads the attribute's `args` and the function.
    pub fn read(
        args: TokenStream,
        attrs: &[syn::Attribute],
        sig: &mut syn::Signature,
        errors: &mut Errors,
    ) -> Self {
        let mut labels = Labels::default();
        let mut complete = None;
        let parser = syn::meta::parser(|meta: ParseNestedMeta| {
            if labels.option(&meta)? {
                Ok(())
            } else if meta.path.is_ident("complete") {
                complete = Some(meta.value()?.parse()?);
                Ok(())
            } else {
                Err(unknown(&meta, "#[mcp_prompt]", OPTIONS))
            }
        });
        if let Err(error) = syn::parse::Parser::parse2(parser, args) {
            errors.push(error);
        }
        let described = describe(&doc_lines(attrs));
        let signature = FnSignature::read(sig, &described.arguments, "prompt", errors);
        for param in &signature.params {
            if let Some(header) = &param.header {
                errors.at(
                    header,
                    "`header` applies to tool parameters only: remove it from this prompt argument",
                );
            }
        }
        let name = labels
            .name
            .clone()
            .unwrap_or_else(|| lit(&sig.ident.to_string(), sig.ident.span()));
        if name.value().is_empty() {
            errors.at(
                &name,
                "a prompt name cannot be empty: `#[mcp_prompt(name = \"review\")]`",
            );
        }
        let description = labels
            .description
            .as_ref()
            .map(LitStr::value)
            .or(described.description);
        Prompt {
            name,
            labels,
            description,
            complete,
            signature,
        }
    }

    /// An expression of type `Definition`; `state` is the receiver
    /// argument for methods (the server value is then in `__mcp_server`).
    pub fn build(&self, call: &TokenStream, state: Option<TokenStream>) -> TokenStream {
        let private = quote!(::mcp_runtime::__private);
        let sig = &self.signature;
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
        let name = &self.name;
        let setters = labels(self.description.as_deref(), self.labels.title.as_ref());
        let complete = completion(self.complete.as_ref());
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
}

/// `__mcp_def = __mcp_def.completion(...)` for `complete = path`, spanned
/// on the path so that a wrong signature is reported there.
pub fn completion(path: Option<&syn::Path>) -> Option<TokenStream> {
    let path = path?;
    Some(quote_spanned! {path.span()=>
        __mcp_def = __mcp_def.completion(::mcp_runtime::__private::completer(#path));
    })
}
