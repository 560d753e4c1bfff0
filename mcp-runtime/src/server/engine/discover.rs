//! The `server/discover` result (2026-07-28), built once when the server
//! is built.

use serde_json::Map;

use super::classify::supported_versions;
use super::shape;
use crate::protocol::{
    DiscoverResult, Era, Implementation, META_SERVER_INFO, Method, to_json_via_bytes,
};
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
        to_json_via_bytes(info).unwrap_or_default(),
    );
    let mut result = DiscoverResult {
        supported_versions: supported_versions()
            .into_iter()
            .map(str::to_owned)
            .collect(),
        capabilities: capabilities.clone(),
        instructions: instructions.map(str::to_owned),
        result_type: None,
        ttl_ms: None,
        cache_scope: None,
        meta: Some(meta),
    };
    let hints = shape::cache_hints(Method::Discover, options);
    shape::apply(Era::Modern, &mut result, hints);
    result
}
