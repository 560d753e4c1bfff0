//! Small JSON exchanges with an authorization server (metadata, keys,
//! introspection, registration, tokens): bounded in size and time, and
//! never following a redirect, so that a hostile document cannot send us
//! elsewhere. An error answer is reported by its status and its OAuth
//! `error` and `error_description` only, never its body: a server that
//! echoes the request would put a refresh token or a client secret there.

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
    post_oauth_form(client, url, form, basic, None, max_bytes, timeout)
        .await
        .map_err(|failure| failure.message)
}

/// [`post_form`], keeping the `error` code of an OAuth error answer (RFC
/// 6749 §5.2), which tells a dead grant from a passing failure, and its
/// `DPoP-Nonce`; with a DPoP proof (RFC 9449) when `dpop` is given.
pub(crate) async fn post_oauth_form<T: DeserializeOwned>(
    client: &HttpClient,
    url: &str,
    form: &[(&str, &str)],
    basic: Option<HeaderValue>,
    dpop: Option<HeaderValue>,
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
    if let Some(proof) = dpop {
        request = request.header(crate::oauth::dpop::DPOP_HEADER, proof);
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
    #[cfg_attr(not(any(feature = "client", test)), expect(dead_code))]
    pub(crate) oauth_error: Option<String>,
    /// The `DPoP-Nonce` of an error answer (RFC 9449 section 8): the
    /// nonce a retried token request puts in its proof.
    pub(crate) dpop_nonce: Option<String>,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure {
            message,
            oauth_error: None,
            dpop_nonce: None,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// An OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2).
#[derive(serde::Deserialize)]
struct OAuthErrorAnswer {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// The longest `error` code shown.
const MAX_ERROR_CHARS: usize = 64;
/// The longest `error_description` shown.
const MAX_DESCRIPTION_CHARS: usize = 200;

/// `text` as an error message may show it: control characters (a forged
/// line of a log, a terminal escape) dropped, at most `max` characters.
fn shown_text(text: &str, max: usize) -> String {
    let mut shown: String = text.chars().filter(|c| !c.is_control()).take(max).collect();
    if text.chars().filter(|c| !c.is_control()).nth(max).is_some() {
        shown.push('…');
    }
    shown
}

/// What an error answer with `status` and `body` says, for a message.
fn error_message(shown: &RedactedUrl<'_>, status: hyper::StatusCode, body: &[u8]) -> Failure {
    let answer = serde_json::from_slice::<OAuthErrorAnswer>(body).ok();
    let mut message = format!("{shown} answered HTTP {status}");
    if let Some(answer) = &answer {
        message.push_str(": ");
        message.push_str(&shown_text(&answer.error, MAX_ERROR_CHARS));
        if let Some(description) = &answer.error_description {
            message.push_str(" (");
            message.push_str(&shown_text(description, MAX_DESCRIPTION_CHARS));
            message.push(')');
        }
    }
    Failure {
        message,
        oauth_error: answer.map(|answer| answer.error),
        dpop_nonce: None,
    }
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
        let nonce = response
            .headers()
            .get(crate::oauth::dpop::NONCE_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = Limited::new(response.into_body(), max_bytes)
            .collect()
            .await
            .map_err(|e| format!("reading {shown} failed (at most {max_bytes} bytes): {e}"))?
            .to_bytes();
        if !status.is_success() {
            let mut failure = error_message(&shown, status, &body);
            failure.dpop_nonce = nonce;
            return Err(failure);
        }
        serde_json::from_slice(&body)
            .map_err(|e| format!("{shown} sent an unreadable document: {e}").into())
    };
    tokio::time::timeout(timeout, work)
        .await
        .map_err(|_| Failure::from(format!("{shown} did not answer within {timeout:?}")))?
}

#[cfg(test)]
mod tests {
    use hyper::StatusCode;

    use super::*;

    fn message(body: &str) -> (String, Option<String>) {
        let failure = error_message(
            &RedactedUrl::new("https://as.example/token"),
            StatusCode::BAD_REQUEST,
            body.as_bytes(),
        );
        (failure.message, failure.oauth_error)
    }

    #[test]
    fn an_error_answer_shows_its_oauth_error_never_its_body() {
        let echo = r#"{"error": "invalid_grant", "error_description": "expired",
            "request": "grant_type=refresh_token&refresh_token=SECRET&client_secret=HUSH"}"#;
        let (text, code) = message(echo);
        assert_eq!(
            text,
            "https://as.example/token answered HTTP 400 Bad Request: invalid_grant (expired)"
        );
        assert_eq!(code.as_deref(), Some("invalid_grant"));
        for body in [
            "refresh_token=SECRET&client_secret=HUSH",
            "<html>SECRET</html>",
            "",
        ] {
            let (text, code) = message(body);
            assert_eq!(
                text,
                "https://as.example/token answered HTTP 400 Bad Request"
            );
            assert_eq!(code, None);
        }
    }

    #[test]
    fn shown_members_are_bounded_and_free_of_control_characters() {
        let long = format!(
            r#"{{"error": "x\u001b[2J\nforged", "error_description": "{}"}}"#,
            "d".repeat(5000)
        );
        let (text, _) = message(&long);
        assert!(text.contains(": x[2Jforged ("), "{text}");
        assert!(!text.chars().any(char::is_control), "{text:?}");
        assert!(text.len() < 400, "{} bytes", text.len());
        assert!(text.ends_with("…)"), "{text}");
    }
}
