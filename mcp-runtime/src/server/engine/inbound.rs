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
    /// The HTTP request headers, `Authorization` removed: a handler has no
    /// business forwarding the client's token upstream.
    #[cfg(feature = "http")]
    pub(crate) headers: Option<Arc<HeaderMap>>,
    /// The HTTP request's extensions, as outer tower/axum layers set them.
    #[cfg(feature = "http")]
    pub(crate) extensions: Option<Arc<Extensions>>,
    /// Who the access token speaks for, on a protected server.
    pub(crate) principal: Option<Arc<Principal>>,
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
            headers: Some(Arc::new(headers)),
            extensions: Some(Arc::new(extensions)),
            principal,
        }
    }
}
