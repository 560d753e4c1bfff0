//! Classify: a decoded JSON-RPC request becomes what every later stage
//! works with, once. Its method is parsed into a [`Method`], `_meta` is
//! taken off its parameters, and for 2026-07-28 what `_meta` declares
//! about the client is read and, over HTTP, checked against the headers
//! that mirror the body. Transports call this instead of checking
//! protocol rules of their own.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::client_meta::ClientMeta;
use super::inbound::Inbound;
use super::method::{Method, Requested};
use crate::jsonrpc::{ErrorObject, Request, RequestId};
use crate::protocol::{
    ClientCapabilities, Era, Implementation, LATEST_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS,
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION,
};
use crate::server::Server;

/// A request as it arrived: its method parsed, `_meta` taken off, its era
/// not yet settled.
#[derive(Debug)]
pub(crate) struct Decoded {
    pub(crate) id: RequestId,
    pub(crate) method: Requested,
    /// The parameters without `_meta`.
    pub(crate) params: Option<Value>,
    pub(crate) meta: Option<Map<String, Value>>,
}

impl Decoded {
    /// Parses the method and takes `_meta` off the parameters.
    pub(crate) fn new(request: Request) -> Self {
        let Request {
            id,
            method,
            mut params,
        } = request;
        let meta = take_meta(&mut params);
        Decoded {
            id,
            method: Method::parse(&method).ok_or(method),
            params,
            meta,
        }
    }

    /// The era the request itself asks for: 2026-07-28 when its `_meta`
    /// names a protocol version; over HTTP, legacy in a session
    /// (`Mcp-Session-Id`) and 2026-07-28 when `MCP-Protocol-Version` names
    /// no legacy version; then 2026-07-28 for `server/discover`, legacy for
    /// `initialize`, and `None` when it does not say.
    pub(crate) fn era_asked(&self, inbound: &Inbound) -> Option<Era> {
        let versioned = self
            .meta
            .as_ref()
            .is_some_and(|meta| meta.contains_key(META_PROTOCOL_VERSION));
        if versioned {
            return Some(Era::Modern);
        }
        #[cfg(feature = "http")]
        if let Some(era) = inbound.headers().and_then(header_era) {
            return Some(era);
        }
        #[cfg(not(feature = "http"))]
        let _ = inbound;
        match self.method {
            Ok(Method::Discover) => Some(Era::Modern),
            Ok(Method::Initialize) => Some(Era::Legacy),
            _ => None,
        }
    }
}

/// The era HTTP headers choose: a legacy session's, or 2026-07-28 for a
/// sessionless request whose `MCP-Protocol-Version` is no legacy version.
#[cfg(feature = "http")]
fn header_era(headers: &hyper::HeaderMap) -> Option<Era> {
    use crate::protocol::headers::{MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
    if headers.contains_key(MCP_SESSION_ID) {
        return Some(Era::Legacy);
    }
    let version = headers.get(MCP_PROTOCOL_VERSION)?;
    let legacy = version
        .to_str()
        .is_ok_and(|v| LEGACY_PROTOCOL_VERSIONS.contains(&v));
    (!legacy).then_some(Era::Modern)
}

/// A request classified: the typed request every later stage takes.
#[derive(Debug)]
pub(crate) struct Classified {
    pub(crate) era: Era,
    pub(crate) id: RequestId,
    pub(crate) method: Requested,
    /// The parameters without `_meta`.
    pub(crate) params: Option<Value>,
    pub(crate) meta: Option<Map<String, Value>>,
    /// What a 2026-07-28 request's `_meta` declares about its client;
    /// shared from the start, so that the request, moved from stage to
    /// stage and held in every future that serves it, stays small.
    pub(crate) client: Option<Arc<ClientMeta>>,
}

/// Why a request was refused before it was routed: its id, when it has
/// one, and the error to answer with. Over HTTP this is a 400.
#[derive(Debug)]
pub(crate) struct Rejection {
    pub(crate) id: RequestId,
    pub(crate) error: ErrorObject,
}

impl Server {
    /// Classifies `request` as made in `era`. A 2026-07-28 request must
    /// declare its protocol version and capabilities in `_meta` and, over
    /// HTTP, carry the headers that mirror its body (`inbound`'s).
    pub(crate) fn classify(
        &self,
        request: Decoded,
        era: Era,
        inbound: &Inbound,
    ) -> Result<Classified, Rejection> {
        let Decoded {
            id,
            method,
            params,
            meta,
        } = request;
        let client = match era {
            Era::Legacy => None,
            Era::Modern => {
                match self.modern_rules(&method, params.as_ref(), meta.as_ref(), inbound) {
                    Ok(client) => Some(Arc::new(client)),
                    Err(error) => return Err(Rejection { id, error }),
                }
            }
        };
        Ok(Classified {
            era,
            id,
            method,
            params,
            meta,
            client,
        })
    }

    /// A 2026-07-28 request's `_meta` and headers, checked; what `_meta`
    /// declares about the client.
    fn modern_rules(
        &self,
        method: &Requested,
        params: Option<&Value>,
        meta: Option<&Map<String, Value>>,
        inbound: &Inbound,
    ) -> Result<ClientMeta, ErrorObject> {
        if *method == Ok(Method::Initialize) && meta.is_none() {
            // This connection already speaks 2026-07-28; tell a dual-era
            // client which versions exist so that it can switch. (With the
            // 2026-07-28 `_meta` it is a modern request for a removed
            // method: -32601 when routed.)
            let requested = params
                .and_then(|p| p.get("protocolVersion"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            return Err(ErrorObject::unsupported_protocol_version(
                requested,
                &[LATEST_PROTOCOL_VERSION],
            ));
        }
        let missing = |key: &str| ErrorObject::invalid_params(format!("missing `_meta.{key}`"));
        let meta = meta.ok_or_else(|| missing(META_PROTOCOL_VERSION))?;
        // What is missing is -32602, before any header comparison.
        for key in [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES] {
            if !meta.contains_key(key) {
                return Err(missing(key));
            }
        }
        #[cfg(feature = "http")]
        if let Some(headers) = inbound.headers() {
            let caller = inbound.principal.as_deref();
            self.check_headers(headers, method, params, meta, caller)?;
        }
        #[cfg(not(feature = "http"))]
        let _ = inbound;
        modern_client(meta)
    }

    /// The 2026-07-28 headers against the body they mirror: the protocol
    /// version, the method, the name it targets and a tool's
    /// `Mcp-Param-*` arguments.
    #[cfg(feature = "http")]
    fn check_headers(
        &self,
        headers: &hyper::HeaderMap,
        method: &Requested,
        params: Option<&Value>,
        meta: &Map<String, Value>,
        caller: Option<&crate::server::auth::Principal>,
    ) -> Result<(), ErrorObject> {
        use crate::protocol::request_headers;
        let name = super::method::method_name(method);
        let known = method.as_ref().ok().copied();
        request_headers::check(headers, meta, name, known, params)?;
        let tool = match (known, params) {
            (Some(Method::CallTool), Some(params)) => Method::CallTool.target_in(params),
            _ => None,
        };
        // An unknown (or hidden) tool is for routing to report.
        match tool.and_then(|tool| self.tool(tool, caller)) {
            Some(tool) => tool
                .param_headers
                .check(headers, params.and_then(|p| p.get("arguments"))),
            None => Ok(()),
        }
    }
}

/// Reads what a 2026-07-28 request declares about its client.
fn modern_client(meta: &Map<String, Value>) -> Result<ClientMeta, ErrorObject> {
    let version = meta
        .get(META_PROTOCOL_VERSION)
        .and_then(Value::as_str)
        .ok_or_else(|| {
            ErrorObject::invalid_params(format!("missing `_meta.{META_PROTOCOL_VERSION}`"))
        })?;
    if version != LATEST_PROTOCOL_VERSION {
        return Err(ErrorObject::unsupported_protocol_version(
            version,
            &supported_versions(),
        ));
    }
    let capabilities = meta
        .get(META_CLIENT_CAPABILITIES)
        .map(ClientCapabilities::deserialize)
        .transpose()
        .map_err(|e| {
            ErrorObject::invalid_params(format!("`_meta.{META_CLIENT_CAPABILITIES}`: {e}"))
        })?
        .unwrap_or_default();
    let client_info = meta
        .get(META_CLIENT_INFO)
        .and_then(|v| Implementation::deserialize(v).ok());
    Ok(ClientMeta {
        era: Era::Modern,
        protocol_version: version.to_owned(),
        client_info,
        capabilities,
    })
}

/// Every version this server speaks, newest first.
pub(crate) fn supported_versions() -> Vec<&'static str> {
    std::iter::once(LATEST_PROTOCOL_VERSION)
        .chain(LEGACY_PROTOCOL_VERSIONS.iter().rev().copied())
        .collect()
}

/// Removes and returns `params._meta`, leaving the typed parameters.
fn take_meta(params: &mut Option<Value>) -> Option<Map<String, Value>> {
    match params.as_mut()?.as_object_mut()?.remove("_meta")? {
        Value::Object(meta) => Some(meta),
        _ => None,
    }
}
