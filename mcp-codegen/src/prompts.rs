//! Prompts -> one method each: `prompts/get` with the prompt's arguments
//! as a struct of strings (required ones `String`, optional ones
//! `Option<String>`), returning the prompt's messages.

use mcp_toolkit_runtime::codegen::prompt_fingerprint;
use mcp_toolkit_runtime::protocol::Prompt;
use syn::ImplItem;

use crate::client::{described, method_item};
use crate::emit::Emitter;
use crate::error::Error;
use crate::ir::{Field, Kind, Presence, Ty, TypeDef, TypeId};
use crate::mapper::Mapper;
use crate::naming::{Scope, snake_ident};
use crate::syntax::{ident, str_lit};

/// What the client needs to know about one prompt.
pub struct PromptTypes<'p> {
    /// The prompt.
    pub prompt: &'p Prompt,
    /// The client method's identifier.
    pub method: String,
    /// The arguments struct, when the prompt has arguments.
    pub args: Option<TypeId>,
    /// The prompt's fingerprint (see `mcp_toolkit_runtime::codegen::prompt_fingerprint`).
    pub fingerprint: String,
}

/// Why `prompt` gets no method, if it gets none: more arguments than
/// `max_width`, or one argument listed twice (which no struct can send).
pub fn unusable(prompt: &Prompt, max_width: usize) -> Option<String> {
    let arguments = prompt.arguments.as_deref().unwrap_or_default();
    if arguments.len() > max_width {
        return Some(format!(
            "it has {} arguments, over the limit of {max_width} (`Limits::max_width`)",
            arguments.len()
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    arguments
        .iter()
        .find(|a| !seen.insert(a.name.as_str()))
        .map(|a| format!("it lists the argument `{}` twice", a.name))
}

/// Plans the method of `prompt`, named `method`, adding its arguments
/// struct to the mapper's types.
pub fn plan<'p>(mapper: &mut Mapper, prompt: &'p Prompt, method: String) -> PromptTypes<'p> {
    let arguments = prompt.arguments.as_deref().unwrap_or_default();
    let args = (!arguments.is_empty()).then(|| {
        let name = mapper.claim_name(&format!("{}Args", crate::naming::unraw(&method)));
        let mut fields = Scope::default();
        let fields = arguments
            .iter()
            .map(|a| {
                let mut docs = Vec::new();
                for text in [&a.title, &a.description].into_iter().flatten() {
                    if !docs.is_empty() {
                        docs.push(String::new());
                    }
                    docs.extend(text.lines().map(str::to_owned));
                }
                let required = a.required == Some(true);
                Field {
                    ident: fields.claim(&snake_ident(&a.name, "argument"), "_"),
                    wire: a.name.clone(),
                    ty: Ty::String,
                    presence: match required {
                        true => Presence::Required,
                        false => Presence::Optional,
                    },
                    docs,
                }
            })
            .collect();
        mapper.types.defs.push(TypeDef {
            name,
            docs: vec![format!("The arguments of the prompt `{}`.", prompt.name)],
            kind: Kind::Struct {
                fields,
                deny_unknown: false,
                extra: None,
            },
        });
        mapper.types.defs.len() - 1
    });
    PromptTypes {
        prompt,
        method,
        args,
        fingerprint: prompt_fingerprint(prompt),
    }
}

/// The prompt's method:
///
/// ```text
/// vis fn METHOD(&self, arguments: &ARGS) -> Request<'_, GetPromptResult> {
///     codegen::get_prompt(&self.client, NAME, &[(WIRE, Some(arguments.FIELD.as_str())), ...])
/// }
/// ```
///
/// (an optional argument passes `arguments.FIELD.as_deref()`; a prompt
/// without arguments takes none).
pub fn method(emitter: &Emitter, p: &PromptTypes) -> Result<ImplItem, Error> {
    let rt = &emitter.rt;
    let method = ident(&p.method);
    let name = str_lit(&p.prompt.name);
    let (params, pairs) = match p.args {
        None => (quote::quote!(), Vec::new()),
        Some(id) => {
            let def = &emitter.types.defs[id];
            let Kind::Struct { fields, .. } = &def.kind else {
                return Err(Error::Internal("a prompt's arguments are a struct".into()));
            };
            let ty = ident(&def.name);
            let pairs = fields
                .iter()
                .map(|f| {
                    let wire = str_lit(&f.wire);
                    let field = ident(&f.ident);
                    match f.presence {
                        Presence::Required => quote::quote! {
                            (#wire, ::std::option::Option::Some(arguments.#field.as_str()))
                        },
                        Presence::Optional | Presence::OptionalNullable => {
                            quote::quote!((#wire, arguments.#field.as_deref()))
                        }
                    }
                })
                .collect();
            (quote::quote!(, arguments: &#ty), pairs)
        }
    };
    let docs = described(
        p.prompt.title.as_ref(),
        p.prompt.description.as_ref(),
        format!("Gets the prompt `{}`.", p.prompt.name),
    );
    method_item(
        emitter,
        docs,
        quote::quote! {
            fn #method(&self #params) -> #rt::codegen::Request<'_, #rt::protocol::GetPromptResult> {
                #rt::codegen::get_prompt(&self.client, #name, &[#(#pairs),*])
            }
        },
    )
}
