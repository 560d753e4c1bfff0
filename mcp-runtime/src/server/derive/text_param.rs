//! Parameters of macro-built resources and prompts, whose values arrive as
//! strings (URI template variables, prompt arguments). Chosen by trait with
//! the same autoref ladder as tool parameters (see `signature.rs`):
//!
//! 1. a [`FromRequestContext`] type is context;
//! 2. `Option<T>` with `T: FromStr` is an optional value;
//! 3. `T: FromStr` is a required value;
//! 4. anything else is a compile error.
//!
//! The macros bring only the rungs that apply into scope: a template
//! variable has no context rung, a query variable no required rung, and a
//! resource parameter that is not a template variable only the context rung,
//! so each mistake reaches its own explaining trait.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::marker::PhantomData;
use std::str::FromStr;

use super::extract::FromRequestContext;
use crate::jsonrpc::ErrorObject;
use crate::server::RequestContext;

/// Where one parameter's value comes from.
pub struct TextSpec<T> {
    source: TextSource<T>,
}

enum TextSource<T> {
    Context(fn(&RequestContext) -> T),
    Value {
        required: bool,
        parse: fn(Option<&str>) -> Result<T, String>,
    },
}

impl<T> Clone for TextSpec<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TextSpec<T> {}

impl<T> Clone for TextSource<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TextSource<T> {}

impl<T> TextSpec<T> {
    /// Whether the client supplies the value (rather than the context).
    pub fn is_argument(&self) -> bool {
        matches!(self.source, TextSource::Value { .. })
    }

    /// Whether the client must supply the value.
    pub fn is_required(&self) -> bool {
        matches!(self.source, TextSource::Value { required: true, .. })
    }

    /// The parameter's value for one request: `values` are the template
    /// variables or prompt arguments.
    pub fn extract(
        &self,
        context: &RequestContext,
        values: &BTreeMap<String, String>,
        name: &str,
    ) -> Result<T, ErrorObject> {
        match &self.source {
            TextSource::Context(from_context) => Ok(from_context(context)),
            TextSource::Value { parse, .. } => parse(values.get(name).map(String::as_str))
                .map_err(|e| ErrorObject::invalid_params(format!("`{name}`: {e}"))),
        }
    }
}

fn required<T: FromStr<Err: Display>>(value: Option<&str>) -> Result<T, String> {
    value
        .ok_or_else(|| "missing".to_owned())?
        .parse()
        .map_err(|e: T::Err| e.to_string())
}

fn optional<T: FromStr<Err: Display>>(value: Option<&str>) -> Result<Option<T>, String> {
    value.map(|v| required(Some(v))).transpose()
}

/// Names the type of one parameter for the ladder.
pub struct Text<T>(PhantomData<fn() -> T>);

impl<T> Text<T> {
    /// The marker for `T`.
    pub fn new() -> Self {
        Text(PhantomData)
    }
}

impl<T> Default for Text<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Rung 1: context parameters.
pub trait ContextText<T> {
    /// The spec of a context parameter.
    fn spec(&self) -> TextSpec<T>;
}

impl<T: FromRequestContext> ContextText<T> for &&&Text<T> {
    fn spec(&self) -> TextSpec<T> {
        TextSpec {
            source: TextSource::Context(T::from_request_context),
        }
    }
}

/// Rung 2: optional values.
pub trait OptionalText<T> {
    /// The spec of an optional value.
    fn spec(&self) -> TextSpec<T>;
}

impl<T: FromStr<Err: Display>> OptionalText<Option<T>> for &&Text<Option<T>> {
    fn spec(&self) -> TextSpec<Option<T>> {
        TextSpec {
            source: TextSource::Value {
                required: false,
                parse: optional::<T>,
            },
        }
    }
}

/// Rung 3: required values.
pub trait RequiredText<T> {
    /// The spec of a required value.
    fn spec(&self) -> TextSpec<T>;
}

impl<T: FromStr<Err: Display>> RequiredText<T> for &Text<T> {
    fn spec(&self) -> TextSpec<T> {
        TextSpec {
            source: TextSource::Value {
                required: true,
                parse: required::<T>,
            },
        }
    }
}

/// Explains a prompt argument or template variable type that cannot be
/// parsed from a string. Nothing implements it: reaching it is the error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a prompt argument or URI template variable",
    label = "not parsed from a string",
    note = "prompt arguments and URI template variables are strings: use `String`, `Option<String>`, or a type that implements `std::str::FromStr` (with a `Display` error)",
    note = "a context type (taken from the request, not the client's values) must implement `mcp_toolkit_runtime::server::FromRequestContext`"
)]
pub trait TextParam: Sized {
    /// Never called.
    fn spec() -> TextSpec<Self>;
}

/// Rung 4: the error.
pub trait UnsupportedText<T> {
    /// Fails to compile with [`TextParam`]'s explanation.
    fn spec(&self) -> TextSpec<T>
    where
        T: TextParam;
}

impl<T> UnsupportedText<T> for Text<T> {
    fn spec(&self) -> TextSpec<T>
    where
        T: TextParam,
    {
        T::spec()
    }
}

/// Explains a required parameter bound to a query variable. Nothing
/// implements it: reaching it is the error.
#[diagnostic::on_unimplemented(
    message = "a query variable may be absent from the URI, so `{Self}` cannot hold it",
    label = "make this parameter an `Option`",
    note = "variables in `{{?name}}` or `{{&name}}` are optional in a URI: take `Option<{Self}>`, or move the variable into the path (`{{name}}`)"
)]
pub trait QueryParam: Sized {
    /// Never called.
    fn spec() -> TextSpec<Self>;
}

/// The error rung for query variables.
pub trait RequiredQueryText<T> {
    /// Fails to compile with [`QueryParam`]'s explanation.
    fn spec(&self) -> TextSpec<T>
    where
        T: QueryParam;
}

impl<T> RequiredQueryText<T> for &Text<T> {
    fn spec(&self) -> TextSpec<T>
    where
        T: QueryParam,
    {
        T::spec()
    }
}

/// Explains a resource parameter that is neither a template variable nor
/// request context. Nothing implements it: reaching it is the error.
#[diagnostic::on_unimplemented(
    message = "this `{Self}` parameter is not a variable of the resource's URI template",
    label = "no `{{...}}` in the URI template has this name",
    note = "add the variable to the URI template (`{{name}}` in the path, or `{{?name}}` for an `Option` parameter), or rename the parameter with `#[mcp(rename = \"...\")]` to match one",
    note = "only request context (types implementing `mcp_toolkit_runtime::server::FromRequestContext`) may be left out of the template"
)]
pub trait UnboundParam: Sized {
    /// Never called.
    fn spec() -> TextSpec<Self>;
}

/// The error rung for resource parameters outside the template.
pub trait UnboundText<T> {
    /// Fails to compile with [`UnboundParam`]'s explanation.
    fn spec(&self) -> TextSpec<T>
    where
        T: UnboundParam;
}

impl<T> UnboundText<T> for Text<T> {
    fn spec(&self) -> TextSpec<T>
    where
        T: UnboundParam,
    {
        T::spec()
    }
}
