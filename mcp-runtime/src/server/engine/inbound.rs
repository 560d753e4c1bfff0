//! What the transport knew about a request beyond its JSON-RPC message:
//! over HTTP, its headers, the extensions outer layers set (an axum
//! `Extension`, say) and the principal its access token verified to. Over
//! stdio there is none of these (a stdio server takes credentials from its
//! environment).

use std::sync::Arc;

#[cfg(feature = "http")]
use hyper::HeaderMap;
#[cfg(feature = "http")]
use hyper::http::Extensions;

use crate::server::auth::Principal;

/// Handed from the transport to the request's context.
#[derive(Clone, Default, Debug)]
pub(crate) struct Inbound {
    /// The HTTP request's headers and extensions; `None` over stdio.
    #[cfg(feature = "http")]
    http: Option<Arc<HttpParts>>,
    /// Who the access token speaks for, on a protected server.
    pub(crate) principal: Option<Arc<Principal>>,
}

/// What an HTTP request brings besides its body, shared by every holder of
/// its context (one allocation per request).
#[cfg(feature = "http")]
#[derive(Debug)]
struct HttpParts {
    /// Without `Authorization`: a handler has no business forwarding the
    /// client's token upstream.
    headers: HeaderMap,
    /// As outer tower/axum layers set them.
    extensions: Extensions,
}

#[cfg(feature = "http")]
impl Inbound {
    /// An HTTP request's headers (without `Authorization`), extensions
    /// and principal.
    pub(crate) fn http(
        mut headers: HeaderMap,
        extensions: Extensions,
        principal: Option<Arc<Principal>>,
    ) -> Self {
        headers.remove(hyper::header::AUTHORIZATION);
        Inbound {
            http: Some(Arc::new(HttpParts {
                headers,
                extensions,
            })),
            principal,
        }
    }

    /// The HTTP request headers, `Authorization` removed; `None` over stdio.
    pub(crate) fn headers(&self) -> Option<&HeaderMap> {
        self.http.as_deref().map(|http| &http.headers)
    }

    /// The HTTP request's extensions; `None` over stdio.
    pub(crate) fn extensions(&self) -> Option<&Extensions> {
        self.http.as_deref().map(|http| &http.extensions)
    }
}
