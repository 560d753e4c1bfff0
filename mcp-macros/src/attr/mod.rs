//! The parse stage for attributes: every option that `#[mcp_tool]`,
//! `#[mcp_resource]`, `#[mcp_prompt]` and `#[mcp(...)]` on a parameter
//! take, read into one struct per attribute (`item` and `param`).
//!
//! Only the form of a value is checked here (a string, a boolean, a path);
//! whether it is acceptable (a valid tool name, a URI template with a
//! scheme) is `validate`'s job. Every option may be given once: a second
//! occurrence is an error at its key, never a silent overwrite. A mistake in
//! one option is recorded and parsing moves on to the next, so that all are
//! reported at once.

mod item;
mod param;

pub use item::{Labels, PromptOptions, ResourceOptions, ToolOptions};
pub use param::ParamOptions;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::LitBool;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;

use crate::errors::Errors;

/// An option that may be given once.
pub struct Once<T>(Option<T>);

impl<T> Default for Once<T> {
    fn default() -> Self {
        Once(None)
    }
}

impl<T> Once<T> {
    /// Stores `value`, or records an error at `key` when the option was
    /// already given; `key` is how the user wrote it and `place` is the
    /// attribute it is in, for the message.
    pub fn set(
        &mut self,
        key: impl ToTokens,
        name: &str,
        place: &str,
        value: T,
        errors: &mut Errors,
    ) {
        let message = format!("`{name}` is given twice in {place}: keep one and remove the other");
        self.set_or(key, value, errors, message);
    }

    /// Like [`Once::set`], with the error's `message` given.
    pub fn set_or(&mut self, key: impl ToTokens, value: T, errors: &mut Errors, message: String) {
        if self.0.is_some() {
            errors.at(key, message);
        } else {
            self.0 = Some(value);
        }
    }

    /// The value, when given.
    pub fn get(&self) -> Option<&T> {
        self.0.as_ref()
    }

    /// The value, when given, taken out.
    pub fn into_inner(self) -> Option<T> {
        self.0
    }
}

/// Parses comma-separated options (`key = value`, `flag`, `key(...)`),
/// calling `option` for each. An error in one option is recorded and the
/// rest of its value skipped, so the next option is still read.
pub fn parse_options(
    tokens: TokenStream,
    errors: &mut Errors,
    mut option: impl FnMut(&ParseNestedMeta, &mut Errors) -> syn::Result<()>,
) {
    let parser = syn::meta::parser(|meta| recover(&meta, errors, &mut option));
    if let Err(error) = syn::parse::Parser::parse2(parser, tokens) {
        errors.push(error);
    }
}

/// Like [`parse_options`], for the options inside `meta`'s parentheses
/// (`meta(key = value, ...)`).
pub fn parse_nested_options(
    meta: &ParseNestedMeta,
    errors: &mut Errors,
    mut option: impl FnMut(&ParseNestedMeta, &mut Errors) -> syn::Result<()>,
) -> syn::Result<()> {
    meta.parse_nested_meta(|nested| recover(&nested, errors, &mut option))
}

/// Reads one option; on error, records it and skips the rest of its value.
fn recover(
    meta: &ParseNestedMeta,
    errors: &mut Errors,
    option: &mut impl FnMut(&ParseNestedMeta, &mut Errors) -> syn::Result<()>,
) -> syn::Result<()> {
    if let Err(error) = option(meta, errors) {
        errors.push(error);
        skip_value(meta.input)?;
    }
    Ok(())
}

/// Drops what is left of a value that failed to parse, up to the next `,`.
fn skip_value(input: ParseStream) -> syn::Result<()> {
    while !input.is_empty() && !input.peek(syn::Token![,]) {
        input.parse::<TokenTree>()?;
    }
    Ok(())
}

/// The option's key as written (`read_only`), or empty for a path.
pub fn key_of(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// `read_only` alone means true; `read_only = false` is accepted too.
pub fn flag(meta: &ParseNestedMeta) -> syn::Result<bool> {
    if !meta.input.peek(syn::Token![=]) {
        return Ok(true);
    }
    let value = meta.value()?;
    value.parse::<LitBool>().map(|b| b.value).map_err(|error| {
        let key = key_of(meta);
        syn::Error::new(
            error.span(),
            format!("`{key}` is a flag: write `{key}` for true, or `{key} = false`"),
        )
    })
}

/// An error for an unknown option, suggesting the closest known one.
pub fn unknown(meta: &ParseNestedMeta, attribute: &str, known: &[&str]) -> syn::Error {
    let given = key_of(meta);
    let closest = known
        .iter()
        .map(|k| (strsim::jaro_winkler(&given, k), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let hint = match closest {
        Some((_, k)) => format!("did you mean `{k}`?"),
        None => format!("the options are: {}", known.join(", ")),
    };
    meta.error(format!("unknown option `{given}` in {attribute}: {hint}"))
}
