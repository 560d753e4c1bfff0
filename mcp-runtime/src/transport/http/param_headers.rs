//! `Mcp-Param-*` headers (2026-07-28): a tool whose input schema marks a
//! property with `x-mcp-header: NAME` has that argument mirrored into the
//! header `Mcp-Param-NAME` of every `tools/call`, so that a proxy can route
//! on it. The header and the argument must agree: both absent (a `null`
//! argument counts as absent), or the header, after `=?base64?...?=`
//! decoding, equal to the argument read as the property's type (`42`,
//! `true`). Anything else is -32020 with HTTP 400.

use hyper::HeaderMap;
use hyper::header::HeaderName;
use serde_json::Value;

use super::metadata::decode_value;
use crate::jsonrpc::ErrorObject;

/// The property key that names a header.
const X_MCP_HEADER: &str = "x-mcp-header";

/// Checks the `Mcp-Param-*` headers of a call with `arguments` against the
/// tool's input `schema`.
pub(super) fn check(
    headers: &HeaderMap,
    schema: &Value,
    arguments: Option<&Value>,
) -> Result<(), ErrorObject> {
    let mut marked = Vec::new();
    collect(schema, arguments, &mut marked);
    for (header, property, argument) in marked {
        let Ok(name) = HeaderName::try_from(format!("mcp-param-{header}")) else {
            continue; // Not a header name: no client can send it.
        };
        let shown = format!("Mcp-Param-{header}");
        let mut values = headers.get_all(&name).iter();
        let (value, repeated) = (values.next(), values.next().is_some());
        if repeated {
            return Err(mismatch(format!(
                "the {shown} header appears more than once"
            )));
        }
        let argument = argument.filter(|a| !a.is_null());
        let (value, argument) = match (value, argument) {
            (None, None) => continue,
            (Some(_), None) => {
                return Err(mismatch(format!(
                    "the {shown} header is present but the argument is absent"
                )));
            }
            (None, Some(_)) => {
                return Err(mismatch(format!(
                    "the {shown} header is missing but the argument is present"
                )));
            }
            (Some(value), Some(argument)) => (value, argument),
        };
        let decoded = value.to_str().ok().and_then(decode_value);
        let Some(decoded) = decoded else {
            return Err(mismatch(format!(
                "the {shown} header is not visible ASCII or not valid Base64"
            )));
        };
        if !matches(property.get("type"), argument, &decoded) {
            return Err(mismatch(format!(
                "the {shown} header value '{decoded}' does not match the argument {argument}"
            )));
        }
    }
    Ok(())
}

/// Every property marked with a header, reached through `properties` only,
/// with the argument at the same place.
fn collect<'a>(
    schema: &'a Value,
    arguments: Option<&'a Value>,
    marked: &mut Vec<(&'a str, &'a Value, Option<&'a Value>)>,
) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (key, property) in properties {
        let argument = arguments.and_then(|a| a.get(key));
        match property.get(X_MCP_HEADER).and_then(Value::as_str) {
            Some(header) => marked.push((header, property, argument)),
            None => collect(property, argument, marked),
        }
    }
}

/// Whether the decoded header text is the argument, read as `kind`.
fn matches(kind: Option<&Value>, argument: &Value, text: &str) -> bool {
    match (kind.and_then(Value::as_str), argument) {
        (Some("integer"), Value::Number(number)) => {
            let header = text
                .split_once('.')
                .filter(|(_, fraction)| !fraction.is_empty() && fraction.bytes().all(|b| b == b'0'))
                .map_or(text, |(whole, _)| whole)
                .parse::<i128>();
            let body = number
                .as_i64()
                .map(i128::from)
                .or_else(|| number.as_u64().map(i128::from))
                .or_else(|| {
                    number
                        .as_f64()
                        .filter(|f| f.fract() == 0.0)
                        .map(|f| f as i128)
                });
            matches!((header, body), (Ok(h), Some(b)) if h == b)
        }
        (_, Value::Bool(flag)) => text == if *flag { "true" } else { "false" },
        (_, Value::String(string)) => text == string,
        (_, Value::Number(number)) => text == number.to_string(),
        _ => false,
    }
}

fn mismatch(detail: String) -> ErrorObject {
    ErrorObject::header_mismatch(detail)
}

#[cfg(test)]
mod tests {
    use hyper::header::HeaderValue;
    use serde_json::json;

    use super::*;
    use crate::jsonrpc::code;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "days": {"type": "integer", "x-mcp-header": "Days"},
            "exact": {"type": "boolean", "x-mcp-header": "Exact"},
            "note": {"type": "string"},
            "where": {"type": "object", "properties": {
                "city": {"type": "string", "x-mcp-header": "City"}
            }}
        }})
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    fn run(pairs: &[(&'static str, &'static str)], arguments: Value) -> Result<(), i64> {
        check(&headers(pairs), &schema(), Some(&arguments)).map_err(|e| e.code)
    }

    #[test]
    fn agreeing_headers_pass() {
        let args = json!({"region": "Zürich", "days": 3, "exact": true, "note": "x",
                          "where": {"city": "Bern"}});
        let ok = [
            ("mcp-param-region", "=?base64?WsO8cmljaA==?="),
            ("mcp-param-days", "3"),
            ("mcp-param-exact", "true"),
            ("mcp-param-city", "Bern"),
        ];
        assert_eq!(run(&ok, args), Ok(()));
        // Absent or null arguments need no header; 3.0 is the integer 3.
        assert_eq!(run(&[], json!({"region": null})), Ok(()));
        assert_eq!(
            run(&[("mcp-param-days", "3.0")], json!({"days": 3})),
            Ok(())
        );
        assert_eq!(
            run(&[("mcp-param-days", "3")], json!({"days": 3.0})),
            Ok(())
        );
    }

    #[test]
    fn disagreements_are_32020() {
        let cases: [(&[(&str, &str)], Value); 8] = [
            (&[], json!({"region": "eu"})),
            (&[("mcp-param-region", "eu")], json!({})),
            (&[("mcp-param-region", "us")], json!({"region": "eu"})),
            (
                &[("mcp-param-region", "=?base64?ZXU?=")],
                json!({"region": "eu"}),
            ),
            (&[("mcp-param-days", "4")], json!({"days": 3})),
            (&[("mcp-param-days", "3.5")], json!({"days": 3})),
            (&[("mcp-param-exact", "1")], json!({"exact": true})),
            (
                &[("mcp-param-region", "eu"), ("mcp-param-region", "eu")],
                json!({"region": "eu"}),
            ),
        ];
        for (pairs, args) in cases {
            assert_eq!(
                run(pairs, args.clone()),
                Err(code::HEADER_MISMATCH),
                "{pairs:?} {args}"
            );
        }
    }

    #[test]
    fn unmarked_headers_are_ignored() {
        assert_eq!(
            run(&[("mcp-param-note", "y")], json!({"note": "x"})),
            Ok(())
        );
    }
}
