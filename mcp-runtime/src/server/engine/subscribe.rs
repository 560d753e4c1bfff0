//! Legacy `resources/subscribe` and `resources/unsubscribe`: the session
//! remembers the URIs, and its [legacy feed](super::legacy_feed) sends
//! `notifications/resources/updated` for them. (2026-07-28 clients name
//! their resources in `subscriptions/listen` instead.)

use std::collections::HashSet;
use std::sync::Mutex;

use crate::jsonrpc::ErrorObject;
use crate::protocol::{EmptyResult, Method, ResourceRequestParams};
use crate::server::auth::Principal;
use crate::server::{Server, Session};
use crate::sync::lock;

/// The most resources one session may follow: each costs memory for as
/// long as the session lives, and a client has no need for thousands.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 1024;

/// The resources one legacy session follows.
#[derive(Debug, Default)]
pub(crate) struct Subscriptions {
    uris: Mutex<HashSet<String>>,
}

impl Subscriptions {
    /// Follows `uri`; refused beyond [`MAX_SUBSCRIPTIONS`] (following one
    /// again is no change).
    fn add(&self, uri: String) -> Result<(), ErrorObject> {
        let mut uris = lock(&self.uris);
        if uris.len() >= MAX_SUBSCRIPTIONS && !uris.contains(&uri) {
            return Err(ErrorObject::invalid_params(format!(
                "this session already follows {MAX_SUBSCRIPTIONS} resources, the most allowed: \
                 unsubscribe from one first"
            )));
        }
        uris.insert(uri);
        Ok(())
    }

    /// Stops following `uri`; `false` when the session did not follow it.
    fn remove(&self, uri: &str) -> bool {
        lock(&self.uris).remove(uri)
    }

    /// Whether the session follows `uri`.
    pub(crate) fn contains(&self, uri: &str) -> bool {
        lock(&self.uris).contains(uri)
    }

    /// Every URI the session follows.
    pub(crate) fn all(&self) -> Vec<String> {
        lock(&self.uris).iter().cloned().collect()
    }
}

impl Server {
    /// Follows (`resources/subscribe`) or stops following
    /// (`resources/unsubscribe`) a resource this server has, answering `{}`;
    /// -32602 with `data.uri` for a resource it does not have (unless the
    /// session follows it: a resource removed since can be unsubscribed).
    /// A resource hidden from `caller` is one the server does not have.
    pub(crate) fn legacy_subscription(
        &self,
        method: Method,
        session: &Session,
        params: ResourceRequestParams,
        caller: Option<&Principal>,
    ) -> Result<EmptyResult, ErrorObject> {
        let subscriptions = &session.subscriptions;
        if method == Method::Unsubscribe && subscriptions.remove(&params.uri) {
            return Ok(EmptyResult::default());
        }
        let catalogue = self.catalogue();
        let known = catalogue.resources.get_for(&params.uri, caller).is_some()
            || catalogue
                .templates
                .iter_for(caller)
                .any(|t| t.matcher.matches(&params.uri).is_some());
        if !known {
            return Err(ErrorObject::resource_not_found(&params.uri));
        }
        if method == Method::Subscribe {
            subscriptions.add(params.uri)?;
        }
        Ok(EmptyResult::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_follows_a_bounded_number_of_resources() {
        let subscriptions = Subscriptions::default();
        for i in 0..MAX_SUBSCRIPTIONS {
            subscriptions.add(format!("test://{i}")).unwrap();
        }
        subscriptions.add("test://0".into()).unwrap(); // again: no change
        let error = subscriptions.add("test://one-more".into()).unwrap_err();
        assert!(error.message.contains("unsubscribe"), "{}", error.message);
        assert!(subscriptions.remove("test://0"));
        assert!(!subscriptions.remove("test://0"));
        subscriptions.add("test://one-more".into()).unwrap();
        assert!(subscriptions.contains("test://one-more"));
        assert!(!subscriptions.contains("test://0"));
        assert_eq!(subscriptions.all().len(), MAX_SUBSCRIPTIONS);
    }
}
