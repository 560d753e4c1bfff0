//! Outgoing HTTP: the one place that builds an HTTP(S) client, for the MCP
//! client's transport and for a protected server that fetches its issuer's
//! metadata and keys. `https://` goes through rustls (feature `tls`, on by
//! default) and trusts what [`trust`] loads; failures are sorted into the
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

/// The connector under every outgoing request.
#[cfg(feature = "tls")]
pub(crate) type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
/// The connector under every outgoing request (plain HTTP: built without
/// the `tls` feature).
#[cfg(not(feature = "tls"))]
pub(crate) type Connector = HttpConnector;

/// A pooled HTTP/1.1 client for `http://` and `https://` URLs.
pub(crate) type HttpClient = HyperClient<Connector, Full<Bytes>>;

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
                "https:// needs mcp-runtime's `tls` feature, which this build left out".into(),
            ),
        ));
    }
    Ok(http)
}
