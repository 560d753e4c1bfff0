//! The JWTs a client presents for itself in the JWT-bearer grant (RFC
//! 7523): a workload's own token (workload identity federation, SEP-1933)
//! or the user's identity assertion from the enterprise's identity
//! provider (enterprise-managed authorization, SEP-990).

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use super::discovery::failure;
use crate::client::ClientError;

/// The longest assertion read; a larger file is refused, not read whole.
const MAX_ASSERTION_BYTES: u64 = 64 * 1024;

/// Where an assertion comes from. A file or a variable is read again at
/// each token request, so that a token the platform rotated (a Kubernetes
/// projected service account token, say) is the one sent.
#[derive(Clone)]
pub struct Assertion(Source);

#[derive(Clone)]
enum Source {
    File(PathBuf),
    Env(String),
    Fixed(Arc<str>),
}

impl Assertion {
    /// The JWT in the file at `path` (surrounding whitespace trimmed).
    pub fn file(path: impl Into<PathBuf>) -> Self {
        Assertion(Source::File(path.into()))
    }

    /// The JWT in the environment variable `name`.
    pub fn env(name: impl Into<String>) -> Self {
        Assertion(Source::Env(name.into()))
    }

    /// This JWT, as it is.
    pub fn fixed(jwt: impl Into<String>) -> Self {
        Assertion(Source::Fixed(jwt.into().into()))
    }

    /// The assertion now; an error names where it should be, never what
    /// it holds.
    pub(crate) async fn read(&self) -> Result<String, ClientError> {
        let text = match &self.0 {
            Source::Fixed(jwt) => jwt.to_string(),
            Source::Env(name) => std::env::var(name)
                .map_err(|_| failure(format!("the environment variable {name} holds no token")))?,
            Source::File(path) => {
                let path = path.clone();
                tokio::task::spawn_blocking(move || read_file(&path))
                    .await
                    .map_err(|e| failure(format!("reading the token file failed: {e}")))??
            }
        };
        let jwt = text.trim();
        if jwt.is_empty() {
            return Err(failure(format!("{self:?} is empty")));
        }
        Ok(jwt.to_owned())
    }
}

fn read_file(path: &std::path::Path) -> Result<String, ClientError> {
    use std::io::Read;
    let shown = path.display();
    let file = std::fs::File::open(path)
        .map_err(|e| failure(format!("the token file {shown} cannot be read: {e}")))?;
    let mut text = String::new();
    file.take(MAX_ASSERTION_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| failure(format!("the token file {shown} cannot be read: {e}")))?;
    if text.len() as u64 > MAX_ASSERTION_BYTES {
        return Err(failure(format!(
            "the token file {shown} is larger than {MAX_ASSERTION_BYTES} bytes"
        )));
    }
    Ok(text)
}

/// Says where the assertion is, never the assertion.
impl fmt::Debug for Assertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Source::File(path) => write!(f, "the token file {}", path.display()),
            Source::Env(name) => write!(f, "the environment variable {name}"),
            Source::Fixed(_) => f.write_str("the configured token"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_file_is_read_again_at_each_request_and_never_shown() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "first.jwt.sig\n").unwrap();
        let assertion = Assertion::file(&path);
        assert_eq!(assertion.read().await.unwrap(), "first.jwt.sig");
        std::fs::write(&path, "rotated.jwt.sig").unwrap();
        assert_eq!(assertion.read().await.unwrap(), "rotated.jwt.sig");
        assert!(!format!("{assertion:?}").contains("rotated"));
        let fixed = Assertion::fixed("secret.jwt.sig");
        assert_eq!(format!("{fixed:?}"), "the configured token");
    }

    #[tokio::test]
    async fn a_missing_empty_or_huge_token_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = Assertion::file(dir.path().join("absent"));
        assert!(
            missing
                .read()
                .await
                .unwrap_err()
                .to_string()
                .contains("cannot be read")
        );
        let empty = dir.path().join("empty");
        std::fs::write(&empty, " \n").unwrap();
        assert!(
            Assertion::file(&empty)
                .read()
                .await
                .unwrap_err()
                .to_string()
                .contains("is empty")
        );
        let huge = dir.path().join("huge");
        std::fs::write(&huge, vec![b'a'; 70_000]).unwrap();
        let error = Assertion::file(&huge).read().await.unwrap_err().to_string();
        assert!(error.contains("larger than"), "{error}");
        let unset = Assertion::env("MCP_TOOLKIT_TEST_NO_SUCH_VARIABLE");
        assert!(
            unset
                .read()
                .await
                .unwrap_err()
                .to_string()
                .contains("holds no token")
        );
    }
}
