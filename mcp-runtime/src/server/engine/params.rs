//! Shared by every stage after the envelope: how method parameters are
//! read and how a reply or a handler's panic is expressed.

use std::future::Future;
use std::pin::Pin;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::jsonrpc::ErrorObject;
use crate::protocol::InputResponses;

/// An encoded result frame, or the error to answer with.
pub(crate) type Reply = Result<Vec<u8>, ErrorObject>;

/// A [`Reply`] being made, boxed, borrowing the server for the request.
pub(crate) type PendingReply<'a> = Pin<Box<dyn Future<Output = Reply> + Send + 'a>>;

/// Parses method parameters; absent parameters read as `{}`. The envelope
/// let only objects through (MCP's parameters are named, never by
/// position). Read from a borrowed map, the one way the server reads JSON
/// into a type: each way is compiled once per type read (the owned one
/// would double that code, 139 KB of a minimal server; a borrowed `Value`
/// adds serde's struct-from-array reader, 26 KB).
pub(crate) fn parse<T: DeserializeOwned>(params: Option<Value>) -> Result<T, ErrorObject> {
    match params {
        None => T::deserialize(&Map::new()),
        Some(Value::Object(object)) => T::deserialize(&object),
        Some(_) => return Err(ErrorObject::invalid_params("\"params\" must be an object")),
    }
    .map_err(ErrorObject::invalid_params)
}

/// Takes `member` out of object parameters, so that a large member (a
/// call's arguments) is moved rather than copied by [`parse`]: `null` or
/// absent is `None`, anything but an object is -32602.
pub(crate) fn take_object(
    params: &mut Option<Value>,
    member: &str,
) -> Result<Option<Map<String, Value>>, ErrorObject> {
    match params
        .as_mut()
        .and_then(Value::as_object_mut)
        .and_then(|object| object.remove(member))
    {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(object)) => Ok(Some(object)),
        Some(_) => Err(ErrorObject::invalid_params(format!(
            "\"{member}\" must be an object"
        ))),
    }
}

/// Takes a request's `inputResponses` out of its parameters, so that the
/// answers (a sampling answer may carry images) are moved, not copied by
/// [`parse`]; each is read only if its question is asked again.
pub(crate) fn take_input_responses(
    params: &mut Option<Value>,
) -> Result<Option<InputResponses>, ErrorObject> {
    Ok(take_object(params, "inputResponses")?.map(InputResponses::from))
}

/// -32603 for a request whose handler, or anything polled for it, panicked
/// (caught around the handler, a middleware layer, or by the transport for
/// a panic outside those). The panic's message goes to the server's log
/// only: it may hold what the server must not tell a client (`unwrap` on an
/// error that names a connection string, say).
pub(crate) fn panicked(message: String) -> ErrorObject {
    tracing::error!(%message, "handler panicked");
    ErrorObject::internal("the handler panicked; the server's log has why")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_object_member_is_moved_out_and_anything_else_but_null_is_invalid_params() {
        let mut params = Some(json!({"name": "t", "arguments": {"a": 1}}));
        let taken = take_object(&mut params, "arguments").unwrap();
        assert_eq!(taken, json!({"a": 1}).as_object().cloned());
        assert_eq!(params, Some(json!({"name": "t"})));

        for absent in [None, Some(json!({})), Some(json!({"arguments": null}))] {
            let mut params = absent;
            assert_eq!(take_object(&mut params, "arguments").unwrap(), None);
        }
        let mut params = Some(json!({"arguments": [1]}));
        let error = take_object(&mut params, "arguments").unwrap_err();
        assert_eq!(error.code, -32602);
        assert!(error.message.contains("\"arguments\" must be an object"));
    }

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Named {
        #[serde(default)]
        name: String,
    }

    #[test]
    fn parameters_read_by_name_absent_ones_as_empty_and_a_list_is_invalid_params() {
        let read: Named = parse(Some(json!({"name": "t"}))).unwrap();
        assert_eq!(read.name, "t");
        let read: Named = parse(None).unwrap();
        assert_eq!(
            read,
            Named {
                name: String::new()
            }
        );
        for positional in [json!(["t"]), json!("t"), json!(1)] {
            let error = parse::<Named>(Some(positional)).unwrap_err();
            assert_eq!(error.code, -32602);
            assert!(error.message.contains("\"params\" must be an object"));
        }
        let error = parse::<Named>(Some(json!({"name": 1}))).unwrap_err();
        assert_eq!(error.code, -32602);
    }
}
