//! DPoP (RFC 9449): the rules both sides share, the client that signs
//! proofs and the protected server that checks them. A DPoP proof is a
//! JWT signed with a key the client holds, sent in the `DPoP` header with
//! every token request and every request that carries a DPoP-bound access
//! token; the token names the key by its thumbprint (`cnf.jkt`), so that a
//! token seen by someone else is useless without the key.
//!
//! The names and the URL and token rules are here in every build with
//! HTTP; signing and checking proofs need the `jwt` feature.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
#[cfg(feature = "jwt")]
use jsonwebtoken::jwk::{Jwk, ThumbprintHash};

#[cfg(feature = "jwt")]
mod check;
#[cfg(feature = "jwt")]
pub use check::*;

/// The `typ` of a DPoP proof's header.
pub const PROOF_TYPE: &str = "dpop+jwt";

/// The request header that carries a proof.
pub const DPOP_HEADER: &str = "dpop";

/// The response header that carries a server-provided nonce (RFC 9449
/// sections 8 and 9).
pub const NONCE_HEADER: &str = "dpop-nonce";

/// The `error` of a refusal that asks for a proof with a nonce.
pub const USE_NONCE: &str = "use_dpop_nonce";

/// The `Authorization` scheme of a DPoP-bound access token.
pub const SCHEME: &str = "DPoP";

/// The proof algorithms checked here: asymmetric JWS algorithms only
/// (RFC 9449 section 4.2 forbids `none` and MACs).
pub const ALGORITHMS: &[&str] = &[
    "ES256", "ES384", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA",
];

/// `ath`: the Base64url SHA-256 of the access token a proof goes with.
pub fn access_token_hash(access_token: &str) -> String {
    URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(access_token.as_bytes()))
}

/// The JWK SHA-256 thumbprint (RFC 7638) of a public key: what a bound
/// token's `cnf.jkt` holds. `None` for a key that has none here.
#[cfg(feature = "jwt")]
pub fn thumbprint(jwk: &Jwk) -> Option<String> {
    jwk.thumbprint(ThumbprintHash::SHA256).ok()
}

/// `htu`: the URL of a request without its query and fragment, with the
/// scheme and host lowercased and a default port dropped (RFC 9449 section
/// 4.3 compares them so, after RFC 3986's syntax-based normalization); an
/// empty path is `/`. `None` for anything but an absolute http(s) URL.
pub fn target_uri(url: &str) -> Option<String> {
    let url = url.split(['#', '?']).next()?;
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "https" => ":443",
        "http" => ":80",
        _ => return None,
    };
    let (authority, path) = rest.find('/').map_or((rest, "/"), |at| rest.split_at(at));
    // Userinfo never belongs in a request target.
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let authority = authority.to_ascii_lowercase();
    let authority = authority.strip_suffix(default_port).unwrap_or(&authority);
    Some(format!("{scheme}://{authority}{path}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_uri_drops_query_fragment_and_default_port() {
        for (url, expected) in [
            (
                "https://Mcp.Example.com/mcp?x=1#f",
                Some("https://mcp.example.com/mcp"),
            ),
            (
                "HTTPS://mcp.example.com:443/mcp",
                Some("https://mcp.example.com/mcp"),
            ),
            ("http://127.0.0.1:80", Some("http://127.0.0.1/")),
            (
                "http://127.0.0.1:8080/a/B",
                Some("http://127.0.0.1:8080/a/B"),
            ),
            ("https://h:8443#frag", Some("https://h:8443/")),
            ("ftp://h/x", None),
            ("https:///x", None),
            ("https://user@h/x", None),
            ("/relative", None),
        ] {
            assert_eq!(target_uri(url).as_deref(), expected, "{url}");
        }
    }

    #[test]
    fn the_access_token_hash_is_rfc_9449s_example() {
        // RFC 9449 section 7.1: the access token and its `ath`.
        assert_eq!(
            access_token_hash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"),
            "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
        );
    }
}
