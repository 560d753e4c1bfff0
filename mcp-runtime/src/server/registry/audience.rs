//! Who may see a tool, prompt, resource or template: everyone, unless its
//! definition names an audience (`visible_to`, `visible_with_scopes`).
//! An entry hidden from a caller is absent for that caller: left out of
//! every list, and unknown when named (-32602 for a tool or prompt, the
//! resource-not-found error for a resource), so its existence is not
//! revealed. A list that hides something from someone depends on the
//! caller, so its 2026-07-28 cache hint says `private`.

use std::fmt;
use std::sync::Arc;

use crate::server::auth::Principal;

/// The callers an entry is shown to: those whose verified principal the
/// predicate admits. A caller without one (stdio, an unprotected HTTP
/// server) sees no restricted entry.
#[derive(Clone)]
pub(crate) struct Audience(Arc<dyn Fn(&Principal) -> bool + Send + Sync>);

impl fmt::Debug for Audience {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Audience(..)")
    }
}

impl Audience {
    pub(crate) fn new(admits: impl Fn(&Principal) -> bool + Send + Sync + 'static) -> Self {
        Audience(Arc::new(admits))
    }

    /// Callers granted every one of `scopes`.
    pub(crate) fn with_scopes(scopes: Vec<String>) -> Self {
        Audience::new(move |principal| principal.has_scopes(scopes.iter().map(String::as_str)))
    }

    fn admits(&self, caller: Option<&Principal>) -> bool {
        caller.is_some_and(|principal| (self.0)(principal))
    }
}

/// An entry of the catalogue, which may be restricted to an audience.
pub(crate) trait Restricted {
    /// Its audience; `None` when everyone sees it.
    fn audience(&self) -> Option<&Audience>;

    /// Whether `caller` sees it.
    fn shown_to(&self, caller: Option<&Principal>) -> bool {
        self.audience()
            .is_none_or(|audience| audience.admits(caller))
    }
}

/// Gives each definition type its `visible_to` and `visible_with_scopes`
/// builders (over its `audience` field) and its [`Restricted`] impl.
macro_rules! restrictable {
    ($($def:ty),* $(,)?) => {$(
        impl $def {
            /// Shows this only to callers whose verified
            /// [`Principal`](crate::server::auth::Principal) `admits`
            /// accepts: to anyone else it does not exist (left out of
            /// lists, unknown when named). Over stdio and on an unprotected
            /// server no caller has a principal, so no one sees it.
            pub fn visible_to(
                mut self,
                admits: impl Fn(&Principal) -> bool + Send + Sync + 'static,
            ) -> Self {
                self.audience = Some(Audience::new(admits));
                self
            }

            /// Shows this only to callers granted every one of `scopes`
            /// (see [`visible_to`](Self::visible_to)).
            pub fn visible_with_scopes<S: Into<String>>(
                mut self,
                scopes: impl IntoIterator<Item = S>,
            ) -> Self {
                let scopes = scopes.into_iter().map(Into::into).collect();
                self.audience = Some(Audience::with_scopes(scopes));
                self
            }
        }

        impl Restricted for $def {
            fn audience(&self) -> Option<&Audience> {
                self.audience.as_ref()
            }
        }
    )*};
}

restrictable!(
    crate::server::ToolDef,
    crate::server::PromptDef,
    crate::server::ResourceDef,
    crate::server::ResourceTemplateDef,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restricted_entry_needs_a_principal_the_predicate_admits() {
        let audience = Audience::with_scopes(vec!["admin".into()]);
        let mut admin = Principal::default();
        admin.scopes.insert("admin".into());
        let reader = Principal::default();
        assert!(audience.admits(Some(&admin)));
        assert!(!audience.admits(Some(&reader)));
        assert!(!audience.admits(None), "no principal, no restricted entry");
    }
}
