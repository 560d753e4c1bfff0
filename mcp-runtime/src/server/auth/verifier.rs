//! The seam between the transport and whatever decides that an access
//! token is valid.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use super::Principal;

/// What [`TokenVerifier::verify`] returns.
pub type VerifyFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Principal, TokenError>> + Send + 'a>>;

/// Decides whether an access token is valid for this server and whom it
/// speaks for. Built in: [`JwtVerifier`](super::JwtVerifier) (JWT access
/// tokens checked against the issuer's keys) and
/// [`IntrospectionVerifier`](super::IntrospectionVerifier) (RFC 7662).
/// Implement it to check tokens some other way; a verifier must check the
/// audience, so that a token issued for another resource is refused.
pub trait TokenVerifier: Send + Sync + 'static {
    /// Verifies `token` (the text after `Bearer `).
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a>;
}

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    /// The token is malformed, expired, for another audience or issuer, or
    /// badly signed: the client gets 401 `invalid_token`. The text is
    /// logged and sent as `error_description`; it must not echo the token.
    Invalid(String),
    /// The token could not be checked now (the issuer's keys or its
    /// introspection endpoint are unreachable): the client gets 503.
    Unavailable(String),
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenError::Invalid(why) => write!(f, "invalid token: {why}"),
            TokenError::Unavailable(why) => write!(f, "cannot verify tokens now: {why}"),
        }
    }
}

impl std::error::Error for TokenError {}
