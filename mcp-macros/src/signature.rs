//! Reads the signature of a tool, resource or prompt function: receiver, parameters (with their
//! names as the client sees them) and return type. Strips the parameter
//! attributes that only the macro understands.

use std::collections::BTreeMap;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{FnArg, LitStr, Pat, ReceiverKind, ReturnType, Signature, Type};

use crate::docs::doc_lines;
use crate::errors::Errors;
use crate::options::{ParamOptions, lit};

/// How the function is called.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Receiver {
    /// A free or associated function.
    None,
    /// `&self`: the tool shares the server value.
    SharedRef,
}

/// One parameter.
pub struct Param {
    /// The name the client uses (after renaming).
    pub name: LitStr,
    pub ty: Type,
    pub description: Option<String>,
    pub header: Option<LitStr>,
}

/// The parts of a signature the expansion needs.
pub struct FnSignature {
    pub ident: syn::Ident,
    pub is_async: bool,
    pub receiver: Receiver,
    pub params: Vec<Param>,
    pub output: Type,
}

impl FnSignature {
    /// Reads `sig`, removing macro-only parameter attributes from it;
    /// `arguments` are descriptions from the doc comment's `# Arguments`;
    /// `kind` ("tool", "resource", "prompt") names the item in messages.
    pub fn read(
        sig: &mut Signature,
        arguments: &BTreeMap<String, String>,
        kind: &str,
        errors: &mut Errors,
    ) -> Self {
        if !sig.generics.params.is_empty() {
            errors.at(
                &sig.generics,
                format!("an MCP {kind} cannot be generic: its definition is fixed when the server starts; use concrete types"),
            );
        }
        if let Some(variadic) = &sig.variadic {
            errors.at(variadic, format!("an MCP {kind} cannot be variadic"));
        }
        let mut receiver = Receiver::None;
        let mut params = Vec::new();
        for arg in sig.inputs.iter_mut() {
            match arg {
                FnArg::Receiver(r) => match &r.kind {
                    ReceiverKind::Reference(_, _, None) => receiver = Receiver::SharedRef,
                    _ => errors.at(
                        &*r,
                        format!("an MCP {kind} method takes `&self`: requests run concurrently, so the server value is shared; use interior mutability (`Mutex`, atomics) for state that changes"),
                    ),
                },
                FnArg::Typed(typed) => {
                    let doc = doc_lines(&typed.attrs).join("\n");
                    let options = ParamOptions::take(&mut typed.attrs, errors);
                    let Pat::Ident(pat) = &*typed.pat else {
                        errors.at(
                            &typed.pat,
                            format!("an MCP {kind} parameter needs a plain name (`text: String`): the name becomes the argument's name"),
                        );
                        continue;
                    };
                    if let Type::Reference(reference) = &*typed.ty {
                        errors.at(
                            reference,
                            format!("an MCP {kind} parameter cannot borrow: arguments are decoded per call, so use an owned type (`String` instead of `&str`, `Vec<T>` instead of `&[T]`)"),
                        );
                        continue;
                    }
                    let rust_name = pat.ident.to_string();
                    let rust_name = rust_name.strip_prefix("r#").unwrap_or(&rust_name);
                    let name = options
                        .rename
                        .unwrap_or_else(|| lit(rust_name, pat.ident.span()));
                    let description = options
                        .description
                        .map(|d| d.value())
                        .or_else(|| (!doc.trim().is_empty()).then(|| doc.trim().to_owned()))
                        .or_else(|| arguments.get(rust_name).cloned());
                    params.push(Param {
                        name,
                        ty: (*typed.ty).clone(),
                        description,
                        header: options.header,
                    });
                }
            }
        }
        check_duplicates(&params, errors);
        let output = match &sig.output {
            ReturnType::Default => syn::parse_quote_spanned!(sig.ident.span()=> ()),
            ReturnType::Type(_, ty) => (**ty).clone(),
        };
        FnSignature {
            ident: sig.ident.clone(),
            is_async: sig.asyncness.is_some(),
            receiver,
            params,
            output,
        }
    }
}

fn check_duplicates(params: &[Param], errors: &mut Errors) {
    let mut seen: BTreeMap<String, Span> = BTreeMap::new();
    for param in params {
        let name = param.name.value();
        if seen.insert(name.clone(), param.name.span()).is_some() {
            errors.at(
                &param.name,
                format!(
                    "two parameters are both named `{name}` in the input schema: rename one with `#[mcp(rename = \"...\")]`"
                ),
            );
        }
    }
}

/// For method items: the statement that clones the server value (in
/// `__mcp_server`) into each request, and `state`, the receiver argument.
pub fn state_capture(state: Option<TokenStream>) -> (Option<TokenStream>, Option<TokenStream>) {
    match state {
        Some(arg) => (
            Some(quote!(let __mcp_state = ::core::clone::Clone::clone(&__mcp_server);)),
            Some(arg),
        ),
        None => (None, None),
    }
}
