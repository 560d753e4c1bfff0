//! The options of `#[mcp_tool(...)]` and of `#[mcp(...)]` on parameters.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::{Expr, ExprArray, Lit, LitBool, LitStr};

use crate::errors::Errors;

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
];

const PARAM_OPTIONS: &[&str] = &["rename", "description", "header"];

/// What `#[mcp_tool(...)]` says.
#[derive(Default)]
pub struct ToolOptions {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
    pub icons: Vec<LitStr>,
    pub meta: Vec<(LitStr, Lit)>,
    /// `task_support = "forbidden" | "optional" | "required"`, as the
    /// variant name of `TaskSupport`.
    pub task_support: Option<syn::Ident>,
}

impl ToolOptions {
    /// Parses the attribute's arguments, recording mistakes in `errors`.
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut options = ToolOptions::default();
        let parser = syn::meta::parser(|meta| options.option(meta));
        if let Err(error) = syn::parse::Parser::parse2(parser, args) {
            errors.push(error);
        }
        options
    }

    fn option(&mut self, meta: ParseNestedMeta) -> syn::Result<()> {
        let key = meta.path.get_ident().map(ToString::to_string);
        match key.as_deref() {
            Some("name") => self.name = Some(meta.value()?.parse()?),
            Some("title") => self.title = Some(meta.value()?.parse()?),
            Some("description") => self.description = Some(meta.value()?.parse()?),
            Some("read_only") => self.read_only = Some(flag(&meta)?),
            Some("destructive") => self.destructive = Some(flag(&meta)?),
            Some("idempotent") => self.idempotent = Some(flag(&meta)?),
            Some("open_world") => self.open_world = Some(flag(&meta)?),
            Some("icons") => {
                let array: ExprArray = meta.value()?.parse()?;
                for element in array.elems {
                    match element {
                        Expr::Lit(lit) => match lit.lit {
                            Lit::Str(s) => self.icons.push(s),
                            other => return Err(icon_error(other)),
                        },
                        other => return Err(icon_error(other)),
                    }
                }
            }
            Some("task_support") => {
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
                self.task_support = Some(syn::Ident::new(variant, value.span()));
            }
            Some("meta") => meta.parse_nested_meta(|entry| {
                let key = entry
                    .path
                    .get_ident()
                    .ok_or_else(|| entry.error("a `meta` key is a plain name"))?;
                let value: Lit = entry.value()?.parse()?;
                self.meta
                    .push((LitStr::new(&key.to_string(), key.span()), value));
                Ok(())
            })?,
            _ => return Err(unknown(&meta, "#[mcp_tool]", TOOL_OPTIONS)),
        }
        Ok(())
    }
}

fn icon_error(tokens: impl quote::ToTokens) -> syn::Error {
    syn::Error::new_spanned(
        tokens,
        "an icon is a string literal URI: `icons = [\"https://example.com/icon.png\"]`",
    )
}

/// `read_only` alone means true; `read_only = false` is accepted too.
fn flag(meta: &ParseNestedMeta) -> syn::Result<bool> {
    if meta.input.peek(syn::Token![=]) {
        Ok(meta.value()?.parse::<LitBool>()?.value)
    } else {
        Ok(true)
    }
}

/// An error for an unknown option, suggesting the closest known one.
pub fn unknown(meta: &ParseNestedMeta, attribute: &str, known: &[&str]) -> syn::Error {
    let given = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
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

/// What the attributes of one parameter say.
#[derive(Default)]
pub struct ParamOptions {
    pub rename: Option<LitStr>,
    pub description: Option<LitStr>,
    pub header: Option<LitStr>,
}

impl ParamOptions {
    /// Reads `#[mcp(...)]` and `#[serde(rename = "...")]`; returns the
    /// options and the attributes to keep on the parameter (none of ours:
    /// rustc rejects unknown attributes on parameters).
    pub fn take(attrs: &mut Vec<syn::Attribute>, errors: &mut Errors) -> Self {
        let mut options = ParamOptions::default();
        attrs.retain(|attr| {
            if attr.path().is_ident("mcp") {
                if let Err(e) = attr.parse_nested_meta(|meta| options.option(meta)) {
                    errors.push(e);
                }
                false
            } else if attr.path().is_ident("serde") {
                if let Err(e) = attr.parse_nested_meta(|meta| options.serde_option(meta)) {
                    errors.push(e);
                }
                false
            } else {
                // Doc comments describe the parameter; rustc would reject them.
                !attr.path().is_ident("doc")
            }
        });
        options
    }

    fn option(&mut self, meta: ParseNestedMeta) -> syn::Result<()> {
        let key = meta.path.get_ident().map(ToString::to_string);
        match key.as_deref() {
            Some("rename") => self.rename = Some(meta.value()?.parse()?),
            Some("description") => self.description = Some(meta.value()?.parse()?),
            Some("header") => self.header = Some(meta.value()?.parse()?),
            _ => return Err(unknown(&meta, "#[mcp] on a parameter", PARAM_OPTIONS)),
        }
        Ok(())
    }

    fn serde_option(&mut self, meta: ParseNestedMeta) -> syn::Result<()> {
        if meta.path.is_ident("rename") {
            self.rename = Some(meta.value()?.parse()?);
            Ok(())
        } else {
            Err(meta.error(
                "only `#[serde(rename = \"...\")]` applies to a parameter; put other serde attributes on a struct parameter's fields",
            ))
        }
    }
}

/// A string literal at `span`.
pub fn lit(text: &str, span: Span) -> LitStr {
    LitStr::new(text, span)
}

/// The text-valued options that resources and prompts share with tools.
#[derive(Default)]
pub struct Labels {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
}

impl Labels {
    /// Takes `name`, `title` or `description`; `Ok(false)` for another key.
    pub fn option(&mut self, meta: &ParseNestedMeta) -> syn::Result<bool> {
        let slot = if meta.path.is_ident("name") {
            &mut self.name
        } else if meta.path.is_ident("title") {
            &mut self.title
        } else if meta.path.is_ident("description") {
            &mut self.description
        } else {
            return Ok(false);
        };
        *slot = Some(meta.value()?.parse()?);
        Ok(true)
    }
}
