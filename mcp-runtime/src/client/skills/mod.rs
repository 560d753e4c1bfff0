//! The host side of the Skills extension (`io.modelcontextprotocol/skills`,
//! SEP-2640): listing a server's skills, loading one, and reading its files,
//! verifying every byte against the skill's entry.
//!
//! The extension's rules this module keeps:
//! - `skills/list` and `skills/get` are sent only to a server that declared
//!   the extension (and, as the extension requires, resources).
//! - Nothing is read ahead of need: listing reads no file; loading reads
//!   `SKILL.md` only; a supporting file is read when asked for.
//! - Every file read is checked against the entry's `size` and `sha256:`
//!   digest, and `SKILL.md`'s YAML frontmatter is compared field by field
//!   with the entry's `frontmatter`. Content that fails is never returned.
//! - While a skill is loaded, only files its entry lists can be read.
//! - Skills whose `resources` is `"dynamic"` carry no digests, so nothing
//!   could be verified: they are declined (the extension lets hosts do so).
//!
//! ```no_run
//! # async fn run(client: mcp_toolkit_runtime::client::Client) -> Result<(), mcp_toolkit_runtime::client::SkillError> {
//! let skills = client.list_skills().await?;
//! if let Some(entry) = skills.first() {
//!     let skill = client.load_skill(entry).await?;
//!     println!("{}", skill.body());
//!     for file in skill.supporting_files() {
//!         let file = client.read_skill_file(&skill, &file.uri).await?;
//!         println!("{} bytes", file.bytes.len());
//!     }
//! }
//! # Ok(())
//! # }
//! ```

use std::fmt;

use base64::Engine as _;
use serde_json::{Map, Value};

use super::{Client, ClientError};
use crate::frontmatter;
use crate::protocol::{
    MAX_SKILL_BYTES, MAX_SKILL_FILES, Method, ReadResourceResult, ResourceContents,
    SKILLS_EXTENSION, Skill, SkillResource, SkillResources, sha256_digest,
};

/// Why a skill could not be listed, loaded or read.
#[derive(Debug)]
pub enum SkillError {
    /// The server did not declare the skills extension together with the
    /// `resources` capability, so its skill methods must not be called.
    NotSupported,
    /// A request failed.
    Client(ClientError),
    /// The entry breaks the extension's rules (a malformed digest, a
    /// manifest without `SKILL.md`, a URI that does not end in the name...).
    InvalidEntry {
        /// The skill's URI.
        skill: String,
        /// What is wrong.
        reason: String,
    },
    /// The entry's `resources` is `"dynamic"`: there is nothing to verify
    /// the content against, so the skill is not loaded.
    Dynamic {
        /// The skill's URI.
        skill: String,
    },
    /// The skill has more files or bytes than the extension's limits
    /// (512 files, 16 MiB), which is all a host must accept.
    TooLarge {
        /// The skill's URI.
        skill: String,
        /// Files in its manifest.
        files: usize,
        /// The sum of their sizes.
        bytes: u64,
    },
    /// A read of a file the loaded skill's entry does not list.
    Unlisted {
        /// The file's URI.
        uri: String,
    },
    /// The `resources/read` answer did not hold exactly one content for the
    /// file, or held one that cannot be decoded.
    Content {
        /// The file's URI.
        uri: String,
        /// What is wrong.
        reason: String,
    },
    /// The file's length differs from the entry's `size`.
    SizeMismatch {
        /// The file's URI.
        uri: String,
        /// The entry's size.
        expected: u64,
        /// The length read.
        actual: u64,
    },
    /// The file's SHA-256 differs from the entry's `digest`.
    DigestMismatch {
        /// The file's URI.
        uri: String,
        /// The entry's digest.
        expected: String,
        /// The digest of what was read.
        actual: String,
    },
    /// `SKILL.md` has no frontmatter this client can read exactly.
    Frontmatter {
        /// The skill's URI.
        skill: String,
        /// Where and why parsing stopped.
        reason: String,
    },
    /// A frontmatter field of `SKILL.md` differs from the entry's.
    FrontmatterMismatch {
        /// The skill's URI.
        skill: String,
        /// The first field that differs.
        field: String,
        /// The entry's value (`None`: absent from the entry).
        expected: Option<Value>,
        /// The file's value (`None`: absent from the file).
        actual: Option<Value>,
    },
}

impl SkillError {
    /// Whether the content read did not match the entry (the extension's
    /// "verification failure"). The content may be corrupt, tampered with or
    /// stale; a host recovers from staleness by fetching the entry again
    /// ([`Client::get_skill`]) and, since its files changed, asking for
    /// approval again.
    pub fn is_verification_failure(&self) -> bool {
        matches!(
            self,
            SkillError::Unlisted { .. }
                | SkillError::Content { .. }
                | SkillError::SizeMismatch { .. }
                | SkillError::DigestMismatch { .. }
                | SkillError::Frontmatter { .. }
                | SkillError::FrontmatterMismatch { .. }
        )
    }
}

impl fmt::Display for SkillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |value: &Option<Value>| match value {
            Some(value) => value.to_string(),
            None => "(absent)".to_owned(),
        };
        match self {
            SkillError::NotSupported => f.write_str(
                "the server did not declare the skills extension and the resources capability",
            ),
            SkillError::Client(error) => error.fmt(f),
            SkillError::InvalidEntry { skill, reason } => {
                write!(f, "the entry of {skill} is invalid: {reason}")
            }
            SkillError::Dynamic { skill } => write!(
                f,
                "{skill} has dynamic resources, which cannot be verified, so it is not loaded"
            ),
            SkillError::TooLarge {
                skill,
                files,
                bytes,
            } => write!(
                f,
                "{skill} has {files} files and {bytes} bytes, over the limits of \
                 {MAX_SKILL_FILES} files and {MAX_SKILL_BYTES} bytes"
            ),
            SkillError::Unlisted { uri } => {
                write!(f, "{uri} is not listed in the loaded skill's entry")
            }
            SkillError::Content { uri, reason } => write!(f, "reading {uri}: {reason}"),
            SkillError::SizeMismatch {
                uri,
                expected,
                actual,
            } => write!(
                f,
                "{uri} is {actual} bytes long, but its entry says {expected}"
            ),
            SkillError::DigestMismatch {
                uri,
                expected,
                actual,
            } => write!(f, "{uri} hashes to {actual}, but its entry says {expected}"),
            SkillError::Frontmatter { skill, reason } => {
                write!(f, "the frontmatter of {skill} cannot be read: {reason}")
            }
            SkillError::FrontmatterMismatch {
                skill,
                field,
                expected,
                actual,
            } => write!(
                f,
                "the frontmatter field `{field}` of {skill} is {}, but its entry says {}",
                show(actual),
                show(expected)
            ),
        }
    }
}

impl std::error::Error for SkillError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SkillError::Client(error) => Some(error),
            _ => None,
        }
    }
}

impl From<ClientError> for SkillError {
    fn from(error: ClientError) -> Self {
        SkillError::Client(error)
    }
}

/// A skill whose `SKILL.md` was read and verified against its entry. It is
/// the held entry of the extension's "acting window": files of the skill
/// are read through it, and only if it lists them.
#[derive(Debug, Clone)]
pub struct LoadedSkill {
    entry: Skill,
    text: String,
    body_start: usize,
}

impl LoadedSkill {
    /// Verifies `bytes`, read from `entry.uri`, against the entry: size,
    /// digest, then the frontmatter field by field.
    fn verify(entry: &Skill, bytes: Vec<u8>) -> Result<LoadedSkill, SkillError> {
        let files = check_entry(entry)?;
        let listed = files
            .iter()
            .find(|file| file.uri == entry.uri)
            .ok_or_else(|| SkillError::Unlisted {
                uri: entry.uri.clone(),
            })?;
        verify_bytes(listed, &bytes)?;
        let text = String::from_utf8(bytes).map_err(|_| SkillError::Content {
            uri: entry.uri.clone(),
            reason: "SKILL.md is not UTF-8".into(),
        })?;
        let document = frontmatter::parse(&text).map_err(|e| SkillError::Frontmatter {
            skill: entry.uri.clone(),
            reason: e.to_string(),
        })?;
        compare_frontmatter(entry, &document.fields)?;
        Ok(LoadedSkill {
            entry: entry.clone(),
            text,
            body_start: document.body_start,
        })
    }

    /// The entry the skill was loaded from.
    pub fn entry(&self) -> &Skill {
        &self.entry
    }

    /// The whole `SKILL.md`, frontmatter included.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The Markdown instructions after the frontmatter.
    pub fn body(&self) -> &str {
        &self.text[self.body_start..]
    }

    /// The skill's files other than `SKILL.md`, as its entry lists them.
    pub fn supporting_files(&self) -> impl Iterator<Item = &SkillResource> {
        let files: &[SkillResource] = match &self.entry.resources {
            SkillResources::Files(files) => files,
            // A loaded skill always has a manifest (dynamic ones are declined).
            SkillResources::Dynamic => &[],
        };
        files.iter().filter(|file| file.uri != self.entry.uri)
    }
}

/// A verified file of a loaded skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    /// The file's URI.
    pub uri: String,
    /// The MIME type the server gave, if any.
    pub mime_type: Option<String>,
    /// The file's raw bytes, which match the entry's size and digest.
    pub bytes: Vec<u8>,
}

impl Client {
    /// Whether the server declared the skills extension (and the
    /// `resources` capability its files are read through).
    pub fn supports_skills(&self) -> bool {
        let capabilities = &self.server().capabilities;
        capabilities.resources.is_some()
            && capabilities
                .extensions
                .as_ref()
                .is_some_and(|extensions| extensions.contains_key(SKILLS_EXTENSION))
    }

    /// Every skill the server lists, following pagination (at most 1,000
    /// pages). Reads no file. Entries that are malformed (no `resources`,
    /// no string `name`...) cannot be loaded and are left out, with a
    /// warning. A listing may be partial: a skill it lacks may still be
    /// fetched with [`get_skill`](Self::get_skill).
    pub async fn list_skills(&self) -> Result<Vec<Skill>, SkillError> {
        self.check_skills_support()?;
        let mut skills = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..1000 {
            let mut params = Map::new();
            if let Some(cursor) = cursor.take() {
                params.insert("cursor".into(), Value::String(cursor));
            }
            let page: Value = self.send(Method::SkillsList, &params).await?;
            let entries = page["skills"].as_array().ok_or_else(|| {
                ClientError::InvalidResponse(format!("{}: no `skills` array", Method::SkillsList))
            })?;
            for entry in entries {
                match <Skill as serde::Deserialize>::deserialize(entry) {
                    Ok(skill) => skills.push(skill),
                    Err(error) => tracing::warn!(
                        uri = %entry["uri"], %error, "skill entry left out"
                    ),
                }
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_owned()),
                None => return Ok(skills),
            }
        }
        Err(ClientError::InvalidResponse(format!(
            "{} returned more than 1,000 pages",
            Method::SkillsList
        ))
        .into())
    }

    /// The current entry of the skill whose `SKILL.md` is at `uri`
    /// (`skills/get`): for a skill known only by URI, or to refresh one
    /// whose files failed verification. Reads no file.
    pub async fn get_skill(&self, uri: &str) -> Result<Skill, SkillError> {
        self.check_skills_support()?;
        let result: Value = self
            .send(Method::SkillsGet, &serde_json::json!({ "uri": uri }))
            .await?;
        serde_json::from_value(result.get("skill").cloned().unwrap_or_default()).map_err(|e| {
            SkillError::InvalidEntry {
                skill: uri.to_owned(),
                reason: e.to_string(),
            }
        })
    }

    /// Loads a skill: checks its entry, reads its `SKILL.md` (and nothing
    /// else), verifies size, digest and frontmatter, and returns it only if
    /// all match.
    pub async fn load_skill(&self, entry: &Skill) -> Result<LoadedSkill, SkillError> {
        self.check_skills_support()?;
        check_entry(entry)?;
        let (bytes, _) = self.read_raw(&entry.uri).await?;
        LoadedSkill::verify(entry, bytes)
    }

    /// Reads one file of a loaded skill, which its entry must list, and
    /// returns it only if its size and digest match the entry.
    pub async fn read_skill_file(
        &self,
        skill: &LoadedSkill,
        uri: &str,
    ) -> Result<SkillFile, SkillError> {
        let listed = check_entry(&skill.entry)?
            .iter()
            .find(|file| file.uri == uri)
            .ok_or_else(|| SkillError::Unlisted {
                uri: uri.to_owned(),
            })?;
        let (bytes, mime_type) = self.read_raw(uri).await?;
        verify_bytes(listed, &bytes)?;
        Ok(SkillFile {
            uri: uri.to_owned(),
            mime_type,
            bytes,
        })
    }

    fn check_skills_support(&self) -> Result<(), SkillError> {
        if self.supports_skills() {
            Ok(())
        } else {
            Err(SkillError::NotSupported)
        }
    }

    /// `resources/read` of one file: its raw bytes and MIME type.
    async fn read_raw(&self, uri: &str) -> Result<(Vec<u8>, Option<String>), SkillError> {
        let result: ReadResourceResult = self
            .send(Method::ReadResource, &serde_json::json!({ "uri": uri }))
            .await?;
        raw_contents(uri, result)
    }
}

/// The bytes of the single content for `uri` in a `resources/read` result
/// (text as UTF-8, a blob decoded from base64).
fn raw_contents(
    uri: &str,
    result: ReadResourceResult,
) -> Result<(Vec<u8>, Option<String>), SkillError> {
    let content_error = |reason: &str| SkillError::Content {
        uri: uri.to_owned(),
        reason: reason.to_owned(),
    };
    let mut matching = result.contents.into_iter().filter(|c| c.uri() == uri);
    let (Some(content), None) = (matching.next(), matching.next()) else {
        return Err(content_error(
            "the answer does not hold exactly one content for this URI",
        ));
    };
    match content {
        ResourceContents::Text(text) => Ok((text.text.into_bytes(), text.mime_type)),
        ResourceContents::Blob(blob) => base64::engine::general_purpose::STANDARD
            .decode(&blob.blob)
            .map(|bytes| (bytes, blob.mime_type))
            .map_err(|_| content_error("the blob is not valid base64")),
    }
}

/// Checks the rules of an entry that span its fields, and returns its
/// manifest.
fn check_entry(entry: &Skill) -> Result<&[SkillResource], SkillError> {
    let invalid = |reason: String| SkillError::InvalidEntry {
        skill: entry.uri.clone(),
        reason,
    };
    let files = match &entry.resources {
        SkillResources::Files(files) => files.as_slice(),
        SkillResources::Dynamic => {
            return Err(SkillError::Dynamic {
                skill: entry.uri.clone(),
            });
        }
    };
    let root = entry
        .uri
        .strip_suffix("/SKILL.md")
        .ok_or_else(|| invalid("the URI does not end in /SKILL.md".into()))?;
    if root.rsplit('/').next() != Some(entry.name()) {
        return Err(invalid(format!(
            "the URI's last path segment is not the skill's name `{}`",
            entry.name()
        )));
    }
    let bytes: u64 = files
        .iter()
        .map(|file| file.size)
        .fold(0, u64::saturating_add);
    if files.len() > MAX_SKILL_FILES || bytes > MAX_SKILL_BYTES {
        return Err(SkillError::TooLarge {
            skill: entry.uri.clone(),
            files: files.len(),
            bytes,
        });
    }
    let mut seen = std::collections::HashSet::new();
    for file in files {
        if !seen.insert(file.uri.as_str()) {
            return Err(invalid(format!("{} is listed twice", file.uri)));
        }
        let inside = file
            .uri
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'));
        if !inside {
            return Err(invalid(format!("{} is outside the skill", file.uri)));
        }
        if parse_digest(&file.digest).is_none() {
            return Err(invalid(format!(
                "the digest of {} is not `sha256:` and 64 lowercase hex digits",
                file.uri
            )));
        }
    }
    if !seen.contains(entry.uri.as_str()) {
        return Err(invalid("the resources do not list SKILL.md".into()));
    }
    Ok(files)
}

/// The hex of a well-formed `sha256:<64 lowercase hex>` digest.
fn parse_digest(digest: &str) -> Option<&str> {
    digest.strip_prefix("sha256:").filter(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Checks `bytes` against the size, then the digest, of its entry.
fn verify_bytes(file: &SkillResource, bytes: &[u8]) -> Result<(), SkillError> {
    let actual = bytes.len() as u64;
    if actual != file.size {
        return Err(SkillError::SizeMismatch {
            uri: file.uri.clone(),
            expected: file.size,
            actual,
        });
    }
    // `check_entry` has made sure the entry's digest is well formed, hence
    // lowercase: equal digests are equal strings.
    let actual = sha256_digest(bytes);
    if actual != file.digest {
        return Err(SkillError::DigestMismatch {
            uri: file.uri.clone(),
            expected: file.digest.clone(),
            actual,
        });
    }
    Ok(())
}

/// Compares the file's frontmatter with the entry's, field by field.
fn compare_frontmatter(entry: &Skill, file: &Map<String, Value>) -> Result<(), SkillError> {
    let fields = entry.frontmatter.keys().chain(file.keys());
    for field in fields {
        let (expected, actual) = (entry.frontmatter.get(field), file.get(field));
        let same = match (expected, actual) {
            (Some(expected), Some(actual)) => same_value(expected, actual),
            _ => false,
        };
        if !same {
            return Err(SkillError::FrontmatterMismatch {
                skill: entry.uri.clone(),
                field: field.clone(),
                expected: expected.cloned(),
                actual: actual.cloned(),
            });
        }
    }
    Ok(())
}

/// JSON equality, except that numbers compare by value (`1` equals `1.0`:
/// the entry's renderer and this parser may type a number differently).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => a.as_f64() == b.as_f64(),
        },
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, a)| b.get(key).is_some_and(|b| same_value(a, b)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;
