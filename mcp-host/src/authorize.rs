//! A server's `oauth` settings made into the client's OAuth configuration.

use std::sync::Arc;
use std::time::Duration;

use mcp_toolkit_runtime::client::auth::{
    Assertion, AuthorizationStep, ClientCredentials, ClientSecret, FileTokenStore,
    IdentityProvider, OAuthConfig,
};

use crate::config::{AssertionSource, OAuthGrant, OAuthSettings};

/// The name the host registers under when it registers itself.
const CLIENT_NAME: &str = "mcp-host";

/// Why a server that needs the user's authorization is unavailable to a
/// host that cannot ask.
const NO_WAY_TO_ASK: &str = "the server needs the user's authorization, and this host has no way \
     to ask (HostOptions::authorization_step)";

/// The OAuth configuration for `settings`; the authorization code grant
/// needs `step`, the user's part (a browser, or the application's own UI).
pub(crate) fn oauth_config(
    settings: &OAuthSettings,
    step: Option<&Arc<dyn AuthorizationStep>>,
    timeout: Duration,
) -> Result<OAuthConfig, String> {
    let credentials = match &settings.client_id {
        Some(id) => Some(ClientCredentials::new(id, secret(settings)?)),
        None => None,
    };
    let mut config = match settings.grant {
        OAuthGrant::ClientCredentials => {
            let credentials = credentials.ok_or("client_credentials needs a `clientId`")?;
            OAuthConfig::client_credentials(credentials)
        }
        OAuthGrant::WorkloadIdentity => {
            let credentials = credentials.ok_or("workload_identity needs a `clientId`")?;
            OAuthConfig::workload_identity(credentials, assertion(settings)?)
        }
        OAuthGrant::EnterpriseManaged => {
            let credentials = credentials.ok_or("enterprise_managed needs a `clientId`")?;
            let idp = settings
                .identity_provider
                .as_ref()
                .ok_or("enterprise_managed needs an `identityProvider`")?;
            let secret = match &idp.client_secret {
                Some(secret) => ClientSecret::Secret(secret.clone()),
                None => ClientSecret::None,
            };
            let idp = IdentityProvider::new(
                &idp.issuer,
                &idp.token_endpoint,
                ClientCredentials::new(&idp.client_id, secret),
                assertion(settings)?,
            );
            OAuthConfig::enterprise_managed(idp, credentials)
        }
        OAuthGrant::AuthorizationCode => {
            // Without a way to ask the user, the stored token (refreshed
            // when it expired) may still do: the error waits until the
            // user is actually needed.
            let config = match step {
                Some(step) => OAuthConfig::authorization_code(CLIENT_NAME, step.clone()),
                None => OAuthConfig::without_user(CLIENT_NAME, NO_WAY_TO_ASK),
            };
            match credentials {
                Some(credentials) => config.pre_registered(credentials),
                None => config,
            }
        }
    };
    if let Some(url) = &settings.client_metadata_url {
        config = config.client_metadata_url(url);
    }
    if let Some(file) = &settings.token_file {
        config = config.store(FileTokenStore::new(file));
    }
    Ok(config.timeout(timeout))
}

/// The JWT the configured client presents.
fn assertion(settings: &OAuthSettings) -> Result<Assertion, String> {
    match &settings.assertion {
        Some(AssertionSource::File(path)) => Ok(Assertion::file(path)),
        Some(AssertionSource::Env(name)) => Ok(Assertion::env(name)),
        None => Err("this grant needs `assertionFile` or `assertionEnv`".into()),
    }
}

/// How the configured client proves who it is.
fn secret(settings: &OAuthSettings) -> Result<ClientSecret, String> {
    if let Some(secret) = &settings.client_secret {
        return Ok(ClientSecret::Secret(secret.clone()));
    }
    let Some((file, algorithm)) = &settings.private_key else {
        return Ok(ClientSecret::None);
    };
    let pem = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read the private key {}: {e}", file.display()))?;
    Ok(ClientSecret::PrivateKeyJwt {
        pem,
        algorithm: algorithm.clone(),
    })
}
