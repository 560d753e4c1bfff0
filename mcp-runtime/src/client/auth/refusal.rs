//! Why a token request failed, as far as it decides what the client keeps:
//! an authorization server that refuses the grant or the client says the
//! stored refresh token or registration is dead; anything else (the
//! network, a timeout, a server error) may pass, and keeps them.

use crate::client::ClientError;
use crate::outbound::fetch::Failure;

/// What the authorization server refused (RFC 6749 §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    /// `invalid_grant`: the code or refresh token is expired, revoked or
    /// already used.
    Grant,
    /// `invalid_client` or `unauthorized_client`: the registration is no
    /// longer accepted.
    Client,
}

impl Refusal {
    fn of(code: &str) -> Option<Self> {
        match code {
            "invalid_grant" => Some(Refusal::Grant),
            "invalid_client" | "unauthorized_client" => Some(Refusal::Client),
            _ => None,
        }
    }
}

/// A failed token request.
pub(super) struct TokenFailure {
    /// What the server refused, when it refused the grant or the client.
    pub(super) refused: Option<Refusal>,
    /// The error the caller reports.
    pub(super) error: ClientError,
}

impl TokenFailure {
    /// `error`, classified by the answer that `failure` read.
    pub(super) fn new(failure: &Failure, error: ClientError) -> Self {
        TokenFailure {
            refused: failure.oauth_error.as_deref().and_then(Refusal::of),
            error,
        }
    }
}

/// Failures before the server answered refuse nothing.
impl From<ClientError> for TokenFailure {
    fn from(error: ClientError) -> Self {
        TokenFailure {
            refused: None,
            error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_refused_grant_or_client_counts_as_a_refusal() {
        assert_eq!(Refusal::of("invalid_grant"), Some(Refusal::Grant));
        assert_eq!(Refusal::of("invalid_client"), Some(Refusal::Client));
        assert_eq!(Refusal::of("unauthorized_client"), Some(Refusal::Client));
        for passing in [
            "server_error",
            "temporarily_unavailable",
            "invalid_request",
            "",
        ] {
            assert_eq!(Refusal::of(passing), None, "{passing}");
        }
    }
}
