//! OAuth 2.1 as MCP uses it, the parts both sides share: the
//! `WWW-Authenticate` challenge a protected server sends and a client
//! reads, and the metadata documents that tell a client where to get a
//! token (RFC 9728 for the resource, RFC 8414 for the issuer).

pub mod challenge;
pub mod metadata;

use base64::Engine;
use hyper::header::HeaderValue;

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
    let mut value = HeaderValue::try_from(format!("Bearer {token}")).ok()?;
    value.set_sensitive(true);
    Some(value)
}
