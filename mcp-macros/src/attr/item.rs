//! The options of `#[mcp_tool(...)]`, `#[mcp_resource(...)]` and
//! `#[mcp_prompt(...)]`.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::{ParseStream, Parser};
use syn::{Expr, ExprArray, Lit, LitStr};

use super::{Once, flag, key_of, parse_nested_options, parse_options, unknown};
use crate::errors::Errors;

const TOOL: &str = "#[mcp_tool]";
const RESOURCE: &str = "#[mcp_resource]";
const PROMPT: &str = "#[mcp_prompt]";

const TOOL_OPTIONS: &[&str] = &[
    "name",
    "title",
    "description",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "icons",
    "meta",
    "task_support",
    "scopes",
];
const RESOURCE_OPTIONS: &[&str] = &[
    "uri",
    "name",
    "title",
    "description",
    "mime_type",
    "complete",
];
const PROMPT_OPTIONS: &[&str] = &["name", "title", "description", "complete"];

/// The text-valued options every item takes.
#[derive(Default)]
pub struct Labels {
    pub name: Once<LitStr>,
    pub title: Once<LitStr>,
    pub description: Once<LitStr>,
}

impl Labels {
    /// Takes `name`, `title` or `description`; `Ok(false)` for another key.
    fn option(
        &mut self,
        meta: &ParseNestedMeta,
        place: &str,
        errors: &mut Errors,
    ) -> syn::Result<bool> {
        let key = key_of(meta);
        let slot = match key.as_str() {
            "name" => &mut self.name,
            "title" => &mut self.title,
            "description" => &mut self.description,
            _ => return Ok(false),
        };
        let value = meta.value()?.parse()?;
        slot.set(&meta.path, &key, place, value, errors);
        Ok(true)
    }
}

/// What `#[mcp_tool(...)]` says.
#[derive(Default)]
pub struct ToolOptions {
    pub labels: Labels,
    pub read_only: Once<bool>,
    pub destructive: Once<bool>,
    pub idempotent: Once<bool>,
    pub open_world: Once<bool>,
    pub icons: Once<Vec<LitStr>>,
    /// `meta(key = value, ...)`: entries of the tool's `_meta`.
    pub meta: Once<Vec<(LitStr, Lit)>>,
    /// `task_support = "forbidden" | "optional" | "required"`, as the
    /// variant name of `TaskSupport`.
    pub task_support: Once<syn::Ident>,
    /// `scopes = ["notes:write", ...]`: OAuth scopes a caller's token needs.
    pub scopes: Once<Vec<LitStr>>,
}

impl ToolOptions {
    /// Parses the attribute's arguments, recording mistakes in `errors`.
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut options = ToolOptions::default();
        parse_options(args, errors, |meta, errors| options.option(meta, errors));
        options
    }

    fn option(&mut self, meta: &ParseNestedMeta, errors: &mut Errors) -> syn::Result<()> {
        if self.labels.option(meta, TOOL, errors)? {
            return Ok(());
        }
        let key = key_of(meta);
        let hint = match key.as_str() {
            "read_only" => &mut self.read_only,
            "destructive" => &mut self.destructive,
            "idempotent" => &mut self.idempotent,
            "open_world" => &mut self.open_world,
            "icons" => {
                let icons = string_list(meta, ICON_EXAMPLE)?;
                self.icons.set(&meta.path, &key, TOOL, icons, errors);
                return Ok(());
            }
            "scopes" => {
                let scopes = string_list(meta, SCOPES_EXAMPLE)?;
                self.scopes.set(&meta.path, &key, TOOL, scopes, errors);
                return Ok(());
            }
            "task_support" => {
                let variant = task_support(meta)?;
                self.task_support
                    .set(&meta.path, &key, TOOL, variant, errors);
                return Ok(());
            }
            "meta" => {
                let entries = meta_entries(meta, errors)?;
                let message =
                    format!("`meta` is given twice in {TOOL}: put every entry in one `meta(...)`");
                self.meta.set_or(&meta.path, entries, errors, message);
                return Ok(());
            }
            _ => return Err(unknown(meta, TOOL, TOOL_OPTIONS)),
        };
        let value = flag(meta)?;
        hint.set(&meta.path, &key, TOOL, value, errors);
        Ok(())
    }
}

const ICON_EXAMPLE: &str =
    "an icon is a string literal URI: `icons = [\"https://example.com/icon.png\"]`";
const SCOPES_EXAMPLE: &str = "a scope is a string literal: `scopes = [\"notes:write\"]`";

/// `key = ["...", ...]`; `what` explains an element that is no string.
fn string_list(meta: &ParseNestedMeta, what: &str) -> syn::Result<Vec<LitStr>> {
    let array: ExprArray = meta.value()?.parse()?;
    array
        .elems
        .into_iter()
        .map(|element| match element {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) => Ok(s),
            other => Err(syn::Error::new_spanned(other, what)),
        })
        .collect()
}

/// `task_support = "..."`, as the variant name of `TaskSupport`.
fn task_support(meta: &ParseNestedMeta) -> syn::Result<syn::Ident> {
    let value: LitStr = meta.value()?.parse()?;
    let variant = match value.value().as_str() {
        "forbidden" => "Forbidden",
        "optional" => "Optional",
        "required" => "Required",
        _ => {
            return Err(syn::Error::new(
                value.span(),
                "`task_support` is \"forbidden\", \"optional\" or \"required\"",
            ));
        }
    };
    Ok(syn::Ident::new(variant, value.span()))
}

/// `meta(key = value, ...)`; a key given twice is an error.
fn meta_entries(meta: &ParseNestedMeta, errors: &mut Errors) -> syn::Result<Vec<(LitStr, Lit)>> {
    let mut entries: Vec<(LitStr, Lit)> = Vec::new();
    parse_nested_options(meta, errors, |entry, errors| {
        let key = entry
            .path
            .get_ident()
            .ok_or_else(|| entry.error("a `meta` key is a plain name"))?;
        let value: Lit = entry.value()?.parse()?;
        let name = key.to_string();
        if entries.iter().any(|(k, _)| k.value() == name) {
            errors.at(
                key,
                format!("the `meta` key `{name}` is given twice: keep one and remove the other"),
            );
        } else {
            entries.push((LitStr::new(&name, key.span()), value));
        }
        Ok(())
    })?;
    Ok(entries)
}

/// What `#[mcp_resource(...)]` says.
#[derive(Default)]
pub struct ResourceOptions {
    /// The URI or URI template: first and unnamed, or `uri = "..."`.
    pub uri: Once<LitStr>,
    pub labels: Labels,
    pub mime_type: Once<LitStr>,
    pub complete: Once<syn::Path>,
}

impl ResourceOptions {
    /// Parses `"uri", option = ...` (or `uri = "..."`), recording mistakes.
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut options = ResourceOptions::default();
        let split = |input: ParseStream| {
            let uri: Option<LitStr> = input.peek(LitStr).then(|| input.parse()).transpose()?;
            if uri.is_some() && !input.is_empty() {
                input.parse::<syn::Token![,]>()?;
            }
            Ok((uri, input.parse::<TokenStream>()?))
        };
        match split.parse2(args) {
            Ok((uri, rest)) => {
                if let Some(uri) = uri {
                    options.uri.set(&uri, "uri", RESOURCE, uri.clone(), errors);
                }
                parse_options(rest, errors, |meta, errors| options.option(meta, errors));
            }
            Err(error) => errors.push(error),
        }
        options
    }

    fn option(&mut self, meta: &ParseNestedMeta, errors: &mut Errors) -> syn::Result<()> {
        if self.labels.option(meta, RESOURCE, errors)? {
            return Ok(());
        }
        let key = key_of(meta);
        match key.as_str() {
            "uri" => {
                let value = meta.value()?.parse()?;
                self.uri.set(&meta.path, &key, RESOURCE, value, errors);
            }
            "mime_type" => {
                let value = meta.value()?.parse()?;
                self.mime_type
                    .set(&meta.path, &key, RESOURCE, value, errors);
            }
            "complete" => {
                let value = meta.value()?.parse()?;
                self.complete.set(&meta.path, &key, RESOURCE, value, errors);
            }
            _ => return Err(unknown(meta, RESOURCE, RESOURCE_OPTIONS)),
        }
        Ok(())
    }
}

/// What `#[mcp_prompt(...)]` says.
#[derive(Default)]
pub struct PromptOptions {
    pub labels: Labels,
    /// `complete = path`: the completion function of the arguments.
    pub complete: Once<syn::Path>,
}

impl PromptOptions {
    /// Parses the attribute's arguments, recording mistakes in `errors`.
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut options = PromptOptions::default();
        parse_options(args, errors, |meta, errors| options.option(meta, errors));
        options
    }

    fn option(&mut self, meta: &ParseNestedMeta, errors: &mut Errors) -> syn::Result<()> {
        if self.labels.option(meta, PROMPT, errors)? {
            return Ok(());
        }
        if !meta.path.is_ident("complete") {
            return Err(unknown(meta, PROMPT, PROMPT_OPTIONS));
        }
        let value = meta.value()?.parse()?;
        self.complete
            .set(&meta.path, "complete", PROMPT, value, errors);
        Ok(())
    }
}
