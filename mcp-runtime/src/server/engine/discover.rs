//! The `server/discover` result (2026-07-28), built once when the server
//! is built.

use serde_json::Map;

use super::era::supported_versions;
use crate::protocol::{DiscoverResult, Implementation, META_SERVER_INFO, ResultType};
use crate::server::ServerOptions;

/// The `server/discover` result, built once.
pub(crate) fn discover_result(
    info: &Implementation,
    capabilities: &crate::protocol::ServerCapabilities,
    instructions: Option<&str>,
    options: &ServerOptions,
) -> DiscoverResult {
    let mut meta = Map::new();
    meta.insert(
        META_SERVER_INFO.to_owned(),
        serde_json::to_value(info).unwrap_or_default(),
    );
    DiscoverResult {
        supported_versions: supported_versions()
            .into_iter()
            .map(str::to_owned)
            .collect(),
        capabilities: capabilities.clone(),
        instructions: instructions.map(str::to_owned),
        result_type: Some(ResultType::Complete),
        ttl_ms: Some(options.list_ttl_ms),
        cache_scope: Some(options.list_cache_scope),
        meta: Some(meta),
    }
}
