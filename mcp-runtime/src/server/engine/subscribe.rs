//! Legacy `resources/subscribe` and `resources/unsubscribe`.
//!
//! The server checks that the resource exists and acknowledges. It does not
//! yet push `notifications/resources/updated` to legacy sessions (that needs
//! a channel outside any request: the standalone GET stream over HTTP), so
//! it does not advertise `resources.subscribe` either; 2026-07-28 clients
//! get updates through `subscriptions/listen`.

use crate::jsonrpc::ErrorObject;
use crate::protocol::{EmptyResult, ResourceRequestParams};
use crate::server::Server;
use crate::server::auth::Principal;

impl Server {
    /// Answers `{}` for a resource this server has, -32602 with `data.uri`
    /// otherwise.
    pub(crate) fn legacy_subscription(
        &self,
        params: ResourceRequestParams,
        caller: Option<&Principal>,
    ) -> Result<EmptyResult, ErrorObject> {
        let catalogue = self.catalogue();
        let known = catalogue.resources.get_for(&params.uri, caller).is_some()
            || catalogue
                .templates
                .iter_for(caller)
                .any(|t| t.matcher.matches(&params.uri).is_some());
        if !known {
            return Err(ErrorObject::resource_not_found(&params.uri));
        }
        Ok(EmptyResult::default())
    }
}
