//! Outgoing HTTP: the one place that builds an HTTP(S) client, for the MCP
//! client's transport and for a protected server that fetches its issuer's
//! metadata and keys. `https://` goes through rustls (feature `tls`, off
//! by default) and trusts what [`trust`] loads; failures are sorted into the
//! kinds a user can act on by [`failure`].

pub(crate) mod failure;
pub(crate) mod fetch;
#[cfg(feature = "tls")]
pub(crate) mod trust;

use bytes::Bytes;
use http_body_util::Full;
use hyper::Uri;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

pub use failure::{ConnectError, ConnectErrorKind};

use crate::redact::{RedactedUrl, split_userinfo};

/// The connector under every outgoing request.
#[cfg(feature = "tls")]
pub(crate) type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
/// The connector under every outgoing request (plain HTTP: built without
/// the `tls` feature).
#[cfg(not(feature = "tls"))]
pub(crate) type Connector = HttpConnector;

/// A pooled HTTP/1.1 client for `http://` and `https://` URLs.
pub(crate) type HttpClient = HyperClient<Connector, Full<Bytes>>;

/// `url` parsed for a request, without its userinfo: no HTTP request
/// carries it (credentials go in headers), and dropping it here keeps it
/// out of hyper's own logs as well. The error shows the URL redacted.
pub(crate) fn parse_url(url: &str) -> Result<Uri, String> {
    let invalid = |e: &dyn std::fmt::Display| format!("invalid URL {}: {e}", RedactedUrl::new(url));
    let uri: Uri = url.parse().map_err(|e| invalid(&e))?;
    let Some((userinfo, host)) = uri.authority().map(|a| split_userinfo(a.as_str())) else {
        return Ok(uri);
    };
    if !has_digit_port(host) {
        return Err(invalid(&"the port is not a number"));
    }
    if userinfo.is_none() {
        return Ok(uri);
    }
    let host = host.parse().map_err(|e| invalid(&e))?;
    let mut parts = uri.into_parts();
    parts.authority = Some(host);
    Uri::from_parts(parts).map_err(|e| invalid(&e))
}

/// Whether the port of `host_port`, if it names one, is digits (RFC 3986),
/// which hyper does not check. A password with an unescaped `/`, `?` or `#`
/// ends the authority inside the userinfo, and its `user:pass` then reads
/// as a host and a port: such a URL is refused, not connected to with the
/// password in the `Host` header and in hyper's logs.
fn has_digit_port(host_port: &str) -> bool {
    let after_host = host_port
        .rsplit_once(']')
        .map_or(host_port, |(_, rest)| rest);
    after_host
        .split_once(':')
        .is_none_or(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
}

/// A client able to reach `url`: `http://`, or `https://` with the trusted
/// roots loaded now (so a changed `SSL_CERT_FILE` applies to the next one).
pub(crate) fn client_for(url: &Uri) -> Result<HttpClient, ConnectError> {
    let mut http = HttpConnector::new();
    http.set_nodelay(true);
    http.enforce_http(false);
    let connector = match url.scheme_str() {
        Some("http") | Some("https") => connector(http, url)?,
        _ => {
            return Err(ConnectError::new(
                url,
                ConnectErrorKind::UnsupportedUrl(
                    "only http:// and https:// URLs can be reached".into(),
                ),
            ));
        }
    };
    Ok(HyperClient::builder(TokioExecutor::new()).build(connector))
}

#[cfg(feature = "tls")]
fn connector(http: HttpConnector, url: &Uri) -> Result<Connector, ConnectError> {
    // Plain http:// needs no roots; loading them would only cost time.
    let config = if url.scheme_str() == Some("https") {
        trust::client_config().map_err(|why| ConnectError::new(url, ConnectErrorKind::Tls(why)))?
    } else {
        trust::plain_config()
    };
    Ok(hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(config)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http))
}

#[cfg(not(feature = "tls"))]
fn connector(http: HttpConnector, url: &Uri) -> Result<Connector, ConnectError> {
    if url.scheme_str() == Some("https") {
        return Err(ConnectError::new(
            url,
            ConnectErrorKind::UnsupportedUrl(
                "https:// needs mcp-toolkit-runtime's `tls` feature, which this build left out"
                    .into(),
            ),
        ));
    }
    Ok(http)
}

#[cfg(test)]
mod tests {
    use super::parse_url;

    #[test]
    fn request_urls_lose_their_userinfo_and_keep_the_rest() {
        let uri = parse_url("http://user:pw@127.0.0.1:8080/mcp?x=1").unwrap();
        assert_eq!(uri.to_string(), "http://127.0.0.1:8080/mcp?x=1");
        let uri = parse_url("https://host/mcp").unwrap();
        assert_eq!(uri.to_string(), "https://host/mcp");
        let error = parse_url("http://user:pw@host/m cp?token=t").unwrap_err();
        assert!(
            error.starts_with("invalid URL http://host/m cp:"),
            "{error}"
        );
        let uri = parse_url("http://[::1]:8080/mcp").unwrap();
        assert_eq!(uri.to_string(), "http://[::1]:8080/mcp");
    }

    #[test]
    fn a_password_that_cuts_the_authority_short_is_refused() {
        for url in [
            "http://user:hunter2?x@127.0.0.1:8080/mcp",
            "http://user:hunter2/x@127.0.0.1:8080/mcp",
            "http://user:hunter2#x@127.0.0.1:8080/mcp",
            "http://u@user:hunter2/x@127.0.0.1:8080/mcp",
        ] {
            let error = parse_url(url).unwrap_err();
            assert_eq!(error, "invalid URL http://…: the port is not a number");
        }
    }
}
