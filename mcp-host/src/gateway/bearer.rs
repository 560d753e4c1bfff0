//! One static bearer token for the gateway over HTTP, for machines that
//! hold a shared secret instead of OAuth tokens (`mcp-host serve
//! --bearer-env VAR`).

use std::fmt;

use hmac_sha256::Hash;
use mcp_toolkit_runtime::server::auth::{Principal, TokenError, TokenVerifier, VerifyFuture};

/// The fewest characters a static token may have: shorter ones can be
/// guessed over the network.
pub const MIN_BEARER_CHARS: usize = 32;

/// The subject a caller holding the static token is known as (in
/// [`Principal::subject`], and so in the audit trail).
pub const BEARER_SUBJECT: &str = "static-bearer-token";

/// The one token the gateway accepts. Only its SHA-256 digest is kept, and
/// a presented token is compared by digest in constant time
/// (`hmac_sha256::Hash::verify`), so the time an answer takes says nothing
/// about how much of a guess was right, not even its length.
#[derive(Clone)]
pub struct StaticBearer {
    digest: [u8; 32],
}

impl StaticBearer {
    /// Accepts `token`: at least [`MIN_BEARER_CHARS`] characters, all of
    /// them allowed in a bearer token (RFC 6750's token68: letters, digits,
    /// `-._~+/`, trailing `=`), as `openssl rand -hex 32` makes.
    pub fn new(token: &str) -> Result<Self, BearerError> {
        if token.len() < MIN_BEARER_CHARS {
            return Err(BearerError::TooShort(token.len()));
        }
        if !mcp_toolkit_runtime::oauth::is_token68(token) {
            return Err(BearerError::NotToken68);
        }
        Ok(StaticBearer {
            digest: Hash::hash(token.as_bytes()),
        })
    }

    fn check(&self, presented: &str) -> Result<Principal, TokenError> {
        if Hash::verify(presented.as_bytes(), &self.digest) {
            Ok(Principal {
                subject: Some(BEARER_SUBJECT.to_owned()),
                ..Principal::default()
            })
        } else {
            Err(TokenError::Invalid("not the gateway's token".to_owned()))
        }
    }
}

impl TokenVerifier for StaticBearer {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        let checked = self.check(token);
        Box::pin(async move { checked })
    }
}

impl fmt::Debug for StaticBearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StaticBearer(..)")
    }
}

/// A static token the gateway will not take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BearerError {
    /// Fewer than [`MIN_BEARER_CHARS`] characters (this many).
    TooShort(usize),
    /// A character a bearer token cannot carry.
    NotToken68,
}

impl fmt::Display for BearerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BearerError::TooShort(chars) => write!(
                f,
                "the bearer token has {chars} characters; it needs at least {MIN_BEARER_CHARS} \
                 (make one with `openssl rand -hex 32`)"
            ),
            BearerError::NotToken68 => f.write_str(
                "the bearer token may hold only letters, digits, `-._~+/` and trailing `=` \
                 (make one with `openssl rand -hex 32`)",
            ),
        }
    }
}

impl std::error::Error for BearerError {}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn only_the_token_itself_is_accepted() {
        let bearer = StaticBearer::new(TOKEN).unwrap();
        let principal = bearer.check(TOKEN).unwrap();
        assert_eq!(principal.subject.as_deref(), Some(BEARER_SUBJECT));
        for wrong in ["", "0123456789abcdef", &format!("{TOKEN}0"), &TOKEN[1..]] {
            assert!(bearer.check(wrong).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn a_guessable_or_unsendable_token_is_refused() {
        assert_eq!(
            StaticBearer::new("short").unwrap_err(),
            BearerError::TooShort(5)
        );
        let spaced = format!("{TOKEN} x");
        assert_eq!(
            StaticBearer::new(&spaced).unwrap_err(),
            BearerError::NotToken68
        );
        assert!(format!("{:?}", StaticBearer::new(TOKEN).unwrap()).ends_with("(..)"));
    }
}
