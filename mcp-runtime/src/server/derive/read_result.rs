//! Conversion of a resource function's return value into a `resources/read`
//! result: text, binary (base64 `blob`) or JSON bodies, chosen by type.

use std::any::Any;
use std::fmt::Display;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;

use crate::jsonrpc::ErrorObject;
use crate::protocol::{BlobResourceContents, ReadResourceResult, ResourceContents};
use crate::server::ReadOutcome;

/// A value a resource function can return.
///
/// | type | body | MIME type unless the attribute sets one |
/// | --- | --- | --- |
/// | `String`, `&'static str` | `text` | `text/plain` |
/// | `Vec<u8>` | `blob` (base64) | `application/octet-stream` |
/// | [`Json<T>`] | `text`, `T` as JSON | `application/json` |
/// | `ResourceContents`, `Vec<ResourceContents>`, `ReadResourceResult` | as given | none |
/// | `Option<T>` | `None` is "resource not found" | `T`'s |
/// | `Result<T, E>` | `Err` is an error response | `T`'s |
///
/// In `Result<T, E>`, an [`ErrorObject`] error is sent as it is; any other
/// `E: Display` becomes an internal error (-32603) with its message.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP resource",
    label = "not convertible into resource contents",
    note = "return `String` (text), `Vec<u8>` (binary), `mcp_toolkit_runtime::server::Json<T>` (JSON), `ResourceContents`, `ReadResourceResult`, or an `Option` / `Result` of one"
)]
pub trait IntoReadResult {
    /// The MIME type listed and sent when the attribute names none.
    const MIME_TYPE: Option<&'static str>;

    /// Converts the value read from `uri`; `mime_type` is the one to send.
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> ReadOutcome;
}

/// A JSON body: `T` serialized as the `text` of the contents, listed as
/// `application/json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

fn result(contents: Vec<ResourceContents>) -> ReadResourceResult {
    ReadResourceResult {
        contents,
        result_type: None,
        ttl_ms: None,
        cache_scope: None,
        meta: None,
    }
}

fn text(uri: &str, mime_type: Option<&str>, text: String) -> ReadOutcome {
    Ok(ReadResourceResult::text(uri, mime_type, text))
}

impl IntoReadResult for String {
    const MIME_TYPE: Option<&'static str> = Some("text/plain");

    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> ReadOutcome {
        text(uri, mime_type, self)
    }
}

impl IntoReadResult for &'static str {
    const MIME_TYPE: Option<&'static str> = Some("text/plain");

    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> ReadOutcome {
        text(uri, mime_type, self.to_owned())
    }
}

impl IntoReadResult for Vec<u8> {
    const MIME_TYPE: Option<&'static str> = Some("application/octet-stream");

    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> ReadOutcome {
        Ok(result(vec![ResourceContents::Blob(BlobResourceContents {
            uri: uri.to_owned(),
            mime_type: mime_type.map(str::to_owned),
            blob: STANDARD.encode(self),
            meta: None,
        })]))
    }
}

impl<T: Serialize> IntoReadResult for Json<T> {
    const MIME_TYPE: Option<&'static str> = Some("application/json");

    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> ReadOutcome {
        let body = serde_json::to_string(&self.0)
            .map_err(|e| ErrorObject::internal(format!("resource not serializable: {e}")))?;
        text(uri, mime_type, body)
    }
}

impl IntoReadResult for ResourceContents {
    const MIME_TYPE: Option<&'static str> = None;

    fn into_read_result(self, _uri: &str, _mime_type: Option<&str>) -> ReadOutcome {
        Ok(result(vec![self]))
    }
}

impl IntoReadResult for Vec<ResourceContents> {
    const MIME_TYPE: Option<&'static str> = None;

    fn into_read_result(self, _uri: &str, _mime_type: Option<&str>) -> ReadOutcome {
        Ok(result(self))
    }
}

impl IntoReadResult for ReadResourceResult {
    const MIME_TYPE: Option<&'static str> = None;

    fn into_read_result(self, _uri: &str, _mime_type: Option<&str>) -> ReadOutcome {
        Ok(self)
    }
}

/// `None`: nothing exists at this URI (the template matched, the item did
/// not).
impl<T: IntoReadResult> IntoReadResult for Option<T> {
    const MIME_TYPE: Option<&'static str> = T::MIME_TYPE;

    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> ReadOutcome {
        match self {
            Some(value) => value.into_read_result(uri, mime_type),
            None => Err(ErrorObject::resource_not_found(uri)),
        }
    }
}

impl<T: IntoReadResult, E: Display + 'static> IntoReadResult for Result<T, E> {
    const MIME_TYPE: Option<&'static str> = T::MIME_TYPE;

    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> ReadOutcome {
        self.map_err(handler_error)?
            .into_read_result(uri, mime_type)
    }
}

/// The error response for a resource or prompt function's `Err`: an
/// [`ErrorObject`] as it is, anything else as an internal error.
pub(crate) fn handler_error<E: Display + 'static>(error: E) -> ErrorObject {
    match (&error as &dyn Any).downcast_ref::<ErrorObject>() {
        Some(object) => object.clone(),
        None => ErrorObject::internal(error),
    }
}

/// How a resource function's return type `R` becomes a read result; used
/// by `#[mcp_resource]`.
pub struct ReadSpec<R> {
    mime_type: Option<&'static str>,
    convert: fn(R, &str, Option<&str>) -> ReadOutcome,
}

impl<R> Clone for ReadSpec<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for ReadSpec<R> {}

/// The spec of `R`; naming it for a type that is no resource body is the
/// compile error explained by [`IntoReadResult`].
pub fn read_spec<R: IntoReadResult>() -> ReadSpec<R> {
    ReadSpec {
        mime_type: R::MIME_TYPE,
        convert: R::into_read_result,
    }
}

impl<R> ReadSpec<R> {
    /// The MIME type `R` implies.
    pub fn mime_type(&self) -> Option<&'static str> {
        self.mime_type
    }

    /// Converts the value read from `uri`.
    pub fn convert(&self, value: R, uri: &str, mime_type: Option<&str>) -> ReadOutcome {
        (self.convert)(value, uri, mime_type)
    }
}
