//! OAuth 2.1 as MCP uses it, the parts both sides share: the
//! `WWW-Authenticate` challenge a protected server sends and a client
//! reads, and the metadata documents that tell a client where to get a
//! token (RFC 9728 for the resource, RFC 8414 for the issuer).

pub mod challenge;
pub mod dpop;
pub mod metadata;

use base64::Engine;
use hyper::header::HeaderValue;

/// Whether `token` can be sent as a bearer token: RFC 6750's `b64token`
/// (token68), letters, digits and `-._~+/`, then any number of `=`.
pub fn is_token68(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// `Authorization: Basic ...` for a client at a token or introspection
/// endpoint (`client_secret_basic`): both parts form-encoded before Base64,
/// as RFC 6749 section 2.3.1 says. Marked sensitive.
pub(crate) fn basic_authorization(client_id: &str, client_secret: &str) -> HeaderValue {
    let encode = |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
    let pair = format!("{}:{}", encode(client_id), encode(client_secret));
    let basic = base64::engine::general_purpose::STANDARD.encode(pair);
    let mut value =
        HeaderValue::try_from(format!("Basic {basic}")).expect("Base64 is a valid header value");
    value.set_sensitive(true);
    value
}

/// `Authorization: Bearer <token>`, marked sensitive so that it stays out
/// of debug output; `None` when the token cannot be a header value.
#[cfg(feature = "client")]
pub(crate) fn bearer_authorization(token: &str) -> Option<HeaderValue> {
    token_authorization("Bearer", token)
}

/// `Authorization: <scheme> <token>` (`Bearer`, or `DPoP` for a bound
/// token), marked sensitive; `None` when it cannot be a header value.
#[cfg(feature = "client")]
pub(crate) fn token_authorization(scheme: &str, token: &str) -> Option<HeaderValue> {
    let mut value = HeaderValue::try_from(format!("{scheme} {token}")).ok()?;
    value.set_sensitive(true);
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::is_token68;

    #[test]
    fn bearer_tokens_are_token68() {
        for token in ["abc", "a-b.c_d~e+f/g", "YWJj==", "0123456789abcdef"] {
            assert!(is_token68(token), "{token}");
        }
        for token in ["", "==", "a b", "a=b", "ä", "a,b", "a\"b"] {
            assert!(!is_token68(token), "{token}");
        }
    }
}
