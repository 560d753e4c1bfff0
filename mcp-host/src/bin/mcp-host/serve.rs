//! `mcp-host serve`: the gateway, over stdio or Streamable HTTP, until
//! its input ends (stdio) or the process is told to stop (HTTP). Over HTTP
//! callers authenticate with OAuth access tokens or a static bearer token;
//! without either the gateway listens on loopback only.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mcp_toolkit_host::{
    AccessError, GatewayAccess, GatewayListener, GatewayOptions, Host, HostError, Introspection,
    OAuthAccess, StaticBearer,
};
use mcp_toolkit_runtime::redact::RedactedUrl;

/// Where the gateway serves.
pub enum Transport {
    /// This process's stdin and stdout.
    Stdio,
    /// Streamable HTTP at `http://ADDR/mcp`, bound and checked.
    Http(Box<GatewayListener>),
}

/// How callers of `serve --http` authenticate.
#[derive(clap::Args)]
pub struct AuthArgs {
    /// With --http: accept OAuth access tokens from this authorization server (JWTs checked against its keys, or --introspect).
    #[arg(
        long,
        value_name = "ISSUER",
        requires = "http",
        conflicts_with = "bearer_env"
    )]
    auth_issuer: Option<String>,
    /// The gateway's URL as callers reach it, the tokens' audience (default http://ADDR/mcp as bound; beyond loopback, the https:// URL of the TLS proxy in front).
    #[arg(long, value_name = "URL", requires = "http")]
    resource: Option<String>,
    /// A scope every call needs (repeat for more).
    #[arg(long = "scope", value_name = "SCOPE", requires = "auth_issuer")]
    scopes: Vec<String>,
    /// Check tokens at this introspection endpoint (RFC 7662) instead of as JWTs.
    #[arg(long, value_name = "URL", requires = "auth_issuer")]
    introspect: Option<String>,
    /// The gateway's client id at the introspection endpoint.
    #[arg(
        long,
        value_name = "ID",
        requires = "introspect",
        requires = "introspect_secret_env"
    )]
    introspect_client: Option<String>,
    /// The environment variable that holds the introspection client's secret.
    #[arg(long, value_name = "VAR", requires = "introspect_client")]
    introspect_secret_env: Option<String>,
    /// With --http: accept one static bearer token, read from the environment variable VAR (at least 32 characters).
    #[arg(long, value_name = "VAR", requires = "http")]
    bearer_env: Option<String>,
}

impl AuthArgs {
    /// The environment variables holding secrets, which the configured
    /// servers must not inherit.
    pub fn secret_vars(&self) -> Vec<String> {
        [&self.bearer_env, &self.introspect_secret_env]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }

    /// The access these flags ask for, with secrets read from the
    /// environment.
    fn access(&self) -> Result<GatewayAccess, HostError> {
        let resource = self.resource.clone();
        if let Some(issuer) = &self.auth_issuer {
            let introspection = match &self.introspect {
                Some(endpoint) => Some(Introspection {
                    endpoint: endpoint.clone(),
                    client: match (&self.introspect_client, &self.introspect_secret_env) {
                        (Some(id), Some(var)) => {
                            Some((id.clone(), secret(var, "--introspect-secret-env")?))
                        }
                        _ => None,
                    },
                }),
                None => None,
            };
            return Ok(GatewayAccess::OAuth(OAuthAccess {
                issuer: issuer.clone(),
                resource,
                introspection,
                scopes: self.scopes.clone(),
            }));
        }
        if let Some(var) = &self.bearer_env {
            let token = StaticBearer::new(&secret(var, "--bearer-env")?)
                .map_err(|e| HostError::Usage(format!("--bearer-env {var}: {e}")))?;
            return Ok(GatewayAccess::Bearer { token, resource });
        }
        if resource.is_some() {
            return Err(HostError::Usage(
                "--resource needs --auth-issuer or --bearer-env".into(),
            ));
        }
        Ok(GatewayAccess::Open)
    }
}

/// The value of the environment variable `var`, named by `flag`.
fn secret(var: &str, flag: &str) -> Result<String, HostError> {
    match std::env::var(var) {
        Ok(value) if !value.is_empty() => Ok(value),
        _ => Err(HostError::Usage(format!(
            "{flag} {var}: the environment variable {var} is not set"
        ))),
    }
}

/// The transport the flags ask for: the HTTP listener bound and its
/// authentication set up, or stdio. Done before any server starts, so that
/// a refusal is quick.
pub async fn transport(http: Option<SocketAddr>, auth: &AuthArgs) -> Result<Transport, HostError> {
    let Some(addr) = http else {
        return Ok(Transport::Stdio);
    };
    let access = auth.access()?;
    let listener = GatewayListener::bind(addr, &access)
        .await
        .map_err(|e| HostError::Usage(format!("serve: {e}{}", remedy(&e))))?;
    eprintln!("mcp-host: {}", who_may_call(&access, &listener));
    Ok(Transport::Http(Box::new(listener)))
}

/// The flags that would let the gateway listen.
fn remedy(error: &AccessError) -> &'static str {
    match error {
        AccessError::Unauthenticated(_) => {
            ". Pass --auth-issuer ISSUER --resource URL (OAuth access tokens) or --bearer-env \
             VAR --resource URL (a static token), or listen on a loopback address \
             (--http 127.0.0.1:PORT)"
        }
        AccessError::NoResource(_) => ": pass --resource URL",
        AccessError::Setup(_) | AccessError::Bind(..) => "",
    }
}

/// The startup line that says who may call.
fn who_may_call(access: &GatewayAccess, listener: &GatewayListener) -> String {
    let resource = RedactedUrl::new(listener.resource().unwrap_or_default());
    match access {
        GatewayAccess::Open => "no authentication: only processes on this machine can call \
                                (pass --auth-issuer or --bearer-env to require it)"
            .to_owned(),
        GatewayAccess::OAuth(oauth) => format!(
            "callers need access tokens from {} for {resource}",
            RedactedUrl::new(&oauth.issuer)
        ),
        GatewayAccess::Bearer { .. } => {
            format!("callers need the static bearer token (resource {resource})")
        }
    }
}

/// Serves `host`'s catalogue on `transport`, then stops its servers
/// within `grace`.
pub async fn serve(
    host: Host,
    transport: Transport,
    options: GatewayOptions,
    grace: Duration,
) -> Result<u8, HostError> {
    let host = Arc::new(host);
    let served = match transport {
        Transport::Stdio => match host.gateway(options) {
            Ok(server) => {
                tracing::info!("gateway ready");
                server.serve_stdio().await
            }
            Err(error) => Err(std::io::Error::other(error)),
        },
        Transport::Http(listener) => {
            // The line tests and scripts wait for; the gateway answers from
            // here on.
            eprintln!("mcp-host: listening on {}", listener.url());
            host.serve_gateway_http(options, *listener, stop_signal())
                .await
        }
    };
    host.shutdown(grace).await;
    served
        .map(|()| 0)
        .map_err(|e| HostError::Usage(format!("serve: {e}")))
}

/// Resolves on Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
