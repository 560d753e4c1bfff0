//! The 2026-07-28 request metadata headers (`MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name`) checked against the body they mirror: a
//! mismatch is -32020 (HTTP 400), so that a proxy routing on the headers
//! and the server executing the body cannot disagree. `Mcp-Name` mirrors
//! the parameter [`Method::target`] names.

use hyper::HeaderMap;
use hyper::header::HeaderName;
use serde_json::{Map, Value};

use crate::jsonrpc::ErrorObject;
use crate::protocol::META_PROTOCOL_VERSION;
use crate::protocol::Method;
use crate::protocol::headers::{MCP_METHOD, MCP_NAME, MCP_PROTOCOL_VERSION, decode_header_value};

/// Checks the headers of a request whose `_meta` (`meta`) is 2026-07-28's:
/// `name` is its method as received, `method` that method when MCP
/// defines it.
pub(crate) fn check(
    headers: &HeaderMap,
    meta: &Map<String, Value>,
    name: &str,
    method: Option<Method>,
    params: Option<&Value>,
) -> Result<(), ErrorObject> {
    let body_version = meta.get(META_PROTOCOL_VERSION);
    let version = single(headers, MCP_PROTOCOL_VERSION)?;
    if version.is_none() || body_version.and_then(Value::as_str) != version {
        return Err(mismatch(
            "MCP-Protocol-Version",
            version,
            &describe(body_version),
        ));
    }
    let header_method = single(headers, MCP_METHOD)?;
    if header_method != Some(name) {
        return Err(mismatch("Mcp-Method", header_method, name));
    }
    // A body without the target is malformed; routing reports it (-32602).
    let Some(body_name) = method.zip(params).and_then(|(m, p)| m.target_in(p)) else {
        return Ok(());
    };
    let header_name = single(headers, MCP_NAME)?;
    // A malformed encoding decodes to nothing, which matches no name.
    let decoded = header_name.and_then(decode_header_value);
    if decoded.as_deref() != Some(body_name) {
        return Err(mismatch("Mcp-Name", header_name, body_name));
    }
    Ok(())
}

/// The header's value when it appears at most once and is visible ASCII.
fn single(headers: &HeaderMap, name: HeaderName) -> Result<Option<&str>, ErrorObject> {
    let mut values = headers.get_all(&name).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(ErrorObject::header_mismatch(format!(
            "the {name} header appears more than once"
        )));
    }
    value.to_str().map(Some).map_err(|_| {
        ErrorObject::header_mismatch(format!("the {name} header has invalid characters"))
    })
}

fn describe(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => "nothing".to_owned(),
    }
}

fn mismatch(header: &str, value: Option<&str>, body: &str) -> ErrorObject {
    match value {
        Some(value) => ErrorObject::header_mismatch(format!(
            "{header} header value '{value}' does not match body value '{body}'"
        )),
        None => ErrorObject::header_mismatch(format!(
            "the {header} header is missing (body value '{body}')"
        )),
    }
}

#[cfg(test)]
mod tests {
    use hyper::header::{HeaderName, HeaderValue};
    use serde_json::json;

    use super::*;
    use crate::jsonrpc::code;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        map
    }

    fn meta() -> Map<String, Value> {
        let mut meta = Map::new();
        meta.insert(META_PROTOCOL_VERSION.into(), json!("2026-07-28"));
        meta
    }

    /// Checks a request for `method` with `params`, as the server would.
    fn check_as(headers: &HeaderMap, method: &str, params: &Value) -> Result<(), ErrorObject> {
        check(
            headers,
            &meta(),
            method,
            Method::parse(method),
            Some(params),
        )
    }

    fn params(name: &str) -> Value {
        json!({"name": name})
    }

    const OK: [(&str, &str); 3] = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "echo"),
    ];

    #[test]
    fn matching_headers_pass() {
        assert_eq!(
            check_as(&headers(&OK), "tools/call", &params("echo")),
            Ok(())
        );
    }

    #[test]
    fn base64_names_are_decoded() {
        // "Hello, 世界" from the spec's encoding table.
        let h = headers(&[
            OK[0],
            OK[1],
            ("mcp-name", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        ]);
        assert_eq!(check_as(&h, "tools/call", &params("Hello, 世界")), Ok(()));
        let literal = headers(&[
            OK[0],
            OK[1],
            ("mcp-name", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
        ]);
        assert_eq!(
            check_as(&literal, "tools/call", &params("=?base64?literal?=")),
            Ok(())
        );
    }

    #[test]
    fn mismatches_are_32020() {
        let cases: [(&[(&str, &str)], &str); 7] = [
            (&[OK[1], OK[2]], "missing version"),
            (
                &[("mcp-protocol-version", "2025-11-25"), OK[1], OK[2]],
                "version",
            ),
            (&[OK[0], OK[2]], "missing method"),
            (&[OK[0], ("mcp-method", "tools/list"), OK[2]], "method"),
            (&[OK[0], OK[1]], "missing name"),
            (&[OK[0], OK[1], ("mcp-name", "other")], "name"),
            (
                &[OK[0], OK[1], ("mcp-name", "=?base64?ZWNobw?=")],
                "unpadded base64",
            ),
        ];
        for (pairs, case) in cases {
            let error = check_as(&headers(pairs), "tools/call", &params("echo")).unwrap_err();
            assert_eq!(error.code, code::HEADER_MISMATCH, "{case}");
        }
        let twice = headers(&[OK[0], OK[1], OK[2], ("mcp-name", "echo")]);
        assert!(check_as(&twice, "tools/call", &params("echo")).is_err());
    }

    #[test]
    fn task_methods_name_their_task() {
        let task = json!({"taskId": "t-1"});
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            let with = |name: &'static str| {
                let mut map = headers(&[OK[0], ("mcp-name", name)]);
                map.insert("mcp-method", HeaderValue::from_str(method).unwrap());
                map
            };
            assert_eq!(check_as(&with("t-1"), method, &task), Ok(()), "{method}");
            let error = check_as(&with("t-2"), method, &task).unwrap_err();
            assert_eq!(error.code, code::HEADER_MISMATCH, "{method}");
            let mut missing = headers(&[OK[0]]);
            missing.insert("mcp-method", HeaderValue::from_str(method).unwrap());
            assert!(check_as(&missing, method, &task).is_err(), "{method}");
        }
    }
}
