//! Streamable HTTP header rules of 2026-07-28 shared by the client (which
//! writes them) and the server (which checks them): the `=?base64?...?=`
//! value encoding of `Mcp-Name` and `Mcp-Param-*`, and the `x-mcp-header`
//! schema annotation that asks for an argument to be mirrored into a header.

use std::borrow::Cow;
use std::collections::HashSet;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
#[cfg(feature = "http")]
use hyper::header::HeaderName;
use serde_json::Value;

/// The schema keyword that names the header mirroring a tool argument.
pub const X_MCP_HEADER: &str = "x-mcp-header";

/// The lowercase prefix of the header an `x-mcp-header` name becomes.
pub const PARAM_HEADER_PREFIX: &str = "mcp-param-";

/// `Mcp-Session-Id`: the session a legacy server opened.
#[cfg(feature = "http")]
pub(crate) const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
/// `MCP-Protocol-Version`.
#[cfg(feature = "http")]
pub(crate) const MCP_PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
/// `Mcp-Method`, mirroring the body's method (2026-07-28).
#[cfg(feature = "http")]
pub(crate) const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
/// `Mcp-Name`, mirroring the body's tool, prompt, resource or task
/// (2026-07-28).
#[cfg(feature = "http")]
pub(crate) const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

const WRAP_START: &str = "=?base64?";
const WRAP_END: &str = "?=";

/// A header value for `text`: the text itself when it is plain visible
/// ASCII, else Base64 in `=?base64?...?=` (also when the text is empty,
/// starts or ends with a space, or could be mistaken for the wrapper).
pub fn encode_header_value(text: &str) -> Cow<'_, str> {
    let wrapped = text.starts_with(WRAP_START) && text.ends_with(WRAP_END);
    let visible = text.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = text.starts_with(' ') || text.ends_with(' ');
    if !text.is_empty() && visible && !padded && !wrapped {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("{WRAP_START}{}{WRAP_END}", STANDARD.encode(text)))
    }
}

/// Undoes [`encode_header_value`]; a value without the wrapper is returned
/// as it is. `None` for a malformed encoding (bad or non-canonical Base64,
/// not UTF-8).
pub fn decode_header_value(value: &str) -> Option<Cow<'_, str>> {
    let Some(payload) = value
        .strip_prefix(WRAP_START)
        .and_then(|rest| rest.strip_suffix(WRAP_END))
    else {
        return Some(Cow::Borrowed(value));
    };
    let bytes = STANDARD.decode(payload).ok()?;
    String::from_utf8(bytes).ok().map(Cow::Owned)
}

pub use mcp_toolkit_names::is_header_token;

/// How deep `properties` chains are followed: far beyond any real tool,
/// and a bound against hostile schemas.
const MAX_DEPTH: usize = 32;

/// One argument that `x-mcp-header` mirrors into `Mcp-Param-{name}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The `{name}` part, as the schema spells it.
    pub name: String,
    /// The argument's place in the arguments, through `properties` keys.
    pub path: Vec<String>,
    /// The property's `type`: `string`, `integer`, `number` or `boolean`.
    pub kind: String,
}

/// Reads every `x-mcp-header` annotation of a tool's input schema, through
/// `properties` chains (the only places a value can be found without
/// evaluating the schema). An invalid annotation makes the whole tool
/// definition invalid, as the spec says: a name that is not an RFC 9110
/// token, a name used twice (ignoring case), or a property that is not a
/// string, integer, number or boolean. Clients skip such a tool; servers
/// refuse to serve it.
pub fn read_param_headers(input_schema: &Value) -> Result<Vec<ParamHeader>, String> {
    let mut found = Vec::new();
    collect(input_schema, &mut Vec::new(), &mut found)?;
    let mut seen = HashSet::new();
    for header in &found {
        if !seen.insert(header.name.to_ascii_lowercase()) {
            return Err(format!("x-mcp-header `{}` is used twice", header.name));
        }
    }
    Ok(found)
}

fn collect(
    schema: &Value,
    path: &mut Vec<String>,
    found: &mut Vec<ParamHeader>,
) -> Result<(), String> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    if path.len() >= MAX_DEPTH {
        return Ok(());
    }
    for (key, property) in properties {
        path.push(key.clone());
        match property.get(X_MCP_HEADER) {
            Some(annotation) => found.push(annotated(annotation, property, path)?),
            None => collect(property, path, found)?,
        }
        path.pop();
    }
    Ok(())
}

fn annotated(annotation: &Value, property: &Value, path: &[String]) -> Result<ParamHeader, String> {
    let argument = path.join(".");
    let name = annotation.as_str().filter(|name| is_header_token(name));
    let Some(name) = name else {
        return Err(format!(
            "`{argument}` has an invalid x-mcp-header name {annotation}"
        ));
    };
    let kind = property.get("type").and_then(Value::as_str);
    let Some(kind @ ("string" | "integer" | "number" | "boolean")) = kind else {
        return Err(format!(
            "`{argument}` carries x-mcp-header but is not a string, number or boolean"
        ));
    };
    Ok(ParamHeader {
        name: name.to_owned(),
        path: path.to_vec(),
        kind: kind.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_the_encoding() {
        for text in [
            "plain",
            "Hello, 世界",
            " padded ",
            "",
            "a\nb",
            "=?base64?literal?=",
        ] {
            let encoded = encode_header_value(text);
            assert!(encoded.is_ascii(), "{encoded}");
            assert_eq!(decode_header_value(&encoded).as_deref(), Some(text));
        }
        assert_eq!(encode_header_value("plain"), "plain");
    }

    #[test]
    fn annotations_are_found_through_properties_and_checked() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "place": {"type": "object", "properties": {
                "city": {"type": "string", "x-mcp-header": "City"}
            }},
            "listed": {"type": "array", "items": {"type": "string", "x-mcp-header": "Hidden"}}
        }});
        let found = read_param_headers(&schema).unwrap();
        let found: Vec<_> = found
            .iter()
            .map(|h| (h.name.as_str(), h.path.join(".")))
            .collect();
        assert_eq!(
            found,
            [
                ("City", "place.city".to_owned()),
                ("Region", "region".to_owned())
            ]
        );
        let invalid = [
            serde_json::json!({"properties": {"a": {"type": "string", "x-mcp-header": ""}}}),
            serde_json::json!({"properties": {"a": {"type": "string", "x-mcp-header": "Has Space"}}}),
            serde_json::json!({"properties": {"a": {"type": "string", "x-mcp-header": 7}}}),
            serde_json::json!({"properties": {"a": {"type": "object", "x-mcp-header": "A"}}}),
            serde_json::json!({"properties": {
                "a": {"type": "string", "x-mcp-header": "A"},
                "b": {"type": "object", "properties": {"c": {"type": "string", "x-mcp-header": "a"}}}
            }}),
        ];
        for schema in invalid {
            assert!(read_param_headers(&schema).is_err(), "{schema}");
        }
    }

    #[test]
    fn malformed_encodings_decode_to_nothing() {
        for value in ["=?base64?%%?=", "=?base64?ZWNobw?=", "=?base64?/w==?="] {
            assert_eq!(decode_header_value(value), None, "{value}");
        }
    }
}
