//! Who this client is at an authorization server: pre-registered
//! credentials, else its own registration there when one accepts the
//! redirect (the session's rule), else a Client ID Metadata Document where
//! the server takes them, else Dynamic Client Registration (RFC 7591).

use serde::Deserialize;
use serde_json::{Value, json};

use super::discovery::failure;
use super::{ClientCredentials, ClientSecret, OAuthConfig, StoredRegistration};
use crate::client::ClientError;
use crate::oauth::metadata::{AuthorizationServerMetadata, MAX_DOCUMENT_BYTES};
use crate::outbound::{self, fetch};
use crate::redact::RedactedUrl;

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AuthMethod {
    None,
    Basic,
    Post,
    PrivateKeyJwt,
}

impl AuthMethod {
    fn name(self) -> &'static str {
        match self {
            AuthMethod::None => "none",
            AuthMethod::Basic => "client_secret_basic",
            AuthMethod::Post => "client_secret_post",
            AuthMethod::PrivateKeyJwt => "private_key_jwt",
        }
    }

    fn parse(name: &str) -> Option<Self> {
        [
            AuthMethod::None,
            AuthMethod::Basic,
            AuthMethod::Post,
            AuthMethod::PrivateKeyJwt,
        ]
        .into_iter()
        .find(|method| method.name() == name)
    }
}

/// A client identity usable at one authorization server.
#[derive(Clone)]
pub(super) struct Registration {
    pub(super) credentials: ClientCredentials,
    pub(super) method: AuthMethod,
    /// The redirect URI registered with it, when it registered one.
    pub(super) redirect_uri: Option<String>,
}

impl Registration {
    /// Credentials of the client's configuration, used as they are.
    pub(super) fn configured(
        credentials: &ClientCredentials,
        metadata: &AuthorizationServerMetadata,
    ) -> Self {
        Registration {
            method: method_for(&credentials.secret, metadata),
            credentials: credentials.clone(),
            redirect_uri: None,
        }
    }

    /// Whether the authorization code flow may use it with `redirect_uri`
    /// (a registration without one, a metadata document's, takes any).
    pub(super) fn accepts(&self, redirect_uri: &str) -> bool {
        self.redirect_uri
            .as_deref()
            .is_none_or(|registered| registered == redirect_uri)
    }

    /// What a store keeps of it (a private key is never the client's own
    /// registration, and is not kept).
    pub(super) fn to_stored(&self) -> Option<StoredRegistration> {
        let secret = match &self.credentials.secret {
            ClientSecret::None => None,
            ClientSecret::Secret(secret) => Some(secret.clone()),
            ClientSecret::PrivateKeyJwt { .. } => return None,
        };
        Some(StoredRegistration::new(
            self.credentials.client_id.clone(),
            secret,
            self.method.name(),
            self.redirect_uri.clone(),
        ))
    }

    /// A registration a store kept, unless its method is unknown or lacks
    /// the secret it needs.
    pub(super) fn from_stored(stored: &StoredRegistration) -> Option<Self> {
        let method = AuthMethod::parse(&stored.token_endpoint_auth_method)?;
        let secret = match (method, &stored.client_secret) {
            (AuthMethod::None, _) => ClientSecret::None,
            (AuthMethod::Basic | AuthMethod::Post, Some(secret)) => {
                ClientSecret::Secret(secret.clone())
            }
            _ => return None,
        };
        Some(Registration {
            credentials: ClientCredentials::new(stored.client_id.clone(), secret),
            method,
            redirect_uri: stored.redirect_uri.clone(),
        })
    }
}

/// A registration of this client at the server `metadata` describes,
/// for a client without credentials in its configuration: its Client ID
/// Metadata Document where the server takes them, else a new one.
pub(super) async fn register(
    config: &OAuthConfig,
    metadata: &AuthorizationServerMetadata,
    redirect_uri: &str,
) -> Result<Registration, ClientError> {
    let takes_documents =
        metadata.extra.get("client_id_metadata_document_supported") == Some(&Value::Bool(true));
    if let (true, Some(url)) = (takes_documents, &config.client_metadata_url) {
        return Ok(Registration {
            credentials: ClientCredentials::new(url.clone(), ClientSecret::None),
            method: AuthMethod::None,
            redirect_uri: None,
        });
    }
    let endpoint = metadata.registration_endpoint.as_deref().ok_or_else(|| {
        failure(format!(
            "the authorization server {} offers no registration endpoint: configure \
             pre-registered credentials or a client metadata document URL",
            RedactedUrl::new(&metadata.issuer)
        ))
    })?;
    let wanted = supported(metadata)
        .into_iter()
        .find(|m| matches!(m, AuthMethod::Basic | AuthMethod::Post | AuthMethod::None))
        .unwrap_or(AuthMethod::Basic);
    let request = json!({
        "client_name": config.client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": wanted.name(),
        "application_type": "native",
    });
    #[derive(Deserialize)]
    struct Registered {
        client_id: String,
        client_secret: Option<String>,
        token_endpoint_auth_method: Option<String>,
    }
    let shown = RedactedUrl::new(endpoint);
    let uri = endpoint
        .parse()
        .map_err(|e| failure(format!("invalid registration endpoint {shown}: {e}")))?;
    let client = outbound::client_for(&uri).map_err(ClientError::Connect)?;
    let registered: Registered = fetch::post_json(
        &client,
        endpoint,
        &request,
        MAX_DOCUMENT_BYTES,
        config.timeout,
    )
    .await
    .map_err(|e| failure(format!("registering at {shown} failed: {e}")))?;
    let method = registered
        .token_endpoint_auth_method
        .as_deref()
        .and_then(AuthMethod::parse)
        .unwrap_or(wanted);
    let secret = match registered.client_secret {
        Some(secret) if method != AuthMethod::None => ClientSecret::Secret(secret),
        _ => ClientSecret::None,
    };
    Ok(Registration {
        credentials: ClientCredentials::new(registered.client_id, secret),
        method,
        redirect_uri: Some(redirect_uri.to_owned()),
    })
}

/// The methods the server advertises, in its order (`client_secret_basic`
/// when it says nothing, as RFC 8414 defaults).
fn supported(metadata: &AuthorizationServerMetadata) -> Vec<AuthMethod> {
    match metadata
        .extra
        .get("token_endpoint_auth_methods_supported")
        .and_then(Value::as_array)
    {
        Some(names) => names
            .iter()
            .filter_map(Value::as_str)
            .filter_map(AuthMethod::parse)
            .collect(),
        None => vec![AuthMethod::Basic],
    }
}

/// How pre-registered credentials authenticate at this server.
fn method_for(secret: &ClientSecret, metadata: &AuthorizationServerMetadata) -> AuthMethod {
    match secret {
        ClientSecret::None => AuthMethod::None,
        ClientSecret::PrivateKeyJwt { .. } => AuthMethod::PrivateKeyJwt,
        ClientSecret::Secret(_) => supported(metadata)
            .into_iter()
            .find(|m| matches!(m, AuthMethod::Basic | AuthMethod::Post))
            .unwrap_or(AuthMethod::Basic),
    }
}
