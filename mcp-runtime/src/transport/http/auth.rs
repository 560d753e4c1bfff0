//! The checks of a protected endpoint: the Protected Resource Metadata
//! document, the bearer token of every request (401 with a challenge that
//! points to the metadata), and the scopes a request needs (403
//! `insufficient_scope` naming them, so that a client can step up).

use std::collections::BTreeSet;
use std::sync::Arc;

use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Response, StatusCode};

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
        let document = ProtectedResourceMetadata {
            resource: config.resource.clone(),
            authorization_servers: config.authorization_servers.clone(),
            scopes_supported: scopes.into_iter().map(str::to_owned).collect(),
            bearer_methods_supported: vec!["header".to_owned()],
            resource_name: config.resource_name.clone(),
            extra: Default::default(),
        };
        Protection {
            metadata: serde_json::to_vec(&document).expect("metadata serializes"),
            metadata_url: config.metadata_url(),
            metadata_paths: config.metadata_paths(),
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

    /// The principal of the request's bearer token, or the refusal.
    pub(super) async fn authenticate(
        &self,
        headers: &HeaderMap,
    ) -> Result<Arc<Principal>, Response<McpBody>> {
        let token = match bearer_token(headers) {
            Ok(Some(token)) => token,
            Ok(None) => {
                return Err(self.refuse(
                    StatusCode::UNAUTHORIZED,
                    None,
                    "an access token is required",
                ));
            }
            Err(why) => {
                return Err(self.refuse(StatusCode::BAD_REQUEST, Some("invalid_request"), why));
            }
        };
        let principal = match self.config.verifier.verify(token).await {
            Ok(principal) => principal,
            Err(TokenError::Invalid(why)) => {
                tracing::info!(reason = %why, "access token refused");
                return Err(self.refuse(StatusCode::UNAUTHORIZED, Some("invalid_token"), &why));
            }
            Err(TokenError::Unavailable(why)) => {
                tracing::warn!(reason = %why, "access tokens cannot be verified");
                return Err(response::refuse(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "access tokens cannot be verified now; try again later",
                ));
            }
        };
        if let Some(refusal) = self.refuse_scopes(&principal, &[]) {
            return Err(refusal);
        }
        Ok(Arc::new(principal))
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
        let challenge = Challenge::bearer()
            .param("error", "insufficient_scope")
            .param("scope", wanted)
            .param("resource_metadata", &self.metadata_url)
            .param(
                "error_description",
                "the access token lacks a required scope",
            );
        Some(challenged(
            StatusCode::FORBIDDEN,
            challenge,
            "insufficient scope",
        ))
    }

    fn refuse(&self, status: StatusCode, error: Option<&str>, why: &str) -> Response<McpBody> {
        let mut challenge = Challenge::bearer().param("resource_metadata", &self.metadata_url);
        if !self.config.required_scopes.is_empty() {
            challenge = challenge.param("scope", self.config.required_scopes.join(" "));
        }
        if let Some(error) = error {
            challenge = challenge
                .param("error", error)
                .param("error_description", why);
        }
        challenged(status, challenge, why)
    }
}

fn challenged(status: StatusCode, challenge: Challenge, why: &str) -> Response<McpBody> {
    let mut response = response::refuse(status, why);
    // Control characters are dropped when written, so this cannot fail.
    if let Ok(value) = HeaderValue::try_from(challenge.to_string()) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// The token of the one `Authorization: Bearer` header (RFC 6750 section
/// 2.1): `None` without the header, an error when it is repeated, of
/// another scheme, or not a token68.
fn bearer_token(headers: &HeaderMap) -> Result<Option<&str>, &'static str> {
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
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err("the Authorization scheme must be Bearer");
    }
    let token = token.trim_start_matches(' ');
    if !crate::oauth::is_token68(token) {
        return Err("the bearer token is malformed");
    }
    Ok(Some(token))
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
    fn reads_exactly_one_bearer_token() {
        assert_eq!(bearer_token(&headers(&[])), Ok(None));
        assert_eq!(
            bearer_token(&headers(&["Bearer abc.def-_~+/=="])),
            Ok(Some("abc.def-_~+/=="))
        );
        assert_eq!(bearer_token(&headers(&["bearer  x"])), Ok(Some("x")));
        for bad in [
            &["Basic abc"][..],
            &["Bearer"],
            &["Bearer "],
            &["Bearer a b"],
            &["Bearer a,b"],
            &["Bearer =="],
            &["Bearer a", "Bearer b"],
        ] {
            assert!(bearer_token(&headers(bad)).is_err(), "{bad:?}");
        }
    }
}
