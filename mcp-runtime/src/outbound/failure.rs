//! Why an outgoing connection failed, sorted into what a user can act on:
//! a certificate problem, a name that does not resolve, a refused
//! connection, a timeout.

use std::error::Error as StdError;
use std::fmt;
use std::io;

use hyper::Uri;

use crate::redact::RedactedUrl;

/// Reaching a server failed before it answered.
#[derive(Debug)]
pub struct ConnectError {
    /// The URL that was being reached, as [`RedactedUrl`] shows it (no
    /// userinfo, query or fragment).
    pub url: String,
    /// What went wrong.
    pub kind: ConnectErrorKind,
}

/// The kinds of [`ConnectError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
// Public through `client::ClientError`; a build without the client and
// without `tls` never makes a `Tls` one.
#[cfg_attr(not(any(feature = "client", feature = "tls")), allow(dead_code))]
pub enum ConnectErrorKind {
    /// The URL cannot be reached by this build (scheme, feature).
    UnsupportedUrl(String),
    /// The TLS handshake failed; the text names the certificate problem
    /// (unknown issuer, wrong name, expired).
    Tls(String),
    /// The host name did not resolve.
    Dns(String),
    /// Nothing listens on that address and port.
    Refused,
    /// The connection took too long.
    TimedOut,
    /// Anything else, with the underlying message.
    Other(String),
}

impl ConnectError {
    pub(crate) fn new(url: &Uri, kind: ConnectErrorKind) -> Self {
        ConnectError {
            url: RedactedUrl::new(&url.to_string()).to_string(),
            kind,
        }
    }

    /// Sorts a failed request's error.
    pub(crate) fn classify(url: &Uri, error: &(dyn StdError + 'static)) -> Self {
        ConnectError::new(url, classify(error))
    }
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let url = &self.url;
        match &self.kind {
            ConnectErrorKind::UnsupportedUrl(why) => write!(f, "cannot reach {url}: {why}"),
            ConnectErrorKind::Tls(why) => write!(
                f,
                "TLS with {url} failed: {why} (trusted roots: the system's, plus SSL_CERT_FILE \
                 and SSL_CERT_DIR)"
            ),
            ConnectErrorKind::Dns(why) => write!(f, "cannot resolve the host of {url}: {why}"),
            ConnectErrorKind::Refused => write!(f, "connection to {url} refused"),
            ConnectErrorKind::TimedOut => write!(f, "connecting to {url} timed out"),
            ConnectErrorKind::Other(why) => write!(f, "cannot reach {url}: {why}"),
        }
    }
}

impl StdError for ConnectError {}

/// Walks the error's chain. `io::Error::source` skips the error it wraps,
/// so wrapped errors are reached through `get_ref` as well.
fn classify(error: &(dyn StdError + 'static)) -> ConnectErrorKind {
    let mut next = Some(error);
    let mut steps = 0;
    // hyper's connect error says "dns error" and wraps the resolver's.
    let mut dns = false;
    while let Some(error) = next {
        steps += 1;
        if steps > 16 {
            break;
        }
        #[cfg(feature = "tls")]
        if let Some(tls) = error.downcast_ref::<rustls::Error>() {
            return ConnectErrorKind::Tls(tls.to_string());
        }
        if error.to_string() == "dns error" {
            dns = true;
        }
        if let Some(io) = error.downcast_ref::<io::Error>() {
            match io.kind() {
                io::ErrorKind::ConnectionRefused => return ConnectErrorKind::Refused,
                io::ErrorKind::TimedOut => return ConnectErrorKind::TimedOut,
                _ => {}
            }
            if let Some(inner) = io.get_ref() {
                next = Some(inner as &(dyn StdError + 'static));
                continue;
            }
            if dns {
                return ConnectErrorKind::Dns(io.to_string());
            }
        }
        next = error.source();
    }
    if dns {
        return ConnectErrorKind::Dns("the name does not resolve".into());
    }
    ConnectErrorKind::Other(chain(error))
}

/// The error's messages, outermost first.
fn chain(error: &(dyn StdError + 'static)) -> String {
    let mut text = error.to_string();
    let mut next = error.source();
    while let Some(error) = next {
        text.push_str(": ");
        text.push_str(&error.to_string());
        next = error.source();
    }
    text
}
