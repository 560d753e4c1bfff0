//! Where tokens live between requests (and, with a file, between runs).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::sync::lock;

/// A token for one resource, as the authorization server issued it.
#[derive(Clone, Serialize, Deserialize, PartialEq)]
pub struct StoredToken {
    /// The access token.
    pub access_token: String,
    /// The refresh token, when one was issued.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// When the access token expires, in seconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// The scopes asked for (or granted, when the server said).
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The issuer that issued it.
    pub issuer: String,
}

impl StoredToken {
    /// Whether the access token has expired (or will within 30 s).
    pub fn is_expired(&self) -> bool {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.expires_at
            .is_some_and(|at| at <= now.saturating_add(30))
    }
}

impl std::fmt::Debug for StoredToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredToken")
            .field("expires_at", &self.expires_at)
            .field("scopes", &self.scopes)
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

/// Keeps tokens by resource (the server's canonical URL).
pub trait TokenStore: Send + Sync + 'static {
    /// The token for `resource`, if any.
    fn load(&self, resource: &str) -> Option<StoredToken>;
    /// Keeps `token` for `resource`, or forgets it (`None`).
    fn save(&self, resource: &str, token: Option<&StoredToken>);
}

/// Tokens in memory, for the life of the process (the default).
#[derive(Default)]
pub struct MemoryTokenStore {
    tokens: Mutex<HashMap<String, StoredToken>>,
}

impl TokenStore for MemoryTokenStore {
    fn load(&self, resource: &str) -> Option<StoredToken> {
        lock(&self.tokens).get(resource).cloned()
    }

    fn save(&self, resource: &str, token: Option<&StoredToken>) {
        let mut tokens = lock(&self.tokens);
        match token {
            Some(token) => tokens.insert(resource.to_owned(), token.clone()),
            None => tokens.remove(resource),
        };
    }
}

/// Tokens in a JSON file readable by its owner only (mode 0600 on Unix),
/// so that a CLI keeps its authorization between runs.
pub struct FileTokenStore {
    path: PathBuf,
    memory: MemoryTokenStore,
}

impl FileTokenStore {
    /// Tokens in `path` (read now if it exists; an unreadable file counts
    /// as empty, with a warning).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let memory = MemoryTokenStore::default();
        match std::fs::read(&path) {
            Ok(bytes) => match serde_json::from_slice::<HashMap<String, StoredToken>>(&bytes) {
                Ok(tokens) => *lock(&memory.tokens) = tokens,
                Err(error) => tracing::warn!(path = %path.display(), %error, "token file ignored"),
            },
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => tracing::warn!(path = %path.display(), %error, "token file ignored"),
        }
        FileTokenStore { path, memory }
    }

    fn write(&self) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(&*lock(&self.memory.tokens))?;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&self.path)?;
        #[cfg(unix)]
        std::fs::set_permissions(
            &self.path,
            std::os::unix::fs::PermissionsExt::from_mode(0o600),
        )?;
        std::io::Write::write_all(&mut file, &bytes)
    }
}

impl TokenStore for FileTokenStore {
    fn load(&self, resource: &str) -> Option<StoredToken> {
        self.memory.load(resource)
    }

    fn save(&self, resource: &str, token: Option<&StoredToken>) {
        self.memory.save(resource, token);
        if let Err(error) = self.write() {
            tracing::warn!(path = %self.path.display(), %error, "tokens not saved");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_store_keeps_tokens_between_runs_readable_by_its_owner_only() {
        let dir = std::env::temp_dir().join(format!("mcp-token-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tokens.json");
        let token = StoredToken {
            access_token: "a".into(),
            refresh_token: Some("r".into()),
            expires_at: Some(1),
            scopes: vec!["s".into()],
            issuer: "https://as".into(),
        };
        FileTokenStore::new(&path).save("https://rs/mcp", Some(&token));
        assert_eq!(
            FileTokenStore::new(&path).load("https://rs/mcp"),
            Some(token.clone())
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(token.is_expired());
        assert!(
            !format!("{token:?}").contains("\"a\""),
            "no secrets in debug output"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
