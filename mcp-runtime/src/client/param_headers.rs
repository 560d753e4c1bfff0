//! `x-mcp-header` (2026-07-28, Streamable HTTP): tool arguments a server
//! wants mirrored into `Mcp-Param-{Name}` request headers.

use std::collections::HashSet;

use hyper::header::{HeaderName, HeaderValue};
use serde_json::{Map, Value};

use super::http::header_value;
use crate::protocol::headers::{PARAM_HEADER_PREFIX, X_MCP_HEADER, is_header_token};

/// A tool's annotated arguments: `(argument, header name)` pairs.
pub(crate) type ParamHeaders = Vec<(String, String)>;

/// Reads a tool's annotations. An invalid one (empty or non-token name, a
/// duplicate name ignoring case, or a non-primitive argument) makes the
/// whole tool unusable, as the spec requires clients to skip such tools.
pub(crate) fn read(input_schema: &Value) -> Result<ParamHeaders, String> {
    let Some(properties) = input_schema.get("properties").and_then(Value::as_object) else {
        return Ok(Vec::new());
    };
    let mut headers = Vec::new();
    let mut seen = HashSet::new();
    for (argument, property) in properties {
        let Some(annotation) = property.get(X_MCP_HEADER) else {
            continue;
        };
        let name = annotation.as_str().unwrap_or_default();
        if !is_header_token(name) {
            return Err(format!(
                "`{argument}` has an invalid x-mcp-header name {annotation}"
            ));
        }
        if !seen.insert(name.to_ascii_lowercase()) {
            return Err(format!("x-mcp-header `{name}` is used twice"));
        }
        let primitive = matches!(
            property.get("type").and_then(Value::as_str),
            Some("string" | "integer" | "number" | "boolean")
        );
        if !primitive {
            return Err(format!(
                "`{argument}` carries x-mcp-header but is not a string, number or boolean"
            ));
        }
        headers.push((argument.clone(), name.to_owned()));
    }
    Ok(headers)
}

/// The `Mcp-Param-*` headers of one call; null or absent arguments send none.
pub(crate) fn for_call(
    annotations: &ParamHeaders,
    arguments: &Map<String, Value>,
) -> Vec<(HeaderName, HeaderValue)> {
    annotations
        .iter()
        .filter_map(|(argument, name)| {
            let text = match arguments.get(argument)? {
                Value::String(text) => text.clone(),
                Value::Number(number) => number.to_string(),
                Value::Bool(flag) => flag.to_string(),
                _ => return None,
            };
            let name =
                HeaderName::from_bytes(format!("{PARAM_HEADER_PREFIX}{name}").as_bytes()).ok()?;
            Some((name, header_value(&text)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reads_valid_annotations_and_refuses_invalid_ones() {
        let schema = json!({"properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "query": {"type": "string"}
        }});
        assert_eq!(
            read(&schema).unwrap(),
            [("region".to_owned(), "Region".to_owned())]
        );
        for bad in [
            json!({"properties": {"a": {"type": "string", "x-mcp-header": ""}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "Has Space"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "Colon:"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "Région"}}}),
            json!({"properties": {"a": {"type": "object", "x-mcp-header": "A"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "A"}, "b": {"type": "string", "x-mcp-header": "a"}}}),
        ] {
            assert!(read(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn converts_values_and_omits_nulls() {
        let annotations = vec![
            ("s".to_owned(), "S".to_owned()),
            ("n".to_owned(), "N".to_owned()),
            ("b".to_owned(), "B".to_owned()),
            ("u".to_owned(), "U".to_owned()),
            ("z".to_owned(), "Z".to_owned()),
        ];
        let arguments = json!({"s": " padded ", "n": 42, "b": true, "u": "ünï", "z": null});
        let headers = for_call(&annotations, arguments.as_object().unwrap());
        let text: Vec<(String, String)> = headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap().to_owned()))
            .collect();
        assert_eq!(
            text,
            [
                (
                    "mcp-param-s".to_owned(),
                    "=?base64?IHBhZGRlZCA=?=".to_owned()
                ),
                ("mcp-param-n".to_owned(), "42".to_owned()),
                ("mcp-param-b".to_owned(), "true".to_owned()),
                ("mcp-param-u".to_owned(), "=?base64?w7xuw68=?=".to_owned()),
            ]
        );
    }
}
