//! The DPoP part of a protected endpoint (RFC 9449 section 7): the proof
//! of a `DPoP` token, checked by the server's
//! [`DpopPolicy`](crate::server::auth::DpopPolicy) (or the default one),
//! the `DPoP` challenge and nonce of a refusal, and the policy's members
//! of the metadata. Without the `jwt` feature there is no DPoP: a `DPoP`
//! token is refused as the wrong scheme, as it always was.

use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use hyper::{Method, Response, StatusCode};
use serde_json::{Map, Value};

use super::{Protection, Scheme};
use crate::oauth::challenge::Challenge;
use crate::server::auth::{AuthConfig, Principal};
use crate::transport::http::body::McpBody;

#[cfg(feature = "jwt")]
use crate::oauth::dpop::{CheckedProof, DPOP_HEADER, NONCE_HEADER, SCHEME};
#[cfg(feature = "jwt")]
use crate::server::auth::{DpopPolicy, DpopRefusal, bound_key};
#[cfg(feature = "jwt")]
use crate::transport::http::response;

/// A checked proof, waiting for its token to be verified.
#[cfg(feature = "jwt")]
pub(super) type Proof = CheckedProof;
#[cfg(not(feature = "jwt"))]
pub(super) type Proof = std::convert::Infallible;

/// The endpoint's DPoP policy.
pub(super) struct Dpop {
    #[cfg(feature = "jwt")]
    policy: DpopPolicy,
    /// Whether the server set a policy: only then does it speak of DPoP
    /// in its metadata and unprompted challenges.
    #[cfg(feature = "jwt")]
    offered: bool,
}

#[cfg(feature = "jwt")]
impl Dpop {
    pub(super) fn new(config: &AuthConfig) -> Self {
        Dpop {
            policy: config.dpop.clone().unwrap_or_default(),
            offered: config.dpop.is_some(),
        }
    }

    /// Adds the policy's members to the metadata document.
    pub(super) fn publish(&self, metadata: &mut Map<String, Value>) {
        if self.offered {
            self.policy.publish(metadata);
        }
    }

    /// Whether only bound tokens are taken.
    pub(super) fn required(&self) -> bool {
        self.offered && self.policy.is_required()
    }

    /// The `DPoP` challenge, with `error` and its description when there
    /// is one, then `algs` and `params`: when DPoP is offered, or the
    /// error is about a DPoP request.
    pub(super) fn challenge(
        &self,
        error: Option<(&str, &str)>,
        params: Vec<(&'static str, String)>,
    ) -> Option<Challenge> {
        if !self.offered && error.is_none() {
            return None;
        }
        let mut challenge = Challenge {
            scheme: SCHEME.to_owned(),
            params: Vec::new(),
        };
        if let Some((error, why)) = error {
            challenge = challenge
                .param("error", error)
                .param("error_description", why);
        }
        challenge = challenge.param("algs", self.policy.algs());
        for (name, value) in params {
            challenge = challenge.param(name, value);
        }
        Some(challenge)
    }

    /// `DPoP-Nonce` with the current nonce, when nonces are on.
    pub(super) fn nonce_header(&self) -> Option<(HeaderName, HeaderValue)> {
        nonce_header(self.policy.nonce())
    }
}

#[cfg(feature = "jwt")]
fn nonce_header(nonce: Option<String>) -> Option<(HeaderName, HeaderValue)> {
    let value = HeaderValue::try_from(nonce?).ok()?;
    Some((HeaderName::from_static(NONCE_HEADER), value))
}

#[cfg(feature = "jwt")]
impl Protection {
    /// The proof of a `DPoP` request, checked; `None` for a bearer token,
    /// which is refused where only bound tokens are taken. (The refusal is
    /// boxed: a response is large, and this is no `async fn`.)
    pub(super) fn check_proof(
        &self,
        scheme: Scheme,
        method: &Method,
        headers: &HeaderMap,
        token: &str,
    ) -> Result<Option<Proof>, Box<Response<McpBody>>> {
        match scheme {
            Scheme::Bearer if self.dpop.required() => {
                Err(Box::new(self.refuse_dpop(DpopRefusal::BearerRefused)))
            }
            Scheme::Bearer => Ok(None),
            Scheme::Dpop => {
                let values = headers
                    .get_all(DPOP_HEADER)
                    .iter()
                    .map(HeaderValue::as_bytes);
                self.dpop
                    .policy
                    .check(values, method.as_str(), &self.config.resource, token)
                    .map(Some)
                    .map_err(|refusal| Box::new(self.refuse_dpop(refusal)))
            }
        }
    }

    /// Takes the request whose token `principal` was verified from: a
    /// proof must be by the token's key and new; a bearer token must not
    /// be bound (RFC 9449 section 7.2: this server takes DPoP, so a bound
    /// token without its proof is refused, policy or not). `Ok` holds a
    /// header for the answer.
    pub(super) async fn accept_proof(
        &self,
        proof: Option<Proof>,
        principal: &Principal,
    ) -> Result<Option<(HeaderName, HeaderValue)>, Response<McpBody>> {
        match proof {
            Some(proof) => match self.dpop.policy.accept(&proof, principal).await {
                Ok(nonce) => Ok(nonce_header(nonce)),
                Err(refusal) => Err(self.refuse_dpop(refusal)),
            },
            None if bound_key(principal).is_some() => {
                Err(self.refuse_dpop(DpopRefusal::BoundAsBearer))
            }
            None => Ok(None),
        }
    }

    /// 401 with the refusal on the `DPoP` challenge, or 503 when it is no
    /// fault of the client's.
    fn refuse_dpop(&self, refusal: DpopRefusal) -> Response<McpBody> {
        let why = refusal.to_string();
        match refusal.error() {
            Some(error) => {
                tracing::info!(reason = %why, "DPoP request refused");
                self.refuse(StatusCode::UNAUTHORIZED, Scheme::Dpop, Some(error), &why)
            }
            None => {
                tracing::warn!(reason = %why, "DPoP request refused");
                response::refuse(StatusCode::SERVICE_UNAVAILABLE, why)
            }
        }
    }
}

#[cfg(not(feature = "jwt"))]
impl Dpop {
    pub(super) fn new(_config: &AuthConfig) -> Self {
        Dpop {}
    }

    pub(super) fn publish(&self, _metadata: &mut Map<String, Value>) {}

    pub(super) fn required(&self) -> bool {
        false
    }

    pub(super) fn challenge(
        &self,
        _error: Option<(&str, &str)>,
        _params: Vec<(&'static str, String)>,
    ) -> Option<Challenge> {
        None
    }

    pub(super) fn nonce_header(&self) -> Option<(HeaderName, HeaderValue)> {
        None
    }
}

#[cfg(not(feature = "jwt"))]
impl Protection {
    pub(super) fn check_proof(
        &self,
        scheme: Scheme,
        _method: &Method,
        _headers: &HeaderMap,
        _token: &str,
    ) -> Result<Option<Proof>, Box<Response<McpBody>>> {
        match scheme {
            Scheme::Bearer => Ok(None),
            Scheme::Dpop => Err(Box::new(self.refuse(
                StatusCode::BAD_REQUEST,
                Scheme::Bearer,
                Some("invalid_request"),
                "the Authorization scheme must be Bearer",
            ))),
        }
    }

    pub(super) async fn accept_proof(
        &self,
        proof: Option<Proof>,
        _principal: &Principal,
    ) -> Result<Option<(HeaderName, HeaderValue)>, Response<McpBody>> {
        match proof {
            None => Ok(None),
            Some(never) => match never {},
        }
    }
}
