//! Finding where to get a token: the resource's metadata (RFC 9728), then
//! its authorization server's (RFC 8414 or OpenID Connect discovery, in
//! the spec's order), each checked against what named it.

use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::client::ClientError;
use crate::oauth::challenge::Challenge;
use crate::oauth::metadata::{
    AuthorizationServerMetadata, MAX_DOCUMENT_BYTES, PROTECTED_RESOURCE_PATH,
    ProtectedResourceMetadata, authorization_server_metadata_urls, is_https_or_loopback,
    protected_resource_metadata_url, split_origin,
};
use crate::outbound::{self, fetch};
use crate::redact::RedactedUrl;

/// GETs a JSON document (a fresh client per URL: the scheme decides TLS).
pub(super) async fn get<T: DeserializeOwned>(url: &str, timeout: Duration) -> Result<T, String> {
    let uri = url
        .parse()
        .map_err(|e| format!("invalid URL {}: {e}", RedactedUrl::new(url)))?;
    let client = outbound::client_for(&uri).map_err(|e| e.to_string())?;
    fetch::get_json(&client, url, MAX_DOCUMENT_BYTES, timeout).await
}

/// The metadata of the resource at `server_url`: from the challenge's
/// `resource_metadata` when it names one (and only there), else the
/// path-inserted well-known URL, then the root one. Its `resource` must be
/// the server's URL or a prefix of it on the same origin.
pub(super) async fn protected_resource(
    server_url: &str,
    challenge: Option<&Challenge>,
    timeout: Duration,
) -> Result<ProtectedResourceMetadata, ClientError> {
    let urls = match challenge.and_then(Challenge::resource_metadata) {
        Some(url) => vec![secure(url, "the resource metadata URL")?.to_owned()],
        None => {
            let (origin, _) = split_origin(server_url).ok_or_else(|| {
                failure(format!(
                    "{} is not an http(s) URL",
                    RedactedUrl::new(server_url)
                ))
            })?;
            let mut urls: Vec<String> = protected_resource_metadata_url(server_url)
                .into_iter()
                .collect();
            let root = format!("{origin}{PROTECTED_RESOURCE_PATH}");
            if !urls.contains(&root) {
                urls.push(root);
            }
            urls
        }
    };
    let mut failures = Vec::new();
    for url in &urls {
        match get::<ProtectedResourceMetadata>(url, timeout).await {
            Ok(metadata) => {
                for issuer in &metadata.authorization_servers {
                    secure(issuer, "the authorization server")?;
                }
                if !covers(&metadata.resource, server_url) {
                    return Err(failure(format!(
                        "the resource metadata at {} is for {:?}, not for {}; \
                         no token is requested for it",
                        RedactedUrl::new(url),
                        RedactedUrl::new(&metadata.resource),
                        RedactedUrl::new(server_url),
                    )));
                }
                return Ok(metadata);
            }
            Err(error) => failures.push(error),
        }
    }
    Err(failure(format!(
        "no protected resource metadata for {}: {}",
        RedactedUrl::new(server_url),
        failures.join("; ")
    )))
}

/// The metadata of `issuer`, from the first well-known URL that has it;
/// its `issuer` must equal the one the resource named, character for
/// character.
pub(super) async fn authorization_server(
    issuer: &str,
    timeout: Duration,
) -> Result<AuthorizationServerMetadata, ClientError> {
    let urls = authorization_server_metadata_urls(issuer).ok_or_else(|| {
        failure(format!(
            "the issuer {:?} is not an http(s) URL",
            RedactedUrl::new(issuer)
        ))
    })?;
    let mut failures = Vec::new();
    for url in &urls {
        match get::<AuthorizationServerMetadata>(url, timeout).await {
            Ok(metadata) if metadata.issuer == issuer => {
                let endpoints = [
                    &metadata.authorization_endpoint,
                    &metadata.token_endpoint,
                    &metadata.registration_endpoint,
                ];
                for endpoint in endpoints.into_iter().flatten() {
                    secure(endpoint, "an endpoint of the authorization server")?;
                }
                return Ok(metadata);
            }
            Ok(metadata) => {
                return Err(failure(format!(
                    "the metadata at {} names the issuer {:?}, not {:?}",
                    RedactedUrl::new(url),
                    RedactedUrl::new(&metadata.issuer),
                    RedactedUrl::new(issuer),
                )));
            }
            Err(error) => failures.push(error),
        }
    }
    Err(failure(format!(
        "no metadata for the authorization server {}: {}",
        RedactedUrl::new(issuer),
        failures.join("; ")
    )))
}

/// Whether a token for `resource` may be sent to `server_url`: the same
/// origin, and the resource's path is the server's or a parent of it.
fn covers(resource: &str, server_url: &str) -> bool {
    let (Some((origin, path)), Some((server_origin, server_path))) =
        (split_origin(resource), split_origin(server_url))
    else {
        return false;
    };
    origin.eq_ignore_ascii_case(server_origin)
        && (path.is_empty()
            || server_path == path
            || server_path
                .strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('/')))
}

/// `url`, when OAuth traffic may go there: `https://`, or `http://` on a
/// loopback host only.
fn secure<'a>(url: &'a str, what: &str) -> Result<&'a str, ClientError> {
    match is_https_or_loopback(url) {
        true => Ok(url),
        false => Err(failure(format!(
            "{what} {} is not https://, or has a query or fragment (plain http:// is \
             accepted on loopback hosts only)",
            RedactedUrl::new(url)
        ))),
    }
}

pub(super) fn failure(why: impl Into<String>) -> ClientError {
    ClientError::Authorization(why.into())
}

#[cfg(test)]
mod tests {
    use super::covers;

    #[test]
    fn a_resource_covers_its_own_url_and_those_below_it() {
        let server = "http://localhost:3000/mcp";
        assert!(covers("http://localhost:3000/mcp", server));
        assert!(covers("http://localhost:3000", server));
        assert!(covers("http://localhost:3000/", server));
        assert!(!covers("https://evil.example.com/mcp", server));
        assert!(!covers("http://localhost:3001/mcp", server));
        assert!(!covers("http://localhost:3000/mc", server));
        assert!(!covers("http://localhost:3000/mcp/deeper", server));
    }
}
