//! The interactive step of the authorization code flow: the user sees the
//! authorization URL, approves, and the browser is redirected back to the
//! client with a code. Pluggable; two built in.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::client::ClientError;
use crate::outbound::{self, fetch};
use crate::redact::RedactedUrl;

/// What [`AuthorizationStep::authorize`] returns.
pub type AuthorizeFuture<'a> =
    Pin<Box<dyn Future<Output = Result<String, ClientError>> + Send + 'a>>;

/// Shows the user an authorization request and brings back where the
/// authorization server redirected the browser.
pub trait AuthorizationStep: Send + Sync + 'static {
    /// The redirect URI this client registers (an absolute URL).
    fn redirect_uri(&self) -> String;
    /// Has the user open `url` and returns the URL the browser was sent
    /// back to (carrying `code` and `state`, or `error`).
    fn authorize<'a>(&'a self, url: &'a str) -> AuthorizeFuture<'a>;
}

/// A shared step, so that one (such as one loopback listener) can serve
/// several clients.
impl<T: AuthorizationStep + ?Sized> AuthorizationStep for std::sync::Arc<T> {
    fn redirect_uri(&self) -> String {
        (**self).redirect_uri()
    }

    fn authorize<'a>(&'a self, url: &'a str) -> AuthorizeFuture<'a> {
        (**self).authorize(url)
    }
}

/// For authorization servers that approve without a user (test servers,
/// some single sign-on setups): GETs the authorization URL and takes its
/// redirect, without following it.
pub struct FollowRedirect {
    redirect_uri: String,
}

impl FollowRedirect {
    /// Registers `redirect_uri`, which is never contacted.
    pub fn new(redirect_uri: impl Into<String>) -> Self {
        FollowRedirect {
            redirect_uri: redirect_uri.into(),
        }
    }
}

impl AuthorizationStep for FollowRedirect {
    fn redirect_uri(&self) -> String {
        self.redirect_uri.clone()
    }

    fn authorize<'a>(&'a self, url: &'a str) -> AuthorizeFuture<'a> {
        Box::pin(async move {
            let uri = url.parse().map_err(|e| {
                let url = RedactedUrl::new(url);
                ClientError::Authorization(format!("invalid URL {url}: {e}"))
            })?;
            let client = outbound::client_for(&uri).map_err(ClientError::Connect)?;
            fetch::redirect_location(&client, url, Duration::from_secs(30))
                .await
                .map_err(ClientError::Authorization)
        })
    }
}

/// The usual desktop flow: prints the authorization URL (and tries to open
/// the system browser), then waits on a loopback port for the redirect,
/// as RFC 8252 describes for native apps.
///
/// The port is new at each [`bind`](LoopbackBrowser::bind), and with it
/// the redirect URI. A registration the store kept (Dynamic Client
/// Registration) is reused for a new authorization only when its redirect
/// URI matches exactly, so a later run that needs the user registers
/// again; refreshing a stored token needs no redirect and uses the kept
/// registration.
pub struct LoopbackBrowser {
    listener: tokio::sync::Mutex<tokio::net::TcpListener>,
    port: u16,
    wait: Duration,
    open: bool,
}

impl LoopbackBrowser {
    /// Listens on a free port of 127.0.0.1 for the redirect.
    pub async fn bind() -> Result<Self, ClientError> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        Ok(LoopbackBrowser {
            listener: tokio::sync::Mutex::new(listener),
            port,
            wait: Duration::from_secs(300),
            open: true,
        })
    }

    /// Only prints the URL, for machines without a browser (over SSH).
    pub fn without_browser(mut self) -> Self {
        self.open = false;
        self
    }
}

impl AuthorizationStep for LoopbackBrowser {
    fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    fn authorize<'a>(&'a self, url: &'a str) -> AuthorizeFuture<'a> {
        Box::pin(async move {
            eprintln!("Open this URL to authorize access:\n\n    {url}\n");
            if self.open {
                open_browser(url);
            }
            let listener = self.listener.lock().await;
            tokio::time::timeout(self.wait, async {
                loop {
                    let (mut stream, _) = listener.accept().await?;
                    let mut buffer = vec![0u8; 8192];
                    let read = stream.read(&mut buffer).await.unwrap_or(0);
                    let request = String::from_utf8_lossy(&buffer[..read]).into_owned();
                    let target = request
                        .lines()
                        .next()
                        .and_then(|line| line.strip_prefix("GET "))
                        .and_then(|rest| rest.split(' ').next())
                        .filter(|target| target.starts_with("/callback"));
                    let Some(target) = target else {
                        let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n").await;
                        continue;
                    };
                    let body = "Authorization received; you can close this window.";
                    let response = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = stream.write_all(response.as_bytes()).await;
                    return Ok(format!("http://127.0.0.1:{}{target}", self.port));
                }
            })
            .await
            .map_err(|_| ClientError::Authorization("no authorization arrived in time".into()))?
        })
    }
}

/// Best effort: the URL is printed anyway.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let _ = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

/// The query parameters of a redirect URL.
pub(super) fn callback_params(url: &str) -> HashMap<String, String> {
    let without_fragment = url.split('#').next().unwrap_or_default();
    let query = without_fragment.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// `endpoint` with `params` added to its query.
pub(super) fn with_query(endpoint: &str, params: &[(&str, &str)]) -> String {
    let query = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    let separator = if endpoint.contains('?') { '&' } else { '?' };
    format!("{endpoint}{separator}{query}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_loopback_listener_takes_the_redirect_and_ignores_other_paths() {
        let browser = LoopbackBrowser::bind().await.unwrap().without_browser();
        let redirect_uri = browser.redirect_uri();
        let port = redirect_uri
            .trim_start_matches("http://127.0.0.1:")
            .trim_end_matches("/callback")
            .to_owned();
        let user = tokio::spawn(async move {
            for target in ["/favicon.ico", "/callback?code=abc&state=xyz"] {
                let mut stream = tokio::net::TcpStream::connect(format!("127.0.0.1:{port}"))
                    .await
                    .unwrap();
                let request = format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                stream.write_all(request.as_bytes()).await.unwrap();
                let mut answer = String::new();
                stream.read_to_string(&mut answer).await.unwrap();
                assert!(answer.starts_with("HTTP/1.1"), "{answer}");
            }
        });
        let redirected = browser
            .authorize("https://as.example/authorize")
            .await
            .unwrap();
        user.await.unwrap();
        assert_eq!(redirected, format!("{}?code=abc&state=xyz", redirect_uri));
        let params = callback_params(&redirected);
        assert_eq!(params["code"], "abc");
        assert_eq!(params["state"], "xyz");
    }

    #[test]
    fn queries_are_form_encoded() {
        assert_eq!(
            with_query("https://as/authorize", &[("scope", "a b"), ("x", "&=")]),
            "https://as/authorize?scope=a+b&x=%26%3D"
        );
        assert_eq!(
            with_query("https://as/a?p=1", &[("q", "2")]),
            "https://as/a?p=1&q=2"
        );
    }
}
