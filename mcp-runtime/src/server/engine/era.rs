//! The era's rules, checked before routing: who the client is. A legacy
//! request needs a completed `initialize` (only `initialize` and `ping`
//! come before it); a 2026-07-28 request declared its client in `_meta`,
//! read when it was [classified](super::classify). Both end in the
//! [`McpRequest`] the later stages take.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::classify::Classified;
use super::method::{Method, method_name};
use super::params::parse;
use super::request::Channel;
use super::session::Session;
use crate::jsonrpc::{ErrorObject, RequestId};
use crate::protocol::{
    InitializeRequestParams, InitializeResult, LEGACY_PROTOCOL_VERSIONS, LoggingLevel,
    META_LOG_LEVEL, ProgressToken,
};
use crate::server::middleware::McpRequest;
use crate::server::{ClientMeta, Era, RequestContext, Server};

impl Server {
    /// Admits a classified request under its era's rules, with the
    /// context its handler will see.
    pub(super) fn admit(
        &self,
        request: Classified,
        channel: Channel,
    ) -> Result<McpRequest, ErrorObject> {
        let Classified {
            era,
            id,
            method,
            params,
            meta,
            client,
        } = request;
        let (client, log_level) = match client {
            Some(client) => {
                let log_level = meta
                    .as_ref()
                    .and_then(|m| m.get(META_LOG_LEVEL))
                    .and_then(|level| LoggingLevel::deserialize(level).ok());
                (client, log_level)
            }
            None => {
                let session = &channel.session;
                let client = match session.legacy_client() {
                    Some(client) => client,
                    None if matches!(method, Ok(Method::Initialize | Method::Ping)) => {
                        Arc::new(ClientMeta::before_initialize())
                    }
                    None => {
                        return Err(ErrorObject::invalid_request(format!(
                            "`{}` before `initialize` completed",
                            method_name(&method)
                        )));
                    }
                };
                (client, session.log_level())
            }
        };
        let context = self.context(&id, client, log_level, meta, channel);
        Ok(McpRequest {
            era,
            id,
            method,
            params,
            context,
        })
    }

    fn context(
        &self,
        id: &RequestId,
        client: Arc<ClientMeta>,
        log_level: Option<LoggingLevel>,
        meta: Option<Map<String, Value>>,
        channel: Channel,
    ) -> RequestContext {
        let progress_token = meta
            .as_ref()
            .and_then(|m| m.get("progressToken"))
            .and_then(|t| ProgressToken::deserialize(t).ok());
        RequestContext {
            request_id: id.clone(),
            client,
            cancellation: channel.cancellation,
            progress_token,
            log_level,
            meta,
            peer: channel.peer,
            session: channel.session,
            input: Arc::default(),
            inbound: channel.inbound,
            trace: channel.trace,
            registry: self.inner.live.clone(),
        }
    }

    /// Answers `initialize`: the legacy handshake.
    pub(super) fn initialize(
        &self,
        session: &Session,
        params: Option<Value>,
    ) -> Result<InitializeResult, ErrorObject> {
        let params: InitializeRequestParams = parse(params)?;
        let version = negotiate_legacy_version(&params.protocol_version);
        let client = ClientMeta {
            era: Era::Legacy,
            protocol_version: version.to_owned(),
            client_info: Some(params.client_info),
            capabilities: params.capabilities,
        };
        if !session.set_legacy_client(client) {
            return Err(ErrorObject::invalid_request(
                "`initialize` was already received",
            ));
        }
        let registry = &*self.inner;
        Ok(InitializeResult {
            protocol_version: version.to_owned(),
            capabilities: registry.capabilities.clone(),
            server_info: registry.info.clone(),
            instructions: registry.instructions.clone(),
            meta: None,
        })
    }
}

/// The client's version when we speak it, else the newest legacy one.
fn negotiate_legacy_version(requested: &str) -> &'static str {
    LEGACY_PROTOCOL_VERSIONS
        .iter()
        .copied()
        .find(|v| *v == requested)
        .unwrap_or(LEGACY_PROTOCOL_VERSIONS[LEGACY_PROTOCOL_VERSIONS.len() - 1])
}
