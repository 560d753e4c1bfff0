//! The validate stage: every rule a parsed item or `#[mcp_server]` impl
//! block must follow, each reported at the user's token with a sentence
//! saying how to fix it. Expansion runs only when nothing here (or in
//! parsing) found a mistake.

use std::collections::BTreeSet;

use mcp_toolkit_names::{is_header_token, is_scope_token, is_valid_tool_name};
use mcp_toolkit_uri_template::UriTemplate;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{ItemImpl, LitStr, Type};

use crate::ast::{FnSignature, Item, Kind, Prompt, Receiver, Resource, Tool};
use crate::errors::Errors;

/// Checks a tool, resource or prompt made of a free function; `inputs`, its
/// parameter list, is where a `self` parameter is reported.
pub fn free_item(item: &Item, inputs: &impl ToTokens, errors: &mut Errors) {
    self::item(item, errors);
    // Only `#[mcp_server]` supplies the state a method needs.
    if !matches!(item.signature().receiver, Receiver::None) {
        errors.at(
            inputs,
            format!(
                "a method {0} needs `#[mcp_server]` on its impl block, which registers the server value as the {0}'s state",
                item.kind().noun()
            ),
        );
    }
}

/// Checks an `#[mcp_server]` impl block, given `args`, before its items.
pub fn impl_block(args: &TokenStream, block: &ItemImpl, errors: &mut Errors) {
    if !args.is_empty() {
        errors.at(
            args,
            "#[mcp_server] takes no options; put them on each #[mcp_tool], #[mcp_resource] or #[mcp_prompt]",
        );
    }
    if let Some((path, _)) = &block.trait_ {
        errors.at(path, "#[mcp_server] applies to an inherent impl block (`impl MyServer { ... }`), not a trait impl");
    }
    if !block.generics.params.is_empty() {
        errors.at(
            &block.generics,
            "#[mcp_server] cannot be generic: tools are registered for one concrete server type",
        );
    }
}

/// Checks an item of an `#[mcp_server]` impl block, given the `earlier`
/// items of the block.
pub fn method_item(item: &Item, earlier: &[Item], errors: &mut Errors) {
    self::item(item, errors);
    unique_key(item, earlier, errors);
}

/// Checks one item on its own.
fn item(item: &Item, errors: &mut Errors) {
    signature(item.signature(), item.kind().noun(), errors);
    match item {
        Item::Tool(tool) => self::tool(tool, errors),
        Item::Resource(resource) => self::resource(resource, errors),
        Item::Prompt(prompt) => self::prompt(prompt, errors),
    }
}

/// A tool's or prompt's name, or a resource's URI, must differ from those
/// of the `earlier` items of its kind in the impl block.
fn unique_key(item: &Item, earlier: &[Item], errors: &mut Errors) {
    let (kind, key) = (item.kind(), item.key());
    let taken = earlier
        .iter()
        .any(|other| other.kind() == kind && other.key().value() == key.value());
    if !taken {
        return;
    }
    let (what, fix) = match kind {
        Kind::Resource => (
            "resource in this impl block already has the URI",
            "give one another URI",
        ),
        Kind::Tool => (
            "tool in this impl block is already named",
            "give one another name with `#[mcp_tool(name = \"...\")]`",
        ),
        Kind::Prompt => (
            "prompt in this impl block is already named",
            "give one another name with `#[mcp_prompt(name = \"...\")]`",
        ),
    };
    errors.at(key, format!("another {what} `{}`: {fix}", key.value()));
}

fn signature(sig: &FnSignature, noun: &str, errors: &mut Errors) {
    if !sig.generics.params.is_empty() {
        errors.at(
            &sig.generics,
            format!("an MCP {noun} cannot be generic: its definition is fixed when the server starts; use concrete types"),
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.at(variadic, format!("an MCP {noun} cannot be variadic"));
    }
    if let Receiver::Unsupported(receiver) = &sig.receiver {
        errors.at(
            receiver,
            format!("an MCP {noun} method takes `&self`: requests run concurrently, so the server value is shared; use interior mutability (`Mutex`, atomics) for state that changes"),
        );
    }
    let mut seen = BTreeSet::new();
    for param in &sig.params {
        if let Type::Reference(reference) = &param.ty {
            errors.at(
                reference,
                format!("an MCP {noun} parameter cannot borrow: arguments are decoded per call, so use an owned type (`String` instead of `&str`, `Vec<T>` instead of `&[T]`)"),
            );
            continue;
        }
        let name = param.name.value();
        if !seen.insert(name.clone()) {
            errors.at(
                &param.name,
                format!(
                    "two parameters are both named `{name}` in the input schema: rename one with `#[mcp(rename = \"...\")]`"
                ),
            );
        }
    }
}

fn tool(tool: &Tool, errors: &mut Errors) {
    header_names(&tool.signature, errors);
    scopes(tool.options.scopes.get().map_or(&[], Vec::as_slice), errors);
    let name = &tool.name;
    if !is_valid_tool_name(&name.value()) {
        errors.at(
            name,
            format!(
                "`{}` is not a valid MCP tool name: use 1 to 128 characters from A-Z, a-z, 0-9, `_`, `-` and `.`, e.g. `#[mcp_tool(name = \"my_tool\")]`",
                name.value()
            ),
        );
    }
}

/// Each scope an OAuth scope token, none given twice.
fn scopes(scopes: &[LitStr], errors: &mut Errors) {
    let mut seen = BTreeSet::new();
    for scope in scopes {
        let value = scope.value();
        if !is_scope_token(&value) {
            errors.at(
                scope,
                format!("`{value}` is not an OAuth scope: use visible ASCII without spaces, `\"` or `\\`, e.g. `\"notes:write\"`; several scopes are several strings"),
            );
        } else if !seen.insert(value.clone()) {
            errors.at(
                scope,
                format!("the scope `{value}` is listed twice: remove one"),
            );
        }
    }
}

fn resource(resource: &Resource, errors: &mut Errors) {
    if let Some(template) = &resource.template {
        let uri = &resource.uri;
        if !has_scheme(&uri.value()) {
            errors.at(
                uri,
                format!("`{0}` has no URI scheme: start it with one, e.g. `\"file:///{0}\"` or `\"myapp://{0}\"`", uri.value()),
            );
        } else {
            variables_have_params(template, uri, &resource.signature, errors);
            if let (Some(complete), None) =
                (resource.options.complete.get(), template.variables().next())
            {
                errors.at(
                    complete,
                    "`complete` applies to resource templates only: this URI has no `{variable}` to complete; remove it",
                );
            }
        }
    }
    no_headers(&resource.signature, "this resource parameter", errors);
}

fn prompt(prompt: &Prompt, errors: &mut Errors) {
    no_headers(&prompt.signature, "this prompt argument", errors);
    if prompt.name.value().is_empty() {
        errors.at(
            &prompt.name,
            "a prompt name cannot be empty: `#[mcp_prompt(name = \"review\")]`",
        );
    }
}

/// `header` maps a tool argument to an HTTP header; nothing else has one.
fn no_headers(sig: &FnSignature, what: &str, errors: &mut Errors) {
    for header in sig.params.iter().filter_map(|p| p.header.as_ref()) {
        errors.at(
            header,
            format!("`header` applies to tool parameters only: remove it from {what}"),
        );
    }
}

/// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`, before any
/// template expression.
fn has_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// Every template variable needs a parameter of the same name.
fn variables_have_params(
    template: &UriTemplate,
    uri: &LitStr,
    sig: &FnSignature,
    errors: &mut Errors,
) {
    let mut reported = BTreeSet::new();
    for variable in template.variables() {
        if sig.params.iter().any(|p| p.name.value() == variable) || !reported.insert(variable) {
            continue;
        }
        let example = if template.is_optional(variable) {
            format!("`{variable}: Option<String>`")
        } else {
            format!("`{variable}: String`")
        };
        errors.at(
            uri,
            format!("the URI template variable `{variable}` has no parameter: add {example} to the function, or rename a parameter with `#[mcp(rename = \"{variable}\")]`"),
        );
    }
}

/// `header = "..."` names the `Mcp-Param-{name}` header: an HTTP token,
/// used once per tool (ignoring case), or clients must skip the tool.
fn header_names(sig: &FnSignature, errors: &mut Errors) {
    let mut seen = std::collections::HashSet::new();
    for header in sig.params.iter().filter_map(|p| p.header.as_ref()) {
        let name = header.value();
        if !is_header_token(&name) {
            errors.at(
                header,
                format!("`{name}` cannot name an HTTP header: use letters, digits and `-`, e.g. `header = \"Region\"`"),
            );
        } else if !seen.insert(name.to_ascii_lowercase()) {
            errors.at(
                header,
                format!("the header `{name}` is already used by another parameter of this tool (header names ignore case): pick another name"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::has_scheme;

    #[test]
    fn a_scheme_starts_with_a_letter_and_ends_at_the_colon() {
        assert!(has_scheme("notes://{title}"));
        assert!(has_scheme("a+b-c.d:x"));
        assert!(!has_scheme("README.md"));
        assert!(!has_scheme("1notes://x"));
        assert!(!has_scheme("{scheme}://x"));
    }
}
