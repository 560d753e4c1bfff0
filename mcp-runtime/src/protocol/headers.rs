//! Streamable HTTP header rules of 2026-07-28 shared by the client (which
//! writes them) and the server (which checks them): the `=?base64?...?=`
//! value encoding of `Mcp-Name` and `Mcp-Param-*`, and the `x-mcp-header`
//! schema annotation that asks for an argument to be mirrored into a header.

use std::borrow::Cow;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// The schema keyword that names the header mirroring a tool argument.
pub const X_MCP_HEADER: &str = "x-mcp-header";

/// The lowercase prefix of the header an `x-mcp-header` name becomes.
pub const PARAM_HEADER_PREFIX: &str = "mcp-param-";

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

/// Whether `name` is a valid `x-mcp-header` name: a non-empty RFC 9110
/// token.
pub fn is_header_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
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
    fn malformed_encodings_decode_to_nothing() {
        for value in ["=?base64?%%?=", "=?base64?ZWNobw?=", "=?base64?/w==?="] {
            assert_eq!(decode_header_value(value), None, "{value}");
        }
    }

    #[test]
    fn header_names_are_tokens() {
        assert!(is_header_token("Region"));
        for name in ["", "Has Space", "Colon:", "Région"] {
            assert!(!is_header_token(name), "{name}");
        }
    }
}
