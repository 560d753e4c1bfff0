//! Decoding one incoming JSON-RPC message.

use std::fmt;

use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{ErrorObject, RequestId};

/// A request: it expects exactly one response carrying the same id.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The id to echo in the response.
    pub id: RequestId,
    /// The method name.
    pub method: String,
    /// The parameters, always an object when present.
    pub params: Option<Value>,
}

/// A notification: no id, no response.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    /// The method name.
    pub method: String,
    /// The parameters, always an object when present.
    pub params: Option<Value>,
}

/// A response to a request this side sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The id of the request being answered.
    pub id: RequestId,
    /// The result, or the error the peer returned.
    pub outcome: Result<Value, ErrorObject>,
}

/// Any valid incoming message.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A request expecting a response.
    Request(Request),
    /// A notification.
    Notification(Notification),
    /// A response to one of our requests.
    Response(Response),
}

/// A message that could not be accepted, with the error to send back.
///
/// `id` is the request's id when it could be read, so that the error still
/// reaches the right caller; it is `None` (sent as `null`) otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejected {
    /// The id of the offending request, if it could be read.
    pub id: Option<RequestId>,
    /// What was wrong.
    pub error: ErrorObject,
    /// Whether the message looked like a notification or response, which
    /// must never be answered.
    pub silent: bool,
}

/// Every member is read as a raw value (`jsonrpc` only as whether it is
/// `"2.0"`) so that a wrong type in one member still lets us recover the
/// id for the error response.
#[derive(Deserialize)]
struct RawMessage {
    #[serde(default)]
    jsonrpc: Version2,
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    method: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    params: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    result: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    error: Option<Value>,
}

/// Whether `"jsonrpc"` is the string `"2.0"`, read without copying it
/// (every message has one); absent or any other value is `false`.
#[derive(Default)]
struct Version2(bool);

impl<'de> Deserialize<'de> for Version2 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Version2Visitor).map(Version2)
    }
}

struct Version2Visitor;

impl<'de> Visitor<'de> for Version2Visitor {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, v: &str) -> Result<bool, E> {
        Ok(v == "2.0")
    }

    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
        IgnoredAny.visit_seq(seq).map(|_| false)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<bool, A::Error> {
        IgnoredAny.visit_map(map).map(|_| false)
    }
}

/// Distinguishes a member that is present with `null` from an absent one.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// Decodes one message from its bytes (one stdio line or one HTTP body).
pub fn decode(bytes: &[u8]) -> Result<Incoming, Rejected> {
    // serde would also read a struct from an array; only objects are messages.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        let error = match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
            Ok(_) => ErrorObject::invalid_request("a message must be a single JSON object"),
            Err(e) => ErrorObject::parse_error(e),
        };
        return Err(Rejected {
            id: None,
            error,
            silent: false,
        });
    }
    let raw: RawMessage = serde_json::from_slice(bytes).map_err(|e| {
        let error = if e.is_data() {
            ErrorObject::invalid_request("a message must be a single JSON object")
        } else {
            ErrorObject::parse_error(e)
        };
        Rejected {
            id: None,
            error,
            silent: false,
        }
    })?;

    let id = match raw.id {
        None => None,
        Some(value) => match <RequestId as serde::Deserialize>::deserialize(&value) {
            Ok(id) => Some(id),
            Err(_) => {
                return Err(reject(None, "\"id\" must be a string or an integer", false));
            }
        },
    };

    if !raw.jsonrpc.0 {
        let silent = raw.method.is_none() || id.is_none();
        return Err(reject(id, "\"jsonrpc\" must be \"2.0\"", silent));
    }

    match (raw.method, id) {
        (Some(method), id) => {
            let Value::String(method) = method else {
                return Err(reject(
                    id.clone(),
                    "\"method\" must be a string",
                    id.is_none(),
                ));
            };
            let params = match raw.params {
                None => None,
                Some(params @ Value::Object(_)) => Some(params),
                Some(_) => {
                    let silent = id.is_none();
                    return Err(Rejected {
                        id,
                        error: ErrorObject::invalid_params("\"params\" must be an object"),
                        silent,
                    });
                }
            };
            Ok(match id {
                Some(id) => Incoming::Request(Request { id, method, params }),
                None => Incoming::Notification(Notification { method, params }),
            })
        }
        (None, Some(id)) => {
            let outcome = match (raw.result, raw.error) {
                (Some(result), None) => Ok(result),
                (None, Some(error)) => {
                    // Read from the object itself: a `Value` would add
                    // serde's struct-from-array reader.
                    let read = match &error {
                        Value::Object(object) => {
                            <ErrorObject as serde::Deserialize>::deserialize(object).ok()
                        }
                        _ => None,
                    };
                    match read {
                        Some(error) => Err(error),
                        None => return Err(reject(Some(id), "malformed \"error\" object", true)),
                    }
                }
                _ => {
                    return Err(reject(
                        Some(id),
                        "a response needs exactly one of \"result\" and \"error\"",
                        true,
                    ));
                }
            };
            Ok(Incoming::Response(Response { id, outcome }))
        }
        (None, None) => Err(reject(None, "a message needs \"method\" or \"id\"", false)),
    }
}

fn reject(id: Option<RequestId>, detail: &str, silent: bool) -> Rejected {
    Rejected {
        id,
        error: ErrorObject::invalid_request(detail),
        silent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::code;

    fn rejected(text: &str) -> Rejected {
        decode(text.as_bytes()).expect_err(text)
    }

    #[test]
    fn decodes_request_notification_and_response() {
        let msg = decode(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap();
        assert_eq!(
            msg,
            Incoming::Request(Request {
                id: RequestId::Int(7),
                method: "ping".into(),
                params: None
            })
        );
        let msg = decode(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        assert!(
            matches!(msg, Incoming::Notification(n) if n.method == "notifications/initialized")
        );
        let msg = decode(br#"{"jsonrpc":"2.0","id":"x","result":{}}"#).unwrap();
        assert!(matches!(
            msg,
            Incoming::Response(Response { outcome: Ok(_), .. })
        ));
        let msg =
            decode(br#"{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}"#).unwrap();
        assert!(
            matches!(msg, Incoming::Response(Response { outcome: Err(e), .. }) if e.code == -1)
        );
    }

    #[test]
    fn syntax_errors_are_parse_errors() {
        for text in ["{", "not json", "", "{\"jsonrpc\":\"2.0\",}"] {
            assert_eq!(rejected(text).error.code, code::PARSE_ERROR, "{text}");
        }
        // Invalid UTF-8 inside a string.
        let err = decode(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}").unwrap_err();
        assert_eq!(err.error.code, code::PARSE_ERROR);
    }

    #[test]
    fn wrong_shapes_are_invalid_requests_and_keep_the_id() {
        assert_eq!(rejected("[]").error.code, code::INVALID_REQUEST);
        assert_eq!(
            rejected(r#"["2.0", 1, "ping"]"#).error.code,
            code::INVALID_REQUEST
        );
        assert_eq!(rejected("42").error.code, code::INVALID_REQUEST);
        let r = rejected(r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#);
        assert_eq!(
            (r.id, r.error.code),
            (Some(RequestId::Int(3)), code::INVALID_REQUEST)
        );
        let r = rejected(r#"{"jsonrpc":"2.0","id":"a","method":5}"#);
        assert_eq!(r.id, Some(RequestId::String("a".into())));
        let r = rejected(r#"{"jsonrpc":"2.0","id":4,"method":"x","params":[1]}"#);
        assert_eq!(
            (r.id, r.error.code),
            (Some(RequestId::Int(4)), code::INVALID_PARAMS)
        );
    }

    #[test]
    fn any_jsonrpc_but_the_string_2_0_is_refused_by_name_and_keeps_the_id() {
        for version in [
            r#""1.0""#,
            r#""2.0 ""#,
            "2.0",
            "2",
            "-2",
            "true",
            "null",
            r#"["2.0"]"#,
            r#"{"v":["2.0",{"w":null}]}"#,
        ] {
            let text = format!(r#"{{"jsonrpc":{version},"id":9,"method":"ping"}}"#);
            let r = rejected(&text);
            assert_eq!(r.id, Some(RequestId::Int(9)), "{text}");
            assert_eq!(r.error.code, code::INVALID_REQUEST, "{text}");
            assert!(r.error.message.contains("\"jsonrpc\""), "{text}");
        }
        let r = rejected(r#"{"id":9,"method":"ping"}"#);
        assert!(r.error.message.contains("\"jsonrpc\""));
        // Written with an escape, it is still the string "2.0".
        assert!(decode(br#"{"jsonrpc":"2\u002e0","id":9,"method":"ping"}"#).is_ok());
    }

    #[test]
    fn null_bool_and_fractional_ids_are_invalid() {
        for id in ["null", "true", "1.5"] {
            let r = rejected(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
            assert_eq!((r.id, r.error.code), (None, code::INVALID_REQUEST), "{id}");
        }
    }

    #[test]
    fn broken_notifications_are_silent() {
        assert!(rejected(r#"{"jsonrpc":"2.0","method":1}"#).silent);
        assert!(rejected(r#"{"jsonrpc":"2.0","method":"x","params":3}"#).silent);
    }
}
