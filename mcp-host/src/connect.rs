//! Connecting to one configured server: starting its process or reaching
//! its URL (with its headers and OAuth), and listing its tools, within the
//! connect timeout.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions};
use mcp_toolkit_runtime::protocol::Method;
use mcp_toolkit_runtime::reexports::http::{HeaderName, HeaderValue};

use crate::catalogue::Listening;
use crate::config::{OAuthGrant, ServerConfig};
use crate::listed::Listing;
use crate::options::HostOptions;
use crate::state::ServerState;

/// The options every host client uses: the connection is bounded by
/// `connect_timeout`; calls are bounded by the host itself.
fn client_options(connect_timeout: Duration) -> ConnectOptions {
    ConnectOptions {
        request_timeout: Duration::from_secs(24 * 60 * 60),
        connect_timeout: Some(connect_timeout),
        discover_timeout: (connect_timeout / 3).min(Duration::from_secs(10)),
        ..ConnectOptions::default()
    }
}

/// How much longer than its connect timeout a server's start may take
/// before the host gives up on it without the client's word on why.
const BACKSTOP_MARGIN: Duration = Duration::from_secs(2);

/// The least time the first listing gets after the user authorized in a
/// browser while connecting (time the client's limits do not count, but the
/// host's clock does).
const MIN_LISTING_TIME: Duration = Duration::from_secs(1);

/// The shortest time a user gets to approve access in a browser.
const USER_AUTHORIZATION_TIME: Duration = Duration::from_secs(300);

/// Whether connecting to `server` may wait for the user to authorize in a
/// browser: its `oauth` entry uses the authorization code grant, and the
/// host has a way to ask.
fn user_may_authorize(server: &ServerConfig, options: &HostOptions) -> bool {
    matches!(server, ServerConfig::Http { oauth: Some(oauth), .. }
        if oauth.grant == OAuthGrant::AuthorizationCode)
        && options.authorization_step.is_some()
}

/// How long connecting to `server` may take: `connect_timeout`, but at
/// least [`USER_AUTHORIZATION_TIME`] when the user may have to authorize.
fn connect_bound(server: &ServerConfig, options: &HostOptions) -> Duration {
    if user_may_authorize(server, options) {
        options.connect_timeout.max(USER_AUTHORIZATION_TIME)
    } else {
        options.connect_timeout
    }
}

/// Connects to `server`; a server that cannot be used is [`ServerState::Failed`]
/// with the reason.
pub(crate) async fn start(server: &ServerConfig, options: &HostOptions) -> Connected {
    let timeout = connect_bound(server, options);
    // The client bounds the connection itself and says why it failed; this
    // outer bound only backs it up.
    let backstop = timeout.saturating_add(BACKSTOP_MARGIN);
    match tokio::time::timeout(backstop, connect(server, options)).await {
        Ok(Ok(connected)) => connected,
        Ok(Err(why)) => (ServerState::Failed(why), None),
        Err(_) => (
            ServerState::Failed(format!("did not start within {} s", timeout.as_secs())),
            None,
        ),
    }
}

/// Connects to `server` and lists its tools, or says why it could not.
pub(crate) async fn connect(
    server: &ServerConfig,
    options: &HostOptions,
) -> Result<Connected, String> {
    let timeout = connect_bound(server, options);
    let started = Instant::now();
    let client = match server {
        ServerConfig::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut process = tokio::process::Command::new(command);
            process.args(args);
            for name in &options.withheld_env {
                process.env_remove(name);
            }
            // What the configuration gives a server explicitly, it gets.
            process.envs(env);
            if let Some(cwd) = cwd {
                process.current_dir(cwd);
            }
            Client::connect_command(process, client_options(timeout))
                .await
                .map_err(|e| match e {
                    ClientError::Io(e) => format!("cannot start `{command}`: {e}"),
                    e => format!("`{command}`: {e}"),
                })?
        }
        ServerConfig::Http {
            url,
            headers,
            oauth,
        } => {
            let step = options.authorization_step.as_ref();
            let mut options = client_options(timeout);
            if let Some(oauth) = oauth {
                let config = crate::authorize::oauth_config(oauth, step, timeout)?;
                options.oauth = Some(Arc::new(config));
            }
            for (name, value) in headers {
                let name = HeaderName::try_from(name.as_str())
                    .map_err(|_| format!("`{name}` is not a header name"))?;
                let mut value = HeaderValue::try_from(value.as_str())
                    .map_err(|_| format!("the header `{name}` has an invalid value"))?;
                value.set_sensitive(true);
                options.headers.append(name, value);
            }
            Client::connect_http_with(url, options)
                .await
                .map_err(|e| e.to_string())?
        }
    };
    // Listening starts before the first listing, so that no change the
    // server announces after it is missed.
    let listening = Listening::begin(&client);
    // Listed within what is left of the connect timeout, so that a server
    // whose answer cannot be read is reported with the client's diagnosis
    // (too deep, not JSON-RPC) in time, not by the backstop.
    let floor = if user_may_authorize(server, options) {
        MIN_LISTING_TIME
    } else {
        Duration::ZERO
    };
    let left = timeout.saturating_sub(started.elapsed()).max(floor);
    let list = client
        .tool_list_within(left)
        .await
        .map_err(|e| format!("{} failed: {e}", Method::ToolsList.name()))?;
    Ok((
        ServerState::ready(client, Listing::compile(list), 0),
        Some(listening),
    ))
}

/// A server's state after connecting, and what the connection has heard
/// since before its tools were listed.
pub(crate) type Connected = (ServerState, Option<Listening>);

#[cfg(test)]
mod tests {
    use mcp_toolkit_runtime::client::auth::AuthorizationStep;

    use super::*;
    use crate::config::Config;

    /// A browser that is never used.
    struct NoBrowser;

    impl AuthorizationStep for NoBrowser {
        fn redirect_uri(&self) -> String {
            "http://127.0.0.1:1/callback".into()
        }

        fn authorize<'a>(
            &'a self,
            _url: &'a str,
        ) -> mcp_toolkit_runtime::client::auth::AuthorizeFuture<'a> {
            Box::pin(async { Err(ClientError::Closed) })
        }
    }

    #[test]
    fn only_a_host_that_can_ask_the_user_waits_minutes_for_them() {
        let config = Config::parse(
            r#"{"mcpServers": {
                "browser": {"url": "https://a.example/mcp", "oauth": true},
                "machine": {"url": "https://b.example/mcp",
                            "oauth": {"grant": "client_credentials", "clientId": "c",
                                      "clientSecret": "s"}}
            }}"#,
            |_| None,
        )
        .unwrap();
        let (browser, machine) = (&config.servers["browser"], &config.servers["machine"]);
        let unattended = HostOptions {
            connect_timeout: Duration::from_secs(3),
            ..HostOptions::default()
        };
        let attended = HostOptions {
            authorization_step: Some(Arc::new(NoBrowser)),
            ..unattended.clone()
        };
        assert_eq!(connect_bound(browser, &attended), USER_AUTHORIZATION_TIME);
        assert_eq!(connect_bound(browser, &unattended), Duration::from_secs(3));
        assert_eq!(connect_bound(machine, &attended), Duration::from_secs(3));
    }
}
