//! The host's configuration: the `mcpServers` JSON format that Claude
//! Desktop, Cursor and VS Code use, with `${VAR}` references to the
//! environment, plus a `policy` section of our own.
//!
//! ```json
//! {
//!   "mcpServers": {
//!     "echo": { "command": "echo-server", "args": [], "env": {"RUST_LOG": "warn"} },
//!     "notes": { "url": "https://notes.example.com/mcp", "headers": {"Authorization": "Bearer ${NOTES_TOKEN}"} },
//!     "crm": { "url": "https://crm.example.com/mcp", "oauth": { "tokenFile": "crm-tokens.json" } },
//!     "jobs": { "url": "https://jobs.example.com/mcp",
//!               "oauth": { "grant": "client_credentials", "clientId": "host", "clientSecret": "${JOBS_SECRET}" } },
//!     "build": { "url": "https://build.example.com/mcp",
//!                "oauth": { "grant": "workload_identity", "clientId": "ci",
//!                           "assertionFile": "/var/run/secrets/tokens/mcp" } },
//!     "wiki": { "url": "https://wiki.example.com/mcp",
//!               "oauth": { "grant": "enterprise_managed", "clientId": "host", "clientSecret": "${WIKI_SECRET}",
//!                          "assertionEnv": "ID_TOKEN",
//!                          "identityProvider": { "issuer": "https://idp.example.com",
//!                                                "tokenEndpoint": "https://idp.example.com/token",
//!                                                "clientId": "host-at-idp" } } }
//!   },
//!   "policy": { "deny": ["notes.delete_*"], "untrusted": ["notes"] }
//! }
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_toolkit_runtime::redact::RedactedUrl;
use serde::Deserialize;

use crate::error::HostError;

/// Every server and the policy.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The servers, by name (sorted).
    pub servers: BTreeMap<String, ServerConfig>,
    /// What may be called.
    pub policy: PolicyConfig,
}

/// How to reach one server. Its debug output names headers and
/// environment variables but never shows their values (tokens), and shows
/// URLs without userinfo, query or fragment
/// ([`RedactedUrl`](mcp_toolkit_runtime::redact::RedactedUrl)).
#[derive(Clone, PartialEq)]
pub enum ServerConfig {
    /// A child process speaking stdio.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to its environment.
        env: BTreeMap<String, String>,
        /// Its working directory.
        cwd: Option<PathBuf>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// The endpoint.
        url: String,
        /// Headers sent with every request.
        headers: BTreeMap<String, String>,
        /// How to authorize when the server asks for OAuth (HTTP 401);
        /// without it such a server is reported unavailable.
        oauth: Option<OAuthSettings>,
    },
}

/// The `oauth` entry of an HTTP server (`true` for the defaults: the
/// authorization code flow with a client registered on the fly, tokens in
/// memory).
#[derive(Clone, PartialEq, Default)]
pub struct OAuthSettings {
    /// Which grant to use.
    pub grant: OAuthGrant,
    /// A client registered beforehand (`clientId`); else the host registers
    /// itself (Client ID Metadata Document or Dynamic Client Registration).
    pub client_id: Option<String>,
    /// Its secret (`clientSecret`), for `client_secret_basic`/`_post`.
    pub client_secret: Option<String>,
    /// Its PKCS#8 PEM private key (`privateKeyFile`), for `private_key_jwt`,
    /// signed with `algorithm` (such as `ES256` or `RS256`).
    pub private_key: Option<(PathBuf, String)>,
    /// The HTTPS URL of the host's Client ID Metadata Document
    /// (`clientMetadataUrl`).
    pub client_metadata_url: Option<String>,
    /// Where tokens are kept between runs (`tokenFile`, written with mode
    /// 0600); else in memory only.
    pub token_file: Option<PathBuf>,
    /// The JWT the host presents, read again at each token request: the
    /// workload's own token (`workload_identity`) or the user's ID token
    /// from the identity provider (`enterprise_managed`).
    pub assertion: Option<AssertionSource>,
    /// The enterprise identity provider (`identityProvider`), for
    /// `enterprise_managed`.
    pub identity_provider: Option<Box<IdentityProviderSettings>>,
}

/// Where a JWT is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AssertionSource {
    /// A file (`assertionFile`), such as a projected service account token.
    File(PathBuf),
    /// An environment variable (`assertionEnv`), read when it is needed.
    Env(String),
}

/// The `identityProvider` of an `enterprise_managed` entry: where the
/// user's ID token is exchanged for an identity assertion grant, and who
/// the host is there.
#[derive(Clone, PartialEq, Eq)]
pub struct IdentityProviderSettings {
    /// Its issuer identifier (`issuer`).
    pub issuer: String,
    /// Its token endpoint (`tokenEndpoint`).
    pub token_endpoint: String,
    /// The host's client there (`clientId`).
    pub client_id: String,
    /// Its secret there (`clientSecret`), if it has one.
    pub client_secret: Option<String>,
}

impl std::fmt::Debug for IdentityProviderSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdentityProviderSettings")
            .field("issuer", &RedactedUrl::new(&self.issuer))
            .field("token_endpoint", &RedactedUrl::new(&self.token_endpoint))
            .field("client_id", &self.client_id)
            .field("has_client_secret", &self.client_secret.is_some())
            .finish()
    }
}

/// The OAuth grant of a server's `oauth` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OAuthGrant {
    /// The user approves in a browser (`authorization_code`, the default).
    #[default]
    AuthorizationCode,
    /// The host acts for itself with its own credentials
    /// (`client_credentials`).
    ClientCredentials,
    /// The host is a workload that presents the token its platform issued
    /// it (`workload_identity`, SEP-1933: the JWT-bearer grant).
    WorkloadIdentity,
    /// The user signed in at the enterprise's identity provider, whose ID
    /// token the host exchanges there for access to the server
    /// (`enterprise_managed`, SEP-990).
    EnterpriseManaged,
}

impl std::fmt::Debug for OAuthSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthSettings")
            .field("grant", &self.grant)
            .field("client_id", &self.client_id)
            .field("has_client_secret", &self.client_secret.is_some())
            .field("private_key", &self.private_key)
            .field(
                "client_metadata_url",
                &self.client_metadata_url.as_deref().map(RedactedUrl::new),
            )
            .field("token_file", &self.token_file)
            .field("assertion", &self.assertion)
            .field("identity_provider", &self.identity_provider)
            .finish()
    }
}

impl std::fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerConfig::Stdio {
                command,
                args,
                env,
                cwd,
            } => f
                .debug_struct("Stdio")
                .field("command", command)
                .field("args", args)
                .field("env_names", &env.keys().collect::<Vec<_>>())
                .field("cwd", cwd)
                .finish(),
            ServerConfig::Http {
                url,
                headers,
                oauth,
            } => f
                .debug_struct("Http")
                .field("url", &RedactedUrl::new(url))
                .field("header_names", &headers.keys().collect::<Vec<_>>())
                .field("oauth", oauth)
                .finish(),
        }
    }
}

/// The `policy` section.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PolicyConfig {
    /// When not empty, only these may be called: `server.tool`, `server.*`
    /// or a `*` suffix pattern (`notes.read_*`).
    #[serde(default)]
    pub allow: Vec<String>,
    /// Never called, whatever `allow` says. Same patterns.
    #[serde(default)]
    pub deny: Vec<String>,
    /// Servers whose annotations are not believed when they loosen
    /// (`readOnlyHint`): every call to them needs consent.
    #[serde(default)]
    pub untrusted: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawConfig {
    #[serde(default)]
    mcp_servers: BTreeMap<String, RawServer>,
    #[serde(default)]
    policy: PolicyConfig,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawServer {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    /// `true`, `false` or the settings object (read by [`oauth_settings`]).
    oauth: Option<serde_json::Value>,
    /// Accepted for compatibility with other hosts' files (`stdio`, `http`).
    #[serde(rename = "type")]
    _kind: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawOAuthSettings {
    #[serde(default)]
    grant: OAuthGrant,
    client_id: Option<String>,
    client_secret: Option<String>,
    private_key_file: Option<PathBuf>,
    algorithm: Option<String>,
    client_metadata_url: Option<String>,
    token_file: Option<String>,
    assertion_file: Option<String>,
    assertion_env: Option<String>,
    identity_provider: Option<RawIdentityProvider>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawIdentityProvider {
    issuer: String,
    token_endpoint: String,
    client_id: String,
    client_secret: Option<String>,
}

/// A server's `oauth` entry, checked, with `${VAR}` references expanded.
fn oauth_settings(
    entry: serde_json::Value,
    expand: &impl Fn(&str) -> Result<String, String>,
) -> Result<Option<OAuthSettings>, String> {
    let raw: RawOAuthSettings = match entry {
        serde_json::Value::Bool(false) => return Ok(None),
        serde_json::Value::Bool(true) => return Ok(Some(OAuthSettings::default())),
        settings => serde_json::from_value(settings).map_err(|e| format!("oauth: {e}"))?,
    };
    let optional = |value: Option<String>| value.map(|v| expand(&v)).transpose();
    let private_key = match (raw.private_key_file, raw.algorithm) {
        (Some(file), Some(algorithm)) => Some((file, algorithm)),
        (None, None) => None,
        (Some(_), None) => {
            return Err("oauth: `privateKeyFile` needs its `algorithm` (ES256, RS256...)".into());
        }
        (None, Some(_)) => return Err("oauth: `algorithm` without `privateKeyFile`".into()),
    };
    let assertion = match (optional(raw.assertion_file)?, raw.assertion_env) {
        (Some(file), None) => Some(AssertionSource::File(PathBuf::from(file))),
        (None, Some(name)) => Some(AssertionSource::Env(name)),
        (None, None) => None,
        (Some(_), Some(_)) => {
            return Err("oauth: give `assertionFile` or `assertionEnv`, not both".into());
        }
    };
    let identity_provider = match raw.identity_provider {
        Some(idp) => Some(Box::new(IdentityProviderSettings {
            issuer: expand(&idp.issuer)?,
            token_endpoint: expand(&idp.token_endpoint)?,
            client_id: expand(&idp.client_id)?,
            client_secret: optional(idp.client_secret)?,
        })),
        None => None,
    };
    let settings = OAuthSettings {
        grant: raw.grant,
        assertion,
        identity_provider,
        client_id: optional(raw.client_id)?,
        client_secret: optional(raw.client_secret)?,
        private_key,
        client_metadata_url: optional(raw.client_metadata_url)?,
        token_file: optional(raw.token_file)?.map(PathBuf::from),
    };
    if settings.client_secret.is_some() && settings.private_key.is_some() {
        return Err("oauth: give `clientSecret` or `privateKeyFile`, not both".into());
    }
    if settings.client_id.is_none()
        && (settings.client_secret.is_some() || settings.private_key.is_some())
    {
        return Err("oauth: a secret or key needs its `clientId`".into());
    }
    let asserts = matches!(
        settings.grant,
        OAuthGrant::WorkloadIdentity | OAuthGrant::EnterpriseManaged
    );
    if asserts != settings.assertion.is_some() {
        return Err(match asserts {
            true => "oauth: this grant needs `assertionFile` or `assertionEnv`, the JWT to present",
            false => "oauth: `assertionFile` and `assertionEnv` are for `workload_identity` and `enterprise_managed`",
        }
        .into());
    }
    if (settings.grant == OAuthGrant::EnterpriseManaged) != settings.identity_provider.is_some() {
        return Err(
            "oauth: `identityProvider` goes with the `enterprise_managed` grant, which needs it"
                .into(),
        );
    }
    if asserts && settings.client_id.is_none() {
        return Err("oauth: this grant needs the host's `clientId`".into());
    }
    if settings.grant == OAuthGrant::ClientCredentials
        && (settings.client_secret.is_none() && settings.private_key.is_none())
    {
        return Err(
            "oauth: client_credentials needs `clientId` with `clientSecret` or `privateKeyFile`"
                .into(),
        );
    }
    Ok(Some(settings))
}

impl Config {
    /// Reads `path`.
    pub fn load(path: &Path) -> Result<Self, HostError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| HostError::Usage(format!("cannot read {}: {e}", path.display())))?;
        Self::parse(&text, |name| std::env::var(name).ok())
            .map_err(|e| HostError::Usage(format!("{}: {e}", path.display())))
    }

    /// Reads a configuration, looking `${VAR}` references up with `env`.
    pub fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let raw: RawConfig = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut servers = BTreeMap::new();
        for (name, server) in raw.mcp_servers {
            if name.is_empty() || name.contains('.') {
                return Err(format!(
                    "server name {name:?}: use a non-empty name without `.` (tools are named SERVER.TOOL)"
                ));
            }
            let expand = |text: &str| expand(text, &env).map_err(|e| format!("server {name}: {e}"));
            let config = match (server.command, server.url) {
                (Some(_), None) if server.oauth.is_some() => {
                    return Err(format!(
                        "server {name}: `oauth` is for `url` servers; a stdio server takes credentials from `env`"
                    ));
                }
                (Some(command), None) => ServerConfig::Stdio {
                    command: expand(&command)?,
                    args: server
                        .args
                        .iter()
                        .map(|a| expand(a))
                        .collect::<Result<_, _>>()?,
                    env: expand_map(&server.env, &expand)?,
                    cwd: server.cwd,
                },
                (None, Some(url)) => ServerConfig::Http {
                    url: expand(&url)?,
                    headers: expand_map(&server.headers, &expand)?,
                    oauth: match server.oauth {
                        Some(oauth) => oauth_settings(oauth, &expand)
                            .map_err(|e| format!("server {name}: {e}"))?,
                        None => None,
                    },
                },
                _ => return Err(format!("server {name}: give either `command` or `url`")),
            };
            servers.insert(name, config);
        }
        Ok(Config {
            servers,
            policy: raw.policy,
        })
    }
}

fn expand_map(
    map: &BTreeMap<String, String>,
    expand: &impl Fn(&str) -> Result<String, String>,
) -> Result<BTreeMap<String, String>, String> {
    map.iter()
        .map(|(k, v)| Ok((k.clone(), expand(v)?)))
        .collect()
}

/// Replaces every `${VAR}` with the variable's value; an unset variable is
/// an error that names it.
fn expand(text: &str, env: &impl Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| format!("an unterminated `${{` in {text:?}"))?;
        let name = &after[..end];
        let value =
            env(name).ok_or_else(|| format!("the environment variable {name} is not set"))?;
        out.push_str(&value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_common_format_with_variables() {
        let text = r#"{
            "mcpServers": {
                "echo": {"command": "echo-server", "args": ["--x", "${HOME_DIR}/a"], "env": {"K": "${TOKEN}"}},
                "web": {"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
            },
            "policy": {"deny": ["web.*"]}
        }"#;
        let env = |name: &str| match name {
            "HOME_DIR" => Some("/home/me".to_owned()),
            "TOKEN" => Some("t0k".to_owned()),
            _ => None,
        };
        let config = Config::parse(text, env).unwrap();
        assert_eq!(
            config.servers["echo"],
            ServerConfig::Stdio {
                command: "echo-server".into(),
                args: vec!["--x".into(), "/home/me/a".into()],
                env: BTreeMap::from([("K".into(), "t0k".into())]),
                cwd: None,
            }
        );
        let ServerConfig::Http { headers, .. } = &config.servers["web"] else {
            panic!("http");
        };
        assert_eq!(headers["Authorization"], "Bearer t0k");
        assert!(
            !format!("{config:?}").contains("t0k"),
            "no secrets in debug output"
        );
        assert_eq!(config.policy.deny, ["web.*"]);
    }

    #[test]
    fn oauth_entries() {
        let text = r#"{"mcpServers": {
            "on": {"url": "u", "oauth": true},
            "off": {"url": "u", "oauth": false},
            "m2m": {"url": "u", "oauth": {"grant": "client_credentials", "clientId": "id",
                    "clientSecret": "${SECRET}", "tokenFile": "${DIR}/t.json"}}
        }}"#;
        let env = |name: &str| match name {
            "SECRET" => Some("s3cret".to_owned()),
            "DIR" => Some("/var/lib/host".to_owned()),
            _ => None,
        };
        let config = Config::parse(text, env).unwrap();
        let oauth = |name: &str| match &config.servers[name] {
            ServerConfig::Http { oauth, .. } => oauth.clone(),
            ServerConfig::Stdio { .. } => panic!("{name} is an HTTP server"),
        };
        assert_eq!(oauth("on"), Some(OAuthSettings::default()));
        assert_eq!(oauth("off"), None);
        let m2m = oauth("m2m").unwrap();
        assert_eq!(m2m.grant, OAuthGrant::ClientCredentials);
        assert_eq!(m2m.client_secret.as_deref(), Some("s3cret"));
        assert_eq!(m2m.token_file, Some(PathBuf::from("/var/lib/host/t.json")));
        assert!(!format!("{config:?}").contains("s3cret"));
    }

    #[test]
    fn workload_and_enterprise_entries() {
        let text = r#"{"mcpServers": {
            "ci": {"url": "u", "oauth": {"grant": "workload_identity", "clientId": "ci",
                   "assertionFile": "${DIR}/token"}},
            "wiki": {"url": "u", "oauth": {"grant": "enterprise_managed", "clientId": "host",
                     "clientSecret": "${SECRET}", "assertionEnv": "ID_TOKEN",
                     "identityProvider": {"issuer": "https://idp", "tokenEndpoint": "https://idp/token",
                                          "clientId": "h", "clientSecret": "${SECRET}"}}}
        }}"#;
        let env = |name: &str| match name {
            "SECRET" => Some("s3cret".to_owned()),
            "DIR" => Some("/run/tokens".to_owned()),
            _ => None,
        };
        let config = Config::parse(text, env).unwrap();
        let oauth = |name: &str| match &config.servers[name] {
            ServerConfig::Http { oauth, .. } => oauth.clone().unwrap(),
            ServerConfig::Stdio { .. } => panic!("{name} is an HTTP server"),
        };
        let ci = oauth("ci");
        assert_eq!(ci.grant, OAuthGrant::WorkloadIdentity);
        assert_eq!(
            ci.assertion,
            Some(AssertionSource::File("/run/tokens/token".into()))
        );
        let wiki = oauth("wiki");
        assert_eq!(wiki.grant, OAuthGrant::EnterpriseManaged);
        assert_eq!(
            wiki.assertion,
            Some(AssertionSource::Env("ID_TOKEN".into()))
        );
        let idp = wiki.identity_provider.unwrap();
        assert_eq!(idp.token_endpoint, "https://idp/token");
        assert_eq!(idp.client_secret.as_deref(), Some("s3cret"));
        assert!(!format!("{config:?}").contains("s3cret"));
    }

    #[test]
    fn mistakes_are_named() {
        let none = |_: &str| None;
        for (text, expected) in [
            (
                r#"{"mcpServers": {"a": {"command": "${NOPE}"}}}"#,
                "NOPE is not set",
            ),
            (r#"{"mcpServers": {"a": {}}}"#, "either `command` or `url`"),
            (
                r#"{"mcpServers": {"a.b": {"command": "x"}}}"#,
                "without `.`",
            ),
            (
                r#"{"mcpServers": {"a": {"command": "x", "bogus": 1}}}"#,
                "bogus",
            ),
            (
                r#"{"mcpServers": {"a": {"command": "x", "oauth": true}}}"#,
                "`oauth` is for `url` servers",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "u", "oauth": {"grant": "client_credentials"}}}}"#,
                "client_credentials needs",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "u", "oauth": {"clientSecret": "s"}}}}"#,
                "needs its `clientId`",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "u", "oauth": {"scopes": "s"}}}}"#,
                "unknown field `scopes`",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "u", "oauth": {"grant": "implicit"}}}}"#,
                "implicit",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "u", "oauth": {"grant": "workload_identity", "clientId": "c"}}}}"#,
                "needs `assertionFile` or `assertionEnv`",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "u", "oauth": {"assertionEnv": "T"}}}}"#,
                "are for `workload_identity` and `enterprise_managed`",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "u", "oauth": {"grant": "enterprise_managed", "clientId": "c", "assertionEnv": "T"}}}}"#,
                "`identityProvider` goes with",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "u", "oauth": {"grant": "workload_identity", "assertionEnv": "T"}}}}"#,
                "needs the host's `clientId`",
            ),
        ] {
            let error = Config::parse(text, none).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
