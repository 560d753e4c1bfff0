//! Encoding outgoing JSON-RPC messages straight to bytes.
//!
//! Results are serialized once, from their typed form, into the frame that
//! goes on the wire; no intermediate `serde_json::Value` is built.

use serde::Serialize;

use super::{ErrorObject, RequestId};

/// Room for a typical frame, so that writing one grows the buffer at most
/// once or twice instead of doubling it up from nothing (each growth is a
/// reallocation and a copy).
const FRAME_CAPACITY: usize = 256;

/// `frame` as JSON bytes.
fn encode<F: Serialize>(frame: &F) -> serde_json::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(FRAME_CAPACITY);
    serde_json::to_writer(&mut bytes, frame)?;
    Ok(bytes)
}

#[derive(Serialize)]
struct ResultFrame<'a, R> {
    jsonrpc: &'static str,
    id: &'a RequestId,
    result: &'a R,
}

#[derive(Serialize)]
struct ErrorFrame<'a> {
    jsonrpc: &'static str,
    id: Option<&'a RequestId>,
    error: &'a ErrorObject,
}

#[derive(Serialize)]
struct MessageFrame<'a, P> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RequestId>,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a P>,
}

/// A success response. A result that cannot be serialized (a map with
/// non-string keys, say) becomes an internal error for the same id.
pub fn result_frame<R: Serialize>(id: &RequestId, result: &R) -> Vec<u8> {
    let frame = ResultFrame {
        jsonrpc: "2.0",
        id,
        result,
    };
    encode(&frame).unwrap_or_else(|e| {
        error_frame(
            Some(id),
            &ErrorObject::internal(format!("result not serializable: {e}")),
        )
    })
}

/// A success response whose result `write` appends as JSON text: for
/// results assembled from JSON serialized earlier (a listing's entries),
/// which no `Serialize` type can carry without serde_json's `raw_value`.
pub(crate) fn written_result_frame(id: &RequestId, write: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(FRAME_CAPACITY);
    bytes.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    serde_json::to_writer(&mut bytes, id).expect("a request id always serializes");
    bytes.extend_from_slice(br#","result":"#);
    write(&mut bytes);
    bytes.push(b'}');
    bytes
}

/// An error response; `id` is `None` (sent as `null`) when the request's id
/// could not be read.
pub fn error_frame(id: Option<&RequestId>, error: &ErrorObject) -> Vec<u8> {
    let frame = ErrorFrame {
        jsonrpc: "2.0",
        id,
        error,
    };
    encode(&frame).expect("an error object always serializes")
}

/// A notification.
pub fn notification_frame<P: Serialize>(method: &str, params: Option<&P>) -> Vec<u8> {
    let frame = MessageFrame {
        jsonrpc: "2.0",
        id: None,
        method,
        params,
    };
    encode(&frame).expect("notification params always serialize")
}

/// A request.
pub fn request_frame<P: Serialize>(id: &RequestId, method: &str, params: Option<&P>) -> Vec<u8> {
    let frame = MessageFrame {
        jsonrpc: "2.0",
        id: Some(id),
        method,
        params,
    };
    encode(&frame).expect("request params always serialize")
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde_json::json;

    use super::*;

    #[test]
    fn frames_have_the_jsonrpc_shape() {
        let id = RequestId::UInt(u64::MAX);
        let frame = result_frame(&id, &json!({"ok": true}));
        assert_eq!(
            std::str::from_utf8(&frame).unwrap(),
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"result":{"ok":true}}"#
        );
        let frame = error_frame(None, &ErrorObject::new(-32700, "bad"));
        assert_eq!(
            std::str::from_utf8(&frame).unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#
        );
        let frame = notification_frame::<()>("notifications/initialized", None);
        assert_eq!(
            std::str::from_utf8(&frame).unwrap(),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        );
    }

    #[test]
    fn unserializable_result_becomes_internal_error() {
        let mut bad = HashMap::new();
        bad.insert((1, 2), 3);
        let frame: serde_json::Value =
            serde_json::from_slice(&result_frame(&7.into(), &bad)).unwrap();
        assert_eq!(frame["id"], 7);
        assert_eq!(frame["error"]["code"], -32603);
    }
}
