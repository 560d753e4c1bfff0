//! `x-mcp-header` (2026-07-28, Streamable HTTP): tool arguments a server
//! wants mirrored into `Mcp-Param-{Name}` request headers. The annotations
//! are read by [`read_param_headers`], the rule the server applies too.

use hyper::header::{HeaderName, HeaderValue};
use serde_json::{Map, Value};

use super::http::header_value;
use crate::protocol::headers::{PARAM_HEADER_PREFIX, ParamHeader, read_param_headers};

/// A tool's annotated arguments.
pub(crate) type ParamHeaders = Vec<ParamHeader>;

/// Reads a tool's annotations. An invalid one makes the whole tool
/// unusable, as the spec requires clients to skip such tools.
pub(crate) fn read(input_schema: &Value) -> Result<ParamHeaders, String> {
    read_param_headers(input_schema)
}

/// The `Mcp-Param-*` headers of one call; null or absent arguments send none.
pub(crate) fn for_call(
    annotations: &ParamHeaders,
    arguments: &Map<String, Value>,
) -> Vec<(HeaderName, HeaderValue)> {
    annotations
        .iter()
        .filter_map(|header| {
            let (first, rest) = header.path.split_first()?;
            let value = rest
                .iter()
                .try_fold(arguments.get(first)?, |value, key| value.get(key))?;
            let text = match value {
                Value::String(text) => text.clone(),
                Value::Number(number) => number.to_string(),
                Value::Bool(flag) => flag.to_string(),
                _ => return None,
            };
            let name = format!("{PARAM_HEADER_PREFIX}{}", header.name);
            let name = HeaderName::from_bytes(name.as_bytes()).ok()?;
            Some((name, header_value(&text)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn converts_values_and_omits_nulls() {
        let schema = json!({"properties": {
            "s": {"type": "string", "x-mcp-header": "S"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "b": {"type": "boolean", "x-mcp-header": "B"},
            "u": {"type": "string", "x-mcp-header": "U"},
            "z": {"type": "string", "x-mcp-header": "Z"},
            "place": {"type": "object", "properties": {
                "city": {"type": "string", "x-mcp-header": "City"}
            }}
        }});
        let annotations = read(&schema).unwrap();
        let arguments = json!({
            "s": " padded ", "n": 42, "b": true, "u": "ünï", "z": null,
            "place": {"city": "Oslo"}
        });
        let headers = for_call(&annotations, arguments.as_object().unwrap());
        let mut text: Vec<(String, String)> = headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap().to_owned()))
            .collect();
        text.sort();
        let expected = [
            ("mcp-param-b", "true"),
            ("mcp-param-city", "Oslo"),
            ("mcp-param-n", "42"),
            ("mcp-param-s", "=?base64?IHBhZGRlZCA=?="),
            ("mcp-param-u", "=?base64?w7xuw68=?="),
        ]
        .map(|(n, v)| (n.to_owned(), v.to_owned()));
        assert_eq!(text, expected);
    }

    #[test]
    fn invalid_annotations_make_the_tool_unusable() {
        let schema = json!({"properties": {"a": {"type": "string", "x-mcp-header": "Has Space"}}});
        assert!(read(&schema).is_err());
    }
}
