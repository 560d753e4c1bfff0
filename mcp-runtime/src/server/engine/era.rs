//! The era's rules, checked before routing: legacy requests need a
//! completed `initialize` (which this stage answers, with `ping` and
//! `logging/setLevel`); 2026-07-28 requests carry the client's version and
//! capabilities in `_meta` and may ask `server/discover`. Both end in a
//! [`RequestContext`] for the router.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::method::{Method, Requested, method_name};
use super::params::{Reply, parse};
use super::request::Channel;
use super::session::Session;
use crate::jsonrpc::{ErrorObject, RequestId, result_frame};
use crate::protocol::{
    ClientCapabilities, Implementation, InitializeRequestParams, InitializeResult,
    LATEST_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS, LoggingLevel, META_CLIENT_CAPABILITIES,
    META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION, ProgressToken, SetLevelRequestParams,
};
use crate::server::{ClientMeta, Era, RequestContext, Server};

impl Server {
    pub(super) async fn legacy(
        &self,
        id: &RequestId,
        method: Requested,
        params: Option<Value>,
        meta: Option<Map<String, Value>>,
        channel: Channel,
    ) -> Reply {
        let session = &*channel.session;
        match method {
            Ok(Method::Initialize) => return self.initialize(session, id, params),
            Ok(Method::Ping) => return Ok(result_frame(id, &json!({}))),
            _ => {}
        }
        let Some(client) = session.legacy_client() else {
            return Err(ErrorObject::invalid_request(format!(
                "`{}` before `initialize` completed",
                method_name(&method)
            )));
        };
        match method {
            Ok(Method::SetLogLevel) => {
                let SetLevelRequestParams { level, .. } = parse(params)?;
                session.set_log_level(level);
                return Ok(result_frame(id, &json!({})));
            }
            Ok(Method::Subscribe | Method::Unsubscribe) => {
                return self.legacy_subscription(id, params);
            }
            _ => {}
        }
        let log_level = session.log_level();
        let context = self.context(id, client, log_level, meta, channel);
        self.intercept(Era::Legacy, id, method, params, context)
            .await
    }

    pub(super) async fn modern(
        &self,
        id: &RequestId,
        method: Requested,
        params: Option<Value>,
        meta: Option<Map<String, Value>>,
        channel: Channel,
    ) -> Reply {
        if method == Ok(Method::Initialize) && meta.is_none() {
            // This connection already speaks 2026-07-28; tell a dual-era
            // client which versions exist so that it can switch. (With the
            // 2026-07-28 `_meta` it is a modern request for a removed
            // method: -32601 below.)
            let requested = params
                .as_ref()
                .and_then(|p| p.get("protocolVersion"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            return Err(ErrorObject::unsupported_protocol_version(
                requested,
                &[LATEST_PROTOCOL_VERSION],
            ));
        }
        let client = modern_client(meta.as_ref())?;
        let log_level = meta
            .as_ref()
            .and_then(|m| m.get(META_LOG_LEVEL))
            .and_then(|level| LoggingLevel::deserialize(level).ok());
        match method {
            Ok(Method::Discover) => return Ok(result_frame(id, &self.inner.discover)),
            Ok(task @ (Method::TasksGet | Method::TasksUpdate | Method::TasksCancel)) => {
                return self.task_method(id, task, params, &client).await;
            }
            _ => {}
        }
        let context = self.context(id, Arc::new(client), log_level, meta, channel);
        self.intercept(Era::Modern, id, method, params, context)
            .await
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
        }
    }

    fn initialize(&self, session: &Session, id: &RequestId, params: Option<Value>) -> Reply {
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
        let result = InitializeResult {
            protocol_version: version.to_owned(),
            capabilities: registry.capabilities.clone(),
            server_info: registry.info.clone(),
            instructions: registry.instructions.clone(),
            meta: None,
        };
        Ok(result_frame(id, &result))
    }
}

/// Reads what a 2026-07-28 request declares about its client.
fn modern_client(meta: Option<&Map<String, Value>>) -> Result<ClientMeta, ErrorObject> {
    let missing = |key: &str| ErrorObject::invalid_params(format!("missing `_meta.{key}`"));
    let meta = meta.ok_or_else(|| missing(META_PROTOCOL_VERSION))?;
    let version = meta
        .get(META_PROTOCOL_VERSION)
        .and_then(Value::as_str)
        .ok_or_else(|| missing(META_PROTOCOL_VERSION))?;
    if version != LATEST_PROTOCOL_VERSION {
        return Err(ErrorObject::unsupported_protocol_version(
            version,
            &supported_versions(),
        ));
    }
    let capabilities = meta
        .get(META_CLIENT_CAPABILITIES)
        .ok_or_else(|| missing(META_CLIENT_CAPABILITIES))?;
    let capabilities = ClientCapabilities::deserialize(capabilities).map_err(|e| {
        ErrorObject::invalid_params(format!("`_meta.{META_CLIENT_CAPABILITIES}`: {e}"))
    })?;
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

/// The client's version when we speak it, else the newest legacy one.
fn negotiate_legacy_version(requested: &str) -> &'static str {
    LEGACY_PROTOCOL_VERSIONS
        .iter()
        .copied()
        .find(|v| *v == requested)
        .unwrap_or(LEGACY_PROTOCOL_VERSIONS[LEGACY_PROTOCOL_VERSIONS.len() - 1])
}
