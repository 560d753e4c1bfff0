//! The checks of a protected endpoint: the Protected Resource Metadata
//! document, the access token of every request (401 with a challenge that
//! points to the metadata), and the scopes a request needs (403
//! `insufficient_scope` naming them, so that a client can step up). A
//! token comes as `Bearer`, or as `DPoP` with a proof ([`dpop`]).

mod dpop;

use std::collections::BTreeSet;
use std::sync::Arc;

use hyper::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::{Method, Response, StatusCode};

use super::body::McpBody;
use super::response;
use crate::oauth::challenge::Challenge;
use crate::oauth::metadata::ProtectedResourceMetadata;
use crate::server::Server;
use crate::server::auth::{AuthConfig, Principal, TokenError};

/// A protected endpoint's settings, with the metadata rendered once.
pub(super) struct Protection {
    config: AuthConfig,
    metadata: Vec<u8>,
    metadata_url: String,
    metadata_paths: Vec<String>,
    /// How DPoP-bound tokens are taken.
    dpop: dpop::Dpop,
}

/// The scheme of a request's `Authorization` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scheme {
    Bearer,
    /// A DPoP-bound token (RFC 9449), sent with a proof.
    Dpop,
}

/// A request whose credentials were taken.
pub(super) struct Authenticated {
    /// Whom the token speaks for.
    pub(super) principal: Arc<Principal>,
    /// A header to send with the answer: a new DPoP nonce.
    pub(super) header: Option<(HeaderName, HeaderValue)>,
}

impl Protection {
    pub(super) fn new(config: AuthConfig, server: &Server) -> Self {
        // Tools a live registry adds later are not in the document: a
        // client learns their scopes from the 403 that asks for them.
        let tool_scopes = server.all_tool_scopes();
        let scopes: BTreeSet<&str> = config
            .scopes_supported
            .iter()
            .chain(&config.required_scopes)
            .chain(&tool_scopes)
            .map(String::as_str)
            .collect();
        let dpop = dpop::Dpop::new(&config);
        let mut document = ProtectedResourceMetadata {
            resource: config.resource.clone(),
            authorization_servers: config.authorization_servers.clone(),
            scopes_supported: scopes.into_iter().map(str::to_owned).collect(),
            bearer_methods_supported: vec!["header".to_owned()],
            resource_name: config.resource_name.clone(),
            extra: Default::default(),
        };
        dpop.publish(&mut document.extra);
        Protection {
            metadata: serde_json::to_vec(&document).expect("metadata serializes"),
            metadata_url: config.metadata_url(),
            metadata_paths: config.metadata_paths(),
            dpop,
            config,
        }
    }

    /// Whether `path` is where the metadata is served.
    pub(super) fn serves_metadata(&self, path: &str) -> bool {
        self.metadata_paths.iter().any(|p| p == path)
    }

    /// The metadata document; public, so that any origin may read it.
    pub(super) fn metadata_response(&self) -> Response<McpBody> {
        let mut response = response::json(StatusCode::OK, self.metadata.clone());
        response.headers_mut().insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        response
    }

    /// The principal of the request's access token, or the refusal. A
    /// `DPoP` token's proof is checked before the token (it costs no I/O),
    /// and its binding and freshness after.
    pub(super) async fn authenticate(
        &self,
        method: &Method,
        headers: &HeaderMap,
    ) -> Result<Authenticated, Response<McpBody>> {
        let (scheme, token) = match credentials(headers) {
            Ok(Some(found)) => found,
            Ok(None) => {
                return Err(self.refuse(
                    StatusCode::UNAUTHORIZED,
                    Scheme::Bearer,
                    None,
                    "an access token is required",
                ));
            }
            Err(why) => {
                return Err(self.refuse(
                    StatusCode::BAD_REQUEST,
                    Scheme::Bearer,
                    Some("invalid_request"),
                    why,
                ));
            }
        };
        let proof = self
            .check_proof(scheme, method, headers, token)
            .map_err(|refusal| *refusal)?;
        let principal = match self.config.verifier.verify(token).await {
            Ok(principal) => principal,
            Err(TokenError::Invalid(why)) => {
                tracing::info!(reason = %why, "access token refused");
                return Err(self.refuse(
                    StatusCode::UNAUTHORIZED,
                    scheme,
                    Some("invalid_token"),
                    &why,
                ));
            }
            Err(TokenError::Unavailable(why)) => {
                tracing::warn!(reason = %why, "access tokens cannot be verified");
                return Err(response::refuse(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "access tokens cannot be verified now; try again later",
                ));
            }
        };
        let header = self.accept_proof(proof, &principal).await?;
        if let Some(refusal) = self.refuse_scopes(&principal, &[]) {
            return Err(refusal);
        }
        Ok(Authenticated {
            principal: Arc::new(principal),
            header,
        })
    }

    /// 403 `insufficient_scope`, unless `principal` holds every required
    /// scope and every one of `needed` (then `None`).
    pub(super) fn refuse_scopes(
        &self,
        principal: &Principal,
        needed: &[String],
    ) -> Option<Response<McpBody>> {
        let all: BTreeSet<&str> = self
            .config
            .required_scopes
            .iter()
            .chain(needed)
            .map(String::as_str)
            .collect();
        if principal.has_scopes(all.iter().copied()) {
            return None;
        }
        // The scopes to ask for: what the token has plus what it lacks, so
        // that a client stepping up does not lose what it had.
        let wanted: BTreeSet<&str> = principal
            .scopes
            .iter()
            .map(String::as_str)
            .chain(all)
            .collect();
        let wanted = wanted.into_iter().collect::<Vec<_>>().join(" ");
        // Where only bound tokens are taken, the challenge is theirs.
        let scheme = match self.dpop.required() {
            true => "DPoP",
            false => "Bearer",
        };
        let challenge = Challenge {
            scheme: scheme.to_owned(),
            params: Vec::new(),
        }
        .param("error", "insufficient_scope")
        .param("scope", wanted)
        .param("resource_metadata", &self.metadata_url)
        .param(
            "error_description",
            "the access token lacks a required scope",
        );
        Some(challenged(
            StatusCode::FORBIDDEN,
            &[challenge],
            "insufficient scope",
        ))
    }

    /// A refusal of the request's credentials, with `error` (if any) on
    /// the challenge of `scheme`: the `Bearer` challenge unless only bound
    /// tokens are taken, and the `DPoP` one when DPoP is offered or the
    /// error is about it.
    fn refuse(
        &self,
        status: StatusCode,
        scheme: Scheme,
        error: Option<&str>,
        why: &str,
    ) -> Response<McpBody> {
        let required = self.dpop.required();
        let error = error.map(|error| (error, why));
        let mut challenges = Vec::new();
        if !required {
            let own = error.filter(|_| scheme == Scheme::Bearer);
            challenges.push(self.bearer_challenge(own));
        }
        let own = error.filter(|_| scheme == Scheme::Dpop || required);
        challenges.extend(self.dpop.challenge(own, self.common_params()));
        let mut response = challenged(status, &challenges, why);
        if let Some((name, value)) = self.dpop.nonce_header() {
            response.headers_mut().insert(name, value);
        }
        response
    }

    fn bearer_challenge(&self, error: Option<(&str, &str)>) -> Challenge {
        let mut challenge = Challenge::bearer();
        for (name, value) in self.common_params() {
            challenge = challenge.param(name, value);
        }
        if let Some((error, why)) = error {
            challenge = challenge
                .param("error", error)
                .param("error_description", why);
        }
        challenge
    }

    /// `resource_metadata`, and `scope` when every request needs some.
    fn common_params(&self) -> Vec<(&'static str, String)> {
        let mut params = vec![("resource_metadata", self.metadata_url.clone())];
        if !self.config.required_scopes.is_empty() {
            params.push(("scope", self.config.required_scopes.join(" ")));
        }
        params
    }
}

/// A response with `status`, every one of `challenges` as a
/// `WWW-Authenticate` header of its own, and `why` in the body.
fn challenged(status: StatusCode, challenges: &[Challenge], why: &str) -> Response<McpBody> {
    let mut response = response::refuse(status, why);
    for challenge in challenges {
        // Control characters are dropped when written, so this cannot fail.
        if let Ok(value) = HeaderValue::try_from(challenge.to_string()) {
            response
                .headers_mut()
                .append(header::WWW_AUTHENTICATE, value);
        }
    }
    response
}

/// The scheme and token of the one `Authorization` header, `Bearer`
/// (RFC 6750 section 2.1) or `DPoP` (RFC 9449 section 7.1), the scheme in
/// any case: `None` without the header, an error when it is repeated, of
/// another scheme, or not a token68.
fn credentials(headers: &HeaderMap) -> Result<Option<(Scheme, &str)>, &'static str> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err("more than one Authorization header");
    }
    let value = value
        .to_str()
        .map_err(|_| "an unreadable Authorization header")?;
    let (scheme, token) = value
        .split_once(' ')
        .ok_or("a malformed Authorization header")?;
    let scheme = if scheme.eq_ignore_ascii_case("bearer") {
        Scheme::Bearer
    } else if scheme.eq_ignore_ascii_case(crate::oauth::dpop::SCHEME) {
        Scheme::Dpop
    } else {
        return Err("the Authorization scheme must be Bearer or DPoP");
    };
    let token = token.trim_start_matches(' ');
    if !crate::oauth::is_token68(token) {
        return Err("the access token is malformed");
    }
    Ok(Some((scheme, token)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn reads_exactly_one_bearer_or_dpop_token() {
        assert_eq!(credentials(&headers(&[])), Ok(None));
        assert_eq!(
            credentials(&headers(&["Bearer abc.def-_~+/=="])),
            Ok(Some((Scheme::Bearer, "abc.def-_~+/==")))
        );
        assert_eq!(
            credentials(&headers(&["bearer  x"])),
            Ok(Some((Scheme::Bearer, "x")))
        );
        assert_eq!(
            credentials(&headers(&["dPoP x.y"])),
            Ok(Some((Scheme::Dpop, "x.y")))
        );
        for bad in [
            &["Basic abc"][..],
            &["Bearer"],
            &["Bearer "],
            &["Bearer a b"],
            &["Bearer a,b"],
            &["Bearer =="],
            &["DPoP a b"],
            &["DPoPx a"],
            &["Bearer a", "Bearer b"],
            &["Bearer a", "DPoP b"],
        ] {
            assert!(credentials(&headers(bad)).is_err(), "{bad:?}");
        }
    }
}
