//! How the macros turn a function signature into a handler, by trait
//! (autoref specialization: the first matching impl of the `&&&&`, `&&&`,
//! `&&`, `&` ladder wins), never by the spelling of a type.
//!
//! Parameters: a [`FromRequestContext`] type is context; `Option<T>` of a
//! `Deserialize + JsonSchema` type is an optional argument; any other
//! `Deserialize + JsonSchema` type is a required argument; anything else is
//! a compile error explained by [`ToolParam`].
//!
//! Results: an [`IntoToolResult`] type converts as it is; `Result<T, E>` and
//! plain `T` with `T: Serialize + JsonSchema` give structured output; anything
//! else is a compile error explained by [`ToolReturn`].

use std::fmt::Display;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::extract::FromRequestContext;
use super::into_result::IntoToolResult;
use crate::protocol::CallToolResult;
use crate::server::registry::tool_schema::{
    InputSchema, OutputSchema, PropertySchema, SchemaProfile, output_schema_of, schema_of,
};
use crate::server::{RequestContext, ToolCall, ToolError, ToolOutcome};

/// Where one parameter's value comes from.
pub struct ParamSpec<T> {
    source: Source<T>,
}

enum Source<T> {
    Context(fn(&RequestContext) -> T),
    Argument {
        property: PropertySchema,
        deserialize: fn(&Value) -> Result<T, serde_json::Error>,
    },
}

impl<T> Clone for ParamSpec<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ParamSpec<T> {}

impl<T> Clone for Source<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Source<T> {}

impl Clone for PropertySchema {
    fn clone(&self) -> Self {
        *self
    }
}

impl Copy for PropertySchema {}

impl<T> ParamSpec<T> {
    /// Adds the parameter to `input` as `name` when it is an argument.
    pub fn describe(
        &self,
        input: &mut InputSchema,
        name: &str,
        description: Option<&str>,
        header: Option<&str>,
    ) {
        if let Source::Argument { property, .. } = &self.source {
            input.property(name, property, description, header);
        }
    }

    /// The parameter's value for one call.
    pub fn extract(&self, call: &ToolCall, name: &str) -> Result<T, ToolError> {
        match &self.source {
            Source::Context(from_context) => Ok(from_context(call.context())),
            Source::Argument { deserialize, .. } => {
                let value = call.arguments().get(name).unwrap_or(&Value::Null);
                deserialize(value).map_err(|e| ToolError::new(format!("argument `{name}`: {e}")))
            }
        }
    }
}

fn deserialize<T: DeserializeOwned>(value: &Value) -> Result<T, serde_json::Error> {
    T::deserialize(value)
}

/// Names the type of one parameter for the specialization ladder.
pub struct Param<T>(PhantomData<fn() -> T>);

impl<T> Param<T> {
    /// The marker for `T`.
    pub fn new() -> Self {
        Param(PhantomData)
    }
}

impl<T> Default for Param<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Rung 1: context parameters.
pub trait ContextParam<T> {
    /// The spec of a context parameter.
    fn spec(&self) -> ParamSpec<T>;
}

impl<T: FromRequestContext> ContextParam<T> for &&&Param<T> {
    fn spec(&self) -> ParamSpec<T> {
        ParamSpec {
            source: Source::Context(T::from_request_context),
        }
    }
}

/// Rung 2: optional arguments.
pub trait OptionalParam<T> {
    /// The spec of an optional argument.
    fn spec(&self) -> ParamSpec<T>;
}

impl<T: DeserializeOwned + JsonSchema> OptionalParam<Option<T>> for &&Param<Option<T>> {
    fn spec(&self) -> ParamSpec<Option<T>> {
        ParamSpec {
            source: Source::Argument {
                property: PropertySchema {
                    schema: schema_of::<Option<T>>,
                    required: false,
                },
                deserialize: deserialize::<Option<T>>,
            },
        }
    }
}

/// Rung 3: required arguments.
pub trait RequiredParam<T> {
    /// The spec of a required argument.
    fn spec(&self) -> ParamSpec<T>;
}

impl<T: DeserializeOwned + JsonSchema> RequiredParam<T> for &Param<T> {
    fn spec(&self) -> ParamSpec<T> {
        ParamSpec {
            source: Source::Argument {
                property: PropertySchema {
                    schema: schema_of::<T>,
                    required: true,
                },
                deserialize: deserialize::<T>,
            },
        }
    }
}

/// Explains a parameter type that is neither context nor argument.
/// Nothing implements it: reaching it is the error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a parameter of an MCP function",
    label = "neither an argument nor request context",
    note = "an argument type must implement `serde::Deserialize` and `schemars::JsonSchema`: add `#[derive(Deserialize, JsonSchema)]` to it (owned types only: `String`, not `&str`)",
    note = "a context type must implement `mcp_toolkit_runtime::server::FromRequestContext`"
)]
pub trait ToolParam: Sized {
    /// Never called.
    fn spec() -> ParamSpec<Self>;
}

/// Rung 4: the error.
pub trait UnsupportedParam<T> {
    /// Fails to compile with [`ToolParam`]'s explanation.
    fn spec(&self) -> ParamSpec<T>
    where
        T: ToolParam;
}

impl<T> UnsupportedParam<T> for Param<T> {
    fn spec(&self) -> ParamSpec<T>
    where
        T: ToolParam,
    {
        T::spec()
    }
}

/// How a return value becomes a result, and its output schema if any.
pub struct ReturnSpec<R> {
    convert: fn(R, bool) -> ToolOutcome,
    output_schema: Option<fn(SchemaProfile) -> OutputSchema>,
}

impl<R> Clone for ReturnSpec<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for ReturnSpec<R> {}

impl<R> ReturnSpec<R> {
    /// The output schema for `profile`, when the result is structured.
    pub fn output_schema(&self, profile: SchemaProfile) -> Option<OutputSchema> {
        self.output_schema.map(|schema| schema(profile))
    }

    /// Converts a return value; `wrapped` comes from the output schema.
    pub fn convert(&self, value: R, wrapped: bool) -> ToolOutcome {
        (self.convert)(value, wrapped)
    }
}

/// Names the return type for the specialization ladder.
pub struct Ret<R>(PhantomData<fn() -> R>);

impl<R> Ret<R> {
    /// The marker for `R`.
    pub fn new() -> Self {
        Ret(PhantomData)
    }
}

impl<R> Default for Ret<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// Rung 1: values that convert as they are.
pub trait PlainReturn<R> {
    /// The spec of an unstructured result.
    fn spec(&self) -> ReturnSpec<R>;
}

impl<R: IntoToolResult> PlainReturn<R> for &&&Ret<R> {
    fn spec(&self) -> ReturnSpec<R> {
        ReturnSpec {
            convert: |value, _| value.into_tool_result(),
            output_schema: None,
        }
    }
}

/// Rung 2: `Result` of structured output.
pub trait FallibleStructuredReturn<R> {
    /// The spec of a fallible structured result.
    fn spec(&self) -> ReturnSpec<R>;
}

impl<T: Serialize + JsonSchema, E: Display> FallibleStructuredReturn<Result<T, E>>
    for &&Ret<Result<T, E>>
{
    fn spec(&self) -> ReturnSpec<Result<T, E>> {
        ReturnSpec {
            convert: |value, wrapped| match value {
                Ok(value) => structured(&value, wrapped),
                Err(error) => Ok(CallToolResult::error(error.to_string())),
            },
            output_schema: Some(output_schema_of::<T>),
        }
    }
}

/// Rung 3: structured output.
pub trait StructuredReturn<R> {
    /// The spec of a structured result.
    fn spec(&self) -> ReturnSpec<R>;
}

impl<R: Serialize + JsonSchema> StructuredReturn<R> for &Ret<R> {
    fn spec(&self) -> ReturnSpec<R> {
        ReturnSpec {
            convert: |value, wrapped| structured(&value, wrapped),
            output_schema: Some(output_schema_of::<R>),
        }
    }
}

fn structured<T: Serialize>(value: &T, wrapped: bool) -> ToolOutcome {
    if wrapped {
        CallToolResult::structured(&serde_json::json!({ "result": value }))
    } else {
        CallToolResult::structured(value)
    }
}

/// Explains a return type that cannot become a tool result. Nothing
/// implements it: reaching it is the error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP tool",
    label = "not convertible into a tool result",
    note = "return a type that implements `serde::Serialize` and `schemars::JsonSchema` (structured output), `String`, content blocks, `CallToolResult`, or any `mcp_toolkit_runtime::server::IntoToolResult` type",
    note = "in `Result<T, E>`, `T` must be one of those and `E` must implement `std::fmt::Display`"
)]
pub trait ToolReturn: Sized {
    /// Never called.
    fn spec() -> ReturnSpec<Self>;
}

/// Rung 4: the error.
pub trait UnsupportedReturn<R> {
    /// Fails to compile with [`ToolReturn`]'s explanation.
    fn spec(&self) -> ReturnSpec<R>
    where
        R: ToolReturn;
}

impl<R> UnsupportedReturn<R> for Ret<R> {
    fn spec(&self) -> ReturnSpec<R>
    where
        R: ToolReturn,
    {
        R::spec()
    }
}

/// Types an `x-mcp-header` parameter may have: headers carry one scalar.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be mirrored into an HTTP header",
    label = "`header` needs a string, number or boolean parameter",
    note = "remove `header` from `#[mcp(...)]`, or give the parameter a primitive type (`String`, integers, floats, `bool`, or an `Option` of one)"
)]
pub trait HeaderValue {}

macro_rules! header_values {
    ($($t:ty),*) => {$(
        impl HeaderValue for $t {}
        impl HeaderValue for Option<$t> {}
    )*};
}

header_values!(
    String, bool, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

/// Fails to compile unless `T` can be a header value.
pub fn assert_header_value<T: HeaderValue>() {}
