//! Shared by every stage after the envelope: how method parameters are
//! read and how a reply or a handler's panic is expressed.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::jsonrpc::ErrorObject;

/// An encoded result frame, or the error to answer with.
pub(crate) type Reply = Result<Vec<u8>, ErrorObject>;

/// Parses method parameters; absent parameters read as `{}`.
pub(crate) fn parse<T: DeserializeOwned>(params: Option<Value>) -> Result<T, ErrorObject> {
    serde_json::from_value(params.unwrap_or_else(|| Value::Object(Map::new())))
        .map_err(ErrorObject::invalid_params)
}

pub(crate) fn panicked(message: String) -> ErrorObject {
    tracing::error!(%message, "handler panicked");
    ErrorObject::internal(format!("handler panicked: {message}"))
}
