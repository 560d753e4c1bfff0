//! Reads the signature of a tool, resource or prompt function: receiver,
//! parameters (with their names as the client sees them) and return type.
//! Strips the parameter attributes that only the macro understands. What
//! the macro cannot support (generics, `&mut self`, borrowed parameters) is
//! kept for `validate` to report.

use std::collections::BTreeMap;

use syn::{FnArg, LitStr, Pat, ReceiverKind, ReturnType, Signature, Type};

use super::docs::doc_lines;
use crate::attr::ParamOptions;
use crate::errors::Errors;

/// How the function is called.
pub enum Receiver {
    /// A free or associated function.
    None,
    /// `&self`: the tool shares the server value.
    SharedRef,
    /// `self`, `&mut self` or `self: Type`, which no item supports.
    Unsupported(Box<syn::Receiver>),
}

/// One parameter.
pub struct Param {
    /// The name the client uses (after renaming).
    pub name: LitStr,
    pub ty: Type,
    pub description: Option<String>,
    pub header: Option<LitStr>,
}

/// The parts of a signature the later stages need.
pub struct FnSignature {
    pub ident: syn::Ident,
    pub generics: syn::Generics,
    pub variadic: Option<syn::Variadic>,
    pub is_async: bool,
    pub receiver: Receiver,
    pub params: Vec<Param>,
    pub output: Type,
}

impl FnSignature {
    /// Reads `sig`, removing macro-only parameter attributes from it;
    /// `arguments` are descriptions from the doc comment's `# Arguments`;
    /// `noun` ("tool", "resource", "prompt") names the item in messages.
    pub fn read(
        sig: &mut Signature,
        arguments: &BTreeMap<String, String>,
        noun: &str,
        errors: &mut Errors,
    ) -> Self {
        let mut receiver = Receiver::None;
        let mut params = Vec::new();
        for arg in sig.inputs.iter_mut() {
            match arg {
                FnArg::Receiver(r) => {
                    receiver = match &r.kind {
                        ReceiverKind::Reference(_, _, None) => Receiver::SharedRef,
                        _ => Receiver::Unsupported(Box::new(r.clone())),
                    }
                }
                FnArg::Typed(typed) => {
                    let doc = doc_lines(&typed.attrs).join("\n");
                    let options = ParamOptions::take(&mut typed.attrs, errors);
                    let Pat::Ident(pat) = &*typed.pat else {
                        errors.at(
                            &typed.pat,
                            format!("an MCP {noun} parameter needs a plain name (`text: String`): the name becomes the argument's name"),
                        );
                        continue;
                    };
                    let rust_name = pat.ident.to_string();
                    let rust_name = rust_name.strip_prefix("r#").unwrap_or(&rust_name);
                    let name = options
                        .rename
                        .into_inner()
                        .unwrap_or_else(|| LitStr::new(rust_name, pat.ident.span()));
                    let description = options
                        .description
                        .into_inner()
                        .map(|d| d.value())
                        .or_else(|| (!doc.trim().is_empty()).then(|| doc.trim().to_owned()))
                        .or_else(|| arguments.get(rust_name).cloned());
                    params.push(Param {
                        name,
                        ty: (*typed.ty).clone(),
                        description,
                        header: options.header.into_inner(),
                    });
                }
            }
        }
        let output = match &sig.output {
            ReturnType::Default => syn::parse_quote_spanned!(sig.ident.span()=> ()),
            ReturnType::Type(_, ty) => (**ty).clone(),
        };
        FnSignature {
            ident: sig.ident.clone(),
            generics: sig.generics.clone(),
            variadic: sig.variadic.clone(),
            is_async: sig.asyncness.is_some(),
            receiver,
            params,
            output,
        }
    }
}
