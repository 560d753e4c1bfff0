//! Small JSON exchanges with an authorization server (metadata, keys,
//! introspection): bounded in size and time, and never following a
//! redirect, so that a hostile document cannot send us elsewhere.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Uri};
use serde::de::DeserializeOwned;

use super::{ConnectError, HttpClient};
use crate::redact::RedactedUrl;

/// GETs `url` and reads its JSON body as `T`.
#[cfg(any(feature = "client", feature = "jwt"))]
pub(crate) async fn get_json<T: DeserializeOwned>(
    client: &HttpClient,
    url: &str,
    max_bytes: usize,
    timeout: Duration,
) -> Result<T, String> {
    let uri = super::parse_url(url)?;
    let request = Request::builder()
        .method(Method::GET)
        .uri(uri.clone())
        .header(ACCEPT, "application/json")
        .body(Full::new(Bytes::new()))
        .map_err(|e| e.to_string())?;
    exchange(client, &uri, request, max_bytes, timeout)
        .await
        .map_err(|failure| failure.message)
}

/// POSTs `form` to `url`, with HTTP Basic client authentication when
/// `basic` is given, and reads the JSON answer as `T`.
pub(crate) async fn post_form<T: DeserializeOwned>(
    client: &HttpClient,
    url: &str,
    form: &[(&str, &str)],
    basic: Option<HeaderValue>,
    max_bytes: usize,
    timeout: Duration,
) -> Result<T, String> {
    post_oauth_form(client, url, form, basic, max_bytes, timeout)
        .await
        .map_err(|failure| failure.message)
}

/// [`post_form`], keeping the `error` code of an OAuth error answer (RFC
/// 6749 §5.2), which tells a dead grant from a passing failure.
pub(crate) async fn post_oauth_form<T: DeserializeOwned>(
    client: &HttpClient,
    url: &str,
    form: &[(&str, &str)],
    basic: Option<HeaderValue>,
    max_bytes: usize,
    timeout: Duration,
) -> Result<T, Failure> {
    let uri = super::parse_url(url)?;
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form)
        .finish();
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(uri.clone())
        .header(ACCEPT, "application/json")
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(basic) = basic {
        request = request.header(AUTHORIZATION, basic);
    }
    let request = request
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    exchange(client, &uri, request, max_bytes, timeout).await
}

/// POSTs `body` as JSON to `url` and reads the JSON answer as `T` (any
/// 2xx status, such as 201 Created).
#[cfg(feature = "client")]
pub(crate) async fn post_json<T: DeserializeOwned>(
    client: &HttpClient,
    url: &str,
    body: &serde_json::Value,
    max_bytes: usize,
    timeout: Duration,
) -> Result<T, String> {
    let uri = super::parse_url(url)?;
    let request = Request::builder()
        .method(Method::POST)
        .uri(uri.clone())
        .header(ACCEPT, "application/json")
        .header(CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .map_err(|e| e.to_string())?;
    exchange(client, &uri, request, max_bytes, timeout)
        .await
        .map_err(|failure| failure.message)
}

/// GETs `url` without following its redirect and returns the redirect's
/// `Location` (an authorization endpoint answering with the callback URL).
#[cfg(feature = "client")]
pub(crate) async fn redirect_location(
    client: &HttpClient,
    url: &str,
    timeout: Duration,
) -> Result<String, String> {
    let uri = super::parse_url(url)?;
    let request = Request::builder()
        .method(Method::GET)
        .uri(uri.clone())
        .body(Full::new(Bytes::new()))
        .map_err(|e| e.to_string())?;
    let shown = RedactedUrl::new(url);
    let work = async {
        let response = client
            .request(request)
            .await
            .map_err(|e| ConnectError::classify(&uri, &e).to_string())?;
        if !response.status().is_redirection() {
            return Err(format!(
                "the authorization endpoint answered HTTP {} instead of redirecting",
                response.status()
            ));
        }
        response
            .headers()
            .get(hyper::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| "a redirect without Location".to_owned())
    };
    tokio::time::timeout(timeout, work)
        .await
        .map_err(|_| format!("{shown} did not answer within {timeout:?}"))?
}

/// Why an exchange failed, and the `error` member of the answer when the
/// server refused with an OAuth error document.
pub(crate) struct Failure {
    pub(crate) message: String,
    /// Read by the client's token requests only.
    #[cfg_attr(not(feature = "client"), expect(dead_code))]
    pub(crate) oauth_error: Option<String>,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure {
            message,
            oauth_error: None,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The `error` member of an OAuth error answer.
#[derive(serde::Deserialize)]
struct OAuthErrorAnswer {
    error: String,
}

async fn exchange<T: DeserializeOwned>(
    client: &HttpClient,
    uri: &Uri,
    request: Request<Full<Bytes>>,
    max_bytes: usize,
    timeout: Duration,
) -> Result<T, Failure> {
    let address = uri.to_string();
    let shown = RedactedUrl::new(&address);
    let work = async {
        let response = client
            .request(request)
            .await
            .map_err(|e| ConnectError::classify(uri, &e).to_string())?;
        let status = response.status();
        if status.is_redirection() {
            return Err(
                format!("{shown} answered HTTP {status}; redirects are not followed").into(),
            );
        }
        let body = Limited::new(response.into_body(), max_bytes)
            .collect()
            .await
            .map_err(|e| format!("reading {shown} failed (at most {max_bytes} bytes): {e}"))?
            .to_bytes();
        if !status.is_success() {
            let text = String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
            let oauth_error = serde_json::from_slice::<OAuthErrorAnswer>(&body)
                .ok()
                .map(|answer| answer.error);
            return Err(Failure {
                message: format!("{shown} answered HTTP {status}: {text}"),
                oauth_error,
            });
        }
        serde_json::from_slice(&body)
            .map_err(|e| format!("{shown} sent an unreadable document: {e}").into())
    };
    tokio::time::timeout(timeout, work)
        .await
        .map_err(|_| Failure::from(format!("{shown} did not answer within {timeout:?}")))?
}
