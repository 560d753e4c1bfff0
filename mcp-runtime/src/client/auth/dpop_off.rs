//! DPoP in a build without the `jwt` feature, which signs nothing: no
//! authorization server's offer is taken, so tokens stay bearer tokens,
//! and a DPoP-bound token a store kept cannot be used.

use super::discovery::failure;
use super::store::StoredDpopKey;
use crate::client::ClientError;
use crate::oauth::metadata::AuthorizationServerMetadata;

/// Never: this build cannot sign proofs.
pub(crate) fn offered(_: &AuthorizationServerMetadata) -> Option<&'static str> {
    None
}

/// No binding can exist in this build.
pub(crate) enum Binding {}

impl Binding {
    pub(crate) fn generate(_: &str) -> Result<Self, ClientError> {
        Err(unsupported())
    }

    pub(crate) fn algorithm(&self) -> &str {
        match *self {}
    }

    pub(crate) fn from_stored(_: &StoredDpopKey) -> Result<Self, ClientError> {
        Err(unsupported())
    }

    pub(crate) fn holds(&self, _: &StoredDpopKey) -> bool {
        match *self {}
    }

    pub(crate) fn token_request_proof(
        &self,
        _: &str,
    ) -> Result<hyper::header::HeaderValue, ClientError> {
        match *self {}
    }

    pub(crate) fn resource_proof(
        &self,
        _: &str,
        _: &str,
        _: &str,
    ) -> Result<hyper::header::HeaderValue, ClientError> {
        match *self {}
    }

    pub(crate) fn takes_issuer_nonce(&self, _: &crate::outbound::fetch::Failure) -> bool {
        match *self {}
    }

    pub(crate) fn takes_resource_nonce(&self, _: &str) {
        match *self {}
    }

    pub(crate) fn bound_key(&self, _: Option<&str>) -> Option<StoredDpopKey> {
        match *self {}
    }
}

fn unsupported() -> ClientError {
    failure(
        "a DPoP-bound token needs mcp-toolkit-runtime's `jwt` feature, which this build left out",
    )
}
