//! [`FileTokenStore`]: a token store in a JSON file that several processes
//! may share.
//!
//! # The file
//!
//! ```json
//! {
//!   "version": 2,
//!   "servers": {
//!     "https://mcp.example.com/mcp": {
//!       "token": {
//!         "access_token": "…", "refresh_token": "…",
//!         "expires_at": 1767225600, "issued_at": 1767222000,
//!         "scopes": ["files:read", "offline_access"], "issuer": "https://auth.example.com"
//!       },
//!       "issuers": {
//!         "https://auth.example.com": {
//!           "metadata": { "issuer": "https://auth.example.com", "token_endpoint": "…", "…": "…" },
//!           "resource": "https://mcp.example.com/mcp",
//!           "registration": {
//!             "client_id": "…", "client_secret": "…",
//!             "token_endpoint_auth_method": "client_secret_basic",
//!             "redirect_uri": "http://127.0.0.1:53117/callback"
//!           }
//!         }
//!       }
//!     }
//!   }
//! }
//! ```
//!
//! `servers` is keyed by the MCP server's URL; `issuers` by the
//! authorization server's issuer identifier. `metadata` is the issuer's
//! metadata document as discovered (RFC 8414), `resource` the resource
//! indicator (RFC 8707) its tokens are asked for, `registration` the
//! client's own registration there (absent when the credentials come from
//! the configuration). Optional members are left out when empty. A file of
//! the first format, an object of tokens by server URL, is read as such
//! and written back in this one. A file of a later version is read as
//! empty and never written.
//!
//! # Sharing
//!
//! The file is readable and writable by its owner only (mode 0600 on
//! Unix). Every change takes an advisory lock on the file beside it,
//! `<file>.lock` (the token file itself is replaced at each write, so it
//! cannot carry the lock), reads the file again, applies the change and
//! writes a temporary file beside it that is flushed to disk and renamed
//! over the old one: a reader sees the whole old file or the whole new
//! one, never a truncated one, and no process overwrites what another
//! saved. A refresh holds the same lock from reading the token to saving
//! the new one ([`TokenStore::try_lock`]), so that two processes never use
//! one refresh token twice.
//!
//! The temporary file has a random name and is created only if no file of
//! that name exists (`O_EXCL`), so that nobody can prepare it in advance.
//! Keep the file in a directory only its owner can write (a user's config
//! directory, not `/tmp`): elsewhere another user can still take the lock
//! file or replace the token file, and the store warns (once) that it is
//! so.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fs4::FileExt;
use fs4::TryLockError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::store::{
    Entries, Entry, LOCK_POLL, StoreLock, StoredEntry, StoredIssuer, StoredToken, TokenStore,
};
use crate::sync::lock;

/// The format this version writes.
const VERSION: u64 = 2;

/// The longest a change waits for another process's lock (a refresh holds
/// it for one token request, whose own limit is shorter).
const LOCK_WAIT: Duration = Duration::from_secs(60);

/// Tokens in a JSON file, shared safely by every process that uses it (see
/// the module documentation for the format and the locking), so that a CLI
/// keeps its authorization between runs.
pub struct FileTokenStore {
    path: PathBuf,
    lock_path: PathBuf,
    /// The lock file while a refresh through this store holds its lock.
    /// Its mutex also orders this store's own changes.
    held: Arc<Mutex<Option<File>>>,
    /// Whether the warning about a directory others may write was given.
    warned_shared: AtomicBool,
}

#[derive(Serialize, Deserialize)]
struct FileFormat {
    version: u64,
    #[serde(default)]
    servers: BTreeMap<String, Entry>,
}

/// Why the file's content cannot be used.
enum Unusable {
    /// Not JSON of either format (a crash of an older version left it
    /// truncated, or someone edited it): overwritten by the next change.
    Unreadable(String),
    /// Written by a later version: left alone.
    Newer(u64),
}

impl FileTokenStore {
    /// Tokens in `path`, created at the first change; `<path>.lock` beside
    /// it is the lock file.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let mut lock_path = path.clone().into_os_string();
        lock_path.push(".lock");
        FileTokenStore {
            path,
            lock_path: lock_path.into(),
            held: Arc::default(),
            warned_shared: AtomicBool::new(false),
        }
    }

    /// The file's entries, as last written by anyone (no lock: a write
    /// replaces the whole file at once).
    fn read(&self) -> Result<Entries, Unusable> {
        match std::fs::read(&self.path) {
            Ok(bytes) => parse(&bytes),
            Err(error) if error.kind() == ErrorKind::NotFound => Ok(Entries::default()),
            Err(error) => Err(Unusable::Unreadable(error.to_string())),
        }
    }

    fn entries(&self) -> Entries {
        self.read().unwrap_or_else(|unusable| {
            self.warn(&unusable, "token file ignored");
            Entries::default()
        })
    }

    fn warn(&self, unusable: &Unusable, what: &str) {
        match unusable {
            Unusable::Unreadable(error) => {
                tracing::warn!(path = %self.path.display(), %error, "{what}")
            }
            Unusable::Newer(version) => {
                tracing::warn!(path = %self.path.display(), version, "{what}: a later version wrote it")
            }
        }
    }

    /// Reads the file again under the lock, applies `change` and writes it.
    fn apply(&self, change: impl FnOnce(&mut Entries)) {
        if let Err(error) = self.try_apply(change) {
            tracing::warn!(path = %self.path.display(), %error, "tokens not saved");
        }
    }

    /// Waits for the lock (unless a refresh through this store holds it)
    /// without blocking this store's other users meanwhile.
    fn try_apply(&self, change: impl FnOnce(&mut Entries)) -> std::io::Result<()> {
        let deadline = Instant::now() + LOCK_WAIT;
        loop {
            let held = lock(&self.held);
            if held.is_some() {
                return self.change_locked(change);
            }
            if let Some(_file) = self.try_lock_file()? {
                return self.change_locked(change);
            }
            drop(held);
            if Instant::now() >= deadline {
                return Err(std::io::Error::new(
                    ErrorKind::TimedOut,
                    format!(
                        "{} stayed locked for {LOCK_WAIT:?}",
                        self.lock_path.display()
                    ),
                ));
            }
            std::thread::sleep(LOCK_POLL);
        }
    }

    /// The change, once this process holds the lock.
    fn change_locked(&self, change: impl FnOnce(&mut Entries)) -> std::io::Result<()> {
        let mut entries = match self.read() {
            Ok(entries) => entries,
            Err(unusable @ Unusable::Unreadable(_)) => {
                self.warn(&unusable, "token file replaced");
                Entries::default()
            }
            Err(Unusable::Newer(version)) => {
                return Err(std::io::Error::other(format!(
                    "a later version wrote it (format {version}); it is left as it is"
                )));
            }
        };
        change(&mut entries);
        let file = FileFormat {
            version: VERSION,
            servers: entries.0,
        };
        let bytes = serde_json::to_vec_pretty(&file)?;
        self.warn_if_shared();
        write_atomically(&self.path, &bytes)
    }

    /// Warns, once per store, when the file's directory is writable by
    /// others than its owner.
    fn warn_if_shared(&self) {
        if writable_by_others(directory_of(&self.path))
            && !self.warned_shared.swap(true, Ordering::Relaxed)
        {
            tracing::warn!(
                path = %self.path.display(),
                "the token file's directory is writable by other users, who can \
                 take its lock or replace it: keep tokens in a directory only you can write"
            );
        }
    }

    fn open_lock_file(&self) -> std::io::Result<File> {
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(&self.lock_path)
    }

    /// The lock file, locked; `None` while another holds it.
    fn try_lock_file(&self) -> std::io::Result<Option<File>> {
        let file = self.open_lock_file()?;
        match FileExt::try_lock(&file) {
            Ok(()) => Ok(Some(file)),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(error)) => Err(error),
        }
    }
}

impl TokenStore for FileTokenStore {
    fn load(&self, server: &str) -> Option<StoredToken> {
        self.entries().token(server)
    }

    fn save(&self, server: &str, token: Option<&StoredToken>) {
        self.apply(|entries| entries.set_token(server, token));
    }

    fn load_issuer(&self, server: &str, issuer: &str) -> Option<StoredIssuer> {
        self.entries().issuer(server, issuer)
    }

    fn save_issuer(&self, server: &str, issuer: &str, record: Option<&StoredIssuer>) {
        self.apply(|entries| entries.set_issuer(server, issuer, record));
    }

    fn update(&self, server: &str, issuer: &str, change: &mut dyn FnMut(&mut StoredEntry)) {
        self.apply(|entries| entries.update(server, issuer, change));
    }

    /// One lock for the whole file: a refresh of one server holds off
    /// changes to the others for the length of one token request.
    fn try_lock(&self, _server: &str) -> std::io::Result<Option<StoreLock>> {
        let mut held = lock(&self.held);
        if held.is_some() {
            return Ok(None);
        }
        let Some(file) = self.try_lock_file()? else {
            return Ok(None);
        };
        *held = Some(file);
        Ok(Some(StoreLock::new(Release(Arc::clone(&self.held)))))
    }
}

/// Closes the lock file (which releases its lock) when dropped.
struct Release(Arc<Mutex<Option<File>>>);

impl Drop for Release {
    fn drop(&mut self) {
        lock(&self.0).take();
    }
}

/// The entries of either format.
fn parse(bytes: &[u8]) -> Result<Entries, Unusable> {
    let unreadable = |error: serde_json::Error| Unusable::Unreadable(error.to_string());
    let value: Value = serde_json::from_slice(bytes).map_err(unreadable)?;
    if value.get("version").is_none() {
        // The first format: tokens by server URL.
        let tokens: BTreeMap<String, StoredToken> =
            serde_json::from_value(value).map_err(unreadable)?;
        let entries = tokens
            .into_iter()
            .map(|(server, token)| {
                let entry = Entry {
                    token: Some(token),
                    ..Entry::default()
                };
                (server, entry)
            })
            .collect();
        return Ok(Entries(entries));
    }
    let file: FileFormat = serde_json::from_value(value).map_err(unreadable)?;
    if file.version > VERSION {
        return Err(Unusable::Newer(file.version));
    }
    Ok(Entries(file.servers))
}

/// The directory `path` is in (`.` for a bare file name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(directory) if !directory.as_os_str().is_empty() => directory,
        _ => Path::new("."),
    }
}

/// Whether users other than its owner may create files in `directory`.
#[cfg(unix)]
fn writable_by_others(directory: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(directory).is_ok_and(|meta| meta.permissions().mode() & 0o022 != 0)
}

#[cfg(not(unix))]
fn writable_by_others(_directory: &Path) -> bool {
    false
}

/// `<path>.<random>.tmp`: a name nobody can guess, and so prepare.
fn temporary_path(path: &Path) -> std::io::Result<PathBuf> {
    let mut random = [0u8; 8];
    getrandom::fill(&mut random).map_err(|error| std::io::Error::other(error.to_string()))?;
    let mut temporary = path.to_path_buf().into_os_string();
    temporary.push(".");
    for byte in random {
        temporary.push(format!("{byte:02x}"));
    }
    temporary.push(".tmp");
    Ok(temporary.into())
}

/// Replaces `path` with `bytes` at once: a new temporary file beside it
/// (owner-only, random name), flushed to disk, renamed over it; removed
/// when anything fails.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = temporary_path(path)?;
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    // Never created (the name was taken): nothing of ours to remove.
    let mut file = options.open(&temporary)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temporary, path));
    if let Err(error) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(error);
    }
    // The rename itself survives a crash once the directory is on disk.
    #[cfg(unix)]
    File::open(directory_of(path))?.sync_all()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(access: &str) -> StoredToken {
        StoredToken {
            access_token: access.into(),
            refresh_token: Some(format!("refresh-{access}")),
            expires_at: Some(1),
            issued_at: None,
            scopes: vec!["s".into()],
            issuer: "https://as".into(),
            dpop_key: None,
        }
    }

    #[test]
    fn a_file_store_keeps_tokens_between_runs_readable_by_its_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let token = token("a");
        FileTokenStore::new(&path).save("https://rs/mcp", Some(&token));
        assert_eq!(
            FileTokenStore::new(&path).load("https://rs/mcp"),
            Some(token.clone())
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            for file in [&path, &dir.path().join("tokens.json.lock")] {
                let mode = std::fs::metadata(file).unwrap().permissions().mode();
                assert_eq!(mode & 0o777, 0o600, "{}", file.display());
            }
        }
        assert!(token.is_expired());
        assert!(
            !format!("{token:?}").contains("\"a\""),
            "no secrets in debug output"
        );
    }

    /// Two stores on one file (two processes, or two servers of one host
    /// configuration) each save their own server: neither loses the
    /// other's, because each change reads the file again first.
    #[test]
    fn changes_through_two_stores_on_one_file_keep_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let (first, second) = (FileTokenStore::new(&path), FileTokenStore::new(&path));
        assert_eq!(first.load("https://one/mcp"), None);
        assert_eq!(second.load("https://two/mcp"), None);
        first.save("https://one/mcp", Some(&token("one")));
        second.save("https://two/mcp", Some(&token("two")));
        first.save("https://one/mcp", Some(&token("one-again")));
        let third = FileTokenStore::new(&path);
        assert_eq!(third.load("https://one/mcp"), Some(token("one-again")));
        assert_eq!(third.load("https://two/mcp"), Some(token("two")));
    }

    /// A reader never sees the file half written: every read while another
    /// thread rewrites it is the whole of one version or another.
    #[test]
    fn a_reader_never_sees_a_truncated_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let store = FileTokenStore::new(&path);
        // Large enough that a write is not one syscall's worth.
        let big = token(&"x".repeat(256 * 1024));
        store.save("https://rs/mcp", Some(&big));
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let (path, done) = (path.clone(), done.clone());
            std::thread::spawn(move || {
                let mut reads = 0;
                while !done.load(std::sync::atomic::Ordering::SeqCst) {
                    let bytes = std::fs::read(&path).unwrap();
                    assert!(
                        parse(&bytes).is_ok(),
                        "read {} bytes that are not a whole file",
                        bytes.len()
                    );
                    reads += 1;
                }
                reads
            })
        };
        for round in 0..40 {
            let mut next = big.clone();
            next.scopes = vec![round.to_string()];
            store.save("https://rs/mcp", Some(&next));
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        let reads = reader.join().expect("every read was a whole file");
        assert!(reads > 0);
    }

    /// While one store holds the lock for a refresh, another store on the
    /// same file gets no lock and its change waits until the lock is given
    /// back; the holder's own changes go through.
    #[test]
    fn a_refresh_holds_off_every_other_store_on_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let (holder, other) = (FileTokenStore::new(&path), FileTokenStore::new(&path));
        let lock = holder.try_lock("https://rs/mcp").unwrap().expect("free");
        assert!(other.try_lock("https://rs/mcp").unwrap().is_none());
        assert!(
            holder.try_lock("https://rs/mcp").unwrap().is_none(),
            "one refresh at a time in this process too"
        );
        holder.save("https://rs/mcp", Some(&token("fresh")));

        let started = Instant::now();
        let waiting = std::thread::spawn(move || {
            other.save("https://other/mcp", Some(&token("other")));
            started.elapsed()
        });
        std::thread::sleep(Duration::from_millis(300));
        drop(lock);
        let waited = waiting.join().unwrap();
        assert!(
            waited >= Duration::from_millis(300),
            "saved after {waited:?}"
        );
        let reader = FileTokenStore::new(&path);
        assert_eq!(reader.load("https://rs/mcp"), Some(token("fresh")));
        assert_eq!(reader.load("https://other/mcp"), Some(token("other")));
        assert!(reader.try_lock("https://rs/mcp").unwrap().is_some());
    }

    /// Another user of a shared directory prepares the temporary file's
    /// name (here a directory, which no one can open or remove as a file):
    /// tokens are saved all the same, and no temporary file is left.
    #[test]
    fn a_prepared_temporary_file_does_not_stop_a_save() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        std::fs::create_dir(dir.path().join("tokens.json.tmp")).unwrap();
        let store = FileTokenStore::new(&path);
        store.save("https://rs/mcp", Some(&token("a")));
        assert_eq!(store.load("https://rs/mcp"), Some(token("a")));
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["tokens.json", "tokens.json.lock", "tokens.json.tmp"]
        );
    }

    /// A write that fails (the token file's name is taken by a directory)
    /// removes its temporary file.
    #[test]
    fn a_failed_write_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("keep"), "").unwrap();
        assert!(write_atomically(&path, b"{}").is_err());
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["tokens.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_others_may_write_is_told_apart() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let set = |mode| {
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(mode)).unwrap()
        };
        set(0o700);
        assert!(!writable_by_others(dir.path()));
        for shared in [0o770, 0o1777, 0o722] {
            set(shared);
            assert!(writable_by_others(dir.path()), "{shared:o}");
        }
        set(0o700);
    }

    /// `update` changes a server's token and its issuer's record in one
    /// change, and drops an entry it empties.
    #[test]
    fn an_update_changes_the_token_and_the_record_together() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let store = FileTokenStore::new(&path);
        let metadata: crate::oauth::metadata::AuthorizationServerMetadata =
            serde_json::from_value(serde_json::json!({"issuer": "https://as"})).unwrap();
        let record = StoredIssuer::new(metadata, "https://rs/mcp", None);
        store.update("https://rs/mcp", "https://as", &mut |entry| {
            assert_eq!(entry, &StoredEntry::default());
            entry.token = Some(token("a"));
            entry.issuer = Some(record.clone());
        });
        let reader = FileTokenStore::new(&path);
        assert_eq!(reader.load("https://rs/mcp"), Some(token("a")));
        assert_eq!(
            reader.load_issuer("https://rs/mcp", "https://as"),
            Some(record)
        );
        store.update("https://rs/mcp", "https://as", &mut |entry| {
            entry.token = None;
            entry.issuer = None;
        });
        let written: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(written["servers"], serde_json::json!({}));
    }

    #[test]
    fn the_first_format_is_read_and_written_back_in_this_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let first = serde_json::json!({"https://rs/mcp": {
            "access_token": "a", "refresh_token": "refresh-a", "expires_at": 1,
            "scopes": ["s"], "issuer": "https://as"}});
        std::fs::write(&path, first.to_string()).unwrap();
        let store = FileTokenStore::new(&path);
        assert_eq!(store.load("https://rs/mcp"), Some(token("a")));
        store.save("https://two/mcp", Some(&token("two")));
        let written: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(written["version"], 2);
        assert_eq!(
            written["servers"]["https://rs/mcp"]["token"]["access_token"],
            "a"
        );
        assert_eq!(store.load("https://two/mcp"), Some(token("two")));
    }

    #[test]
    fn a_file_of_a_later_version_is_left_alone_and_garbage_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let later = r#"{"version": 3, "servers": {}, "more": true}"#;
        std::fs::write(&path, later).unwrap();
        let store = FileTokenStore::new(&path);
        assert_eq!(store.load("https://rs/mcp"), None);
        store.save("https://rs/mcp", Some(&token("a")));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), later);

        std::fs::write(&path, "").unwrap();
        assert_eq!(store.load("https://rs/mcp"), None);
        store.save("https://rs/mcp", Some(&token("a")));
        assert_eq!(store.load("https://rs/mcp"), Some(token("a")));
    }
}
