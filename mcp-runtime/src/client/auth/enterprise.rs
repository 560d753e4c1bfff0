//! Enterprise-managed authorization (SEP-990, the Identity Assertion
//! Authorization Grant): the user signed in at the enterprise's identity
//! provider, whose identity assertion the client exchanges there (RFC 8693
//! token exchange) for an ID-JAG naming the MCP server's authorization
//! server and resource; that server then trades the ID-JAG for an access
//! token (the JWT-bearer grant, RFC 7523).

use super::registration::Registration;
use super::{Assertion, ClientCredentials, token};
use crate::client::ClientError;
use crate::oauth::metadata::AuthorizationServerMetadata;

/// `grant_type` of a token exchange (RFC 8693).
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// `requested_token_type` of an Identity Assertion JWT Authorization Grant.
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";

/// `grant_type` of the JWT-bearer grant (RFC 7523 section 2.1).
pub(super) const JWT_BEARER_GRANT: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// The enterprise identity provider: where the client exchanges the
/// user's identity assertion, and who the client is there.
#[derive(Clone, Debug)]
pub struct IdentityProvider {
    pub(crate) issuer: String,
    pub(crate) token_endpoint: String,
    pub(crate) client: ClientCredentials,
    pub(crate) assertion: Assertion,
    pub(crate) assertion_type: String,
}

impl IdentityProvider {
    /// The identity provider `issuer` with its `token_endpoint`, where
    /// this client is `client`; `id_token` is the user's OpenID Connect ID
    /// token from signing in there.
    pub fn new(
        issuer: impl Into<String>,
        token_endpoint: impl Into<String>,
        client: ClientCredentials,
        id_token: Assertion,
    ) -> Self {
        IdentityProvider {
            issuer: issuer.into(),
            token_endpoint: token_endpoint.into(),
            client,
            assertion: id_token,
            assertion_type: "urn:ietf:params:oauth:token-type:id_token".to_owned(),
        }
    }

    /// A SAML 2.0 assertion instead of an ID token.
    pub fn saml2(mut self) -> Self {
        self.assertion_type = "urn:ietf:params:oauth:token-type:saml2".to_owned();
        self
    }

    /// The ID-JAG for `resource` at the authorization server `audience`.
    pub(super) async fn identity_grant(
        &self,
        audience: &AuthorizationServerMetadata,
        resource: &str,
        scopes: &[String],
        timeout: std::time::Duration,
    ) -> Result<String, ClientError> {
        // The user's identity assertion travels there: never in the clear.
        if !crate::oauth::metadata::is_https_or_loopback(&self.token_endpoint) {
            return Err(super::discovery::failure(format!(
                "the identity provider's token endpoint {} must use https:// (http:// only on a \
                 loopback host)",
                crate::redact::RedactedUrl::new(&self.token_endpoint)
            )));
        }
        let metadata: AuthorizationServerMetadata =
            serde_json::from_value(serde_json::json!({ "issuer": self.issuer }))
                .map_err(|e| super::discovery::failure(e.to_string()))?;
        let registration = Registration::configured(&self.client, &metadata);
        let mut form = vec![
            ("grant_type", TOKEN_EXCHANGE.to_owned()),
            ("requested_token_type", ID_JAG.to_owned()),
            ("subject_token", self.assertion.read().await?),
            ("subject_token_type", self.assertion_type.clone()),
            ("audience", audience.issuer.clone()),
            ("resource", resource.to_owned()),
        ];
        if !scopes.is_empty() {
            form.push(("scope", scopes.join(" ")));
        }
        let answer = token::request(
            &self.token_endpoint,
            &self.issuer,
            &registration,
            form,
            scopes,
            timeout,
            None,
        )
        .await
        .map_err(|failure| failure.error)?;
        Ok(answer.access_token)
    }
}
