//! Agreeing on a protocol era: `server/discover` for 2026-07-28, the
//! `initialize` handshake for the legacy era.

use serde_json::{Map, Value, json};

use super::http::MessageHeaders;
use super::version_retry::offers_ours;
use super::{ClientError, ConnectOptions, EraChoice, Inner, ServerDescription};
use crate::jsonrpc::{code, notification_frame};
use crate::protocol::Era;
use crate::protocol::methods::NOTIFICATION_INITIALIZED;
use crate::protocol::{
    DiscoverResult, Implementation, InitializeResult, LATEST_PROTOCOL_VERSION,
    LEGACY_PROTOCOL_VERSIONS, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION,
    META_SERVER_INFO, Method,
};

/// Runs the negotiation the options ask for.
pub(super) async fn negotiate(inner: &Inner) -> Result<ServerDescription, ClientError> {
    match inner.options.era {
        EraChoice::Modern => discover(inner).await,
        EraChoice::Legacy => initialize(inner).await,
        EraChoice::Auto => {
            let probe = inner
                .within(inner.options.discover_timeout, discover(inner))
                .await;
            match probe {
                Ok(Ok(server)) => Ok(server),
                // Closed means the server is gone, and an unreachable or
                // refusing server refuses `initialize` too: falling back
                // cannot help.
                Ok(Err(error @ (ClientError::Closed | ClientError::Disconnected(_)))) => Err(error),
                Ok(Err(error)) if error.is_access_failure() => Err(error),
                Ok(Err(error)) => {
                    tracing::debug!(
                        %error,
                        "{} failed; trying {}",
                        Method::Discover,
                        Method::Initialize
                    );
                    initialize(inner).await
                }
                Err(super::deadline::Elapsed) => match initialize(inner).await {
                    // The server answered the late `server/discover` after
                    // all, and now serves 2026-07-28 on this connection
                    // (the Python SDK refuses `initialize` then, listing
                    // that version): so be it. Any other refusal stands.
                    Err(ClientError::Protocol(error))
                        if error.code == code::UNSUPPORTED_PROTOCOL_VERSION
                            && offers_ours(&error.data) =>
                    {
                        discover(inner).await
                    }
                    answer => answer,
                },
            }
        }
    }
}

/// Adds what every 2026-07-28 request carries in `_meta`. Capabilities
/// are per request in that era: a request that declares its own (a tool
/// call that may become a task) keeps them.
pub(super) fn add_modern_meta(meta: &mut Map<String, Value>, options: &ConnectOptions) {
    meta.insert(
        META_PROTOCOL_VERSION.into(),
        Value::String(LATEST_PROTOCOL_VERSION.into()),
    );
    meta.entry(META_CLIENT_CAPABILITIES).or_insert_with(|| {
        serde_json::to_value(&options.capabilities).unwrap_or_else(|_| json!({}))
    });
    meta.insert(
        META_CLIENT_INFO.into(),
        serde_json::to_value(&options.client_info).unwrap_or_default(),
    );
}

async fn discover(inner: &Inner) -> Result<ServerDescription, ClientError> {
    let method = Method::Discover;
    let result = inner
        .round_trip(method.into(), Map::new(), None, Era::Modern)
        .await?;
    let result: DiscoverResult = serde_json::from_value(result)
        .map_err(|e| ClientError::InvalidResponse(format!("{method}: {e}")))?;
    if !result
        .supported_versions
        .iter()
        .any(|v| v == LATEST_PROTOCOL_VERSION)
    {
        return Err(ClientError::Negotiation(format!(
            "the server supports {:?}, not {LATEST_PROTOCOL_VERSION}",
            result.supported_versions
        )));
    }
    let server_info = result
        .meta
        .as_ref()
        .and_then(|meta| meta.get(META_SERVER_INFO))
        .and_then(|info| <Implementation as serde::Deserialize>::deserialize(info).ok());
    Ok(ServerDescription {
        era: Era::Modern,
        protocol_version: LATEST_PROTOCOL_VERSION.to_owned(),
        server_info,
        capabilities: result.capabilities,
        instructions: result.instructions,
    })
}

pub(super) async fn initialize(inner: &Inner) -> Result<ServerDescription, ClientError> {
    let newest = LEGACY_PROTOCOL_VERSIONS[LEGACY_PROTOCOL_VERSIONS.len() - 1];
    let params = json!({
        "protocolVersion": newest,
        "capabilities": inner.options.capabilities,
        "clientInfo": inner.options.client_info,
    });
    let Value::Object(params) = params else {
        unreachable!("built as an object")
    };
    let method = Method::Initialize;
    let result = inner
        .round_trip(method.into(), params, None, Era::Legacy)
        .await?;
    let result: InitializeResult = serde_json::from_value(result)
        .map_err(|e| ClientError::InvalidResponse(format!("{method}: {e}")))?;
    if !LEGACY_PROTOCOL_VERSIONS.contains(&result.protocol_version.as_str()) {
        return Err(ClientError::Negotiation(format!(
            "the server answered {method} with unsupported version {}",
            result.protocol_version
        )));
    }
    let frame = notification_frame::<()>(NOTIFICATION_INITIALIZED, None);
    let headers = MessageHeaders {
        method: NOTIFICATION_INITIALIZED,
        name: None,
        protocol_version: Some(&result.protocol_version),
        params: Vec::new(),
    };
    inner.link.notify(frame, headers).await?;
    Ok(ServerDescription {
        era: Era::Legacy,
        protocol_version: result.protocol_version,
        server_info: Some(result.server_info),
        capabilities: result.capabilities,
        instructions: result.instructions,
    })
}
