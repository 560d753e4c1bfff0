//! Wire types of the Skills extension (`io.modelcontextprotocol/skills`,
//! SEP-2640): the `Skill` entry that `skills/list` and `skills/get` return.
//!
//! A skill is a directory of files served as resources, addressed by the URI
//! of its `SKILL.md`. Its entry carries the `SKILL.md` frontmatter verbatim
//! and a manifest of every file with its SHA-256 digest and byte size, which
//! a host verifies each file against when it reads it. The extension also
//! defines `resources/directory/read`, which lists a directory resource's
//! direct children.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::JsonObject;

/// The extension's identifier, under `capabilities.extensions`.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// Files per skill every host must accept (`SKILL.md` included).
pub const MAX_SKILL_FILES: usize = 512;

/// Total bytes per skill (the sum of every file's `size`) every host must accept.
pub const MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;

/// The prefix of `SKILL.md` frontmatter `metadata` keys reserved for MCP
/// extensions (none is defined yet).
pub const RESERVED_METADATA_PREFIX: &str = "io.modelcontextprotocol/";

/// The `mimeType` of a directory resource (`resources/directory/read`).
pub const DIRECTORY_MIME_TYPE: &str = "inode/directory";

/// The digest of `bytes` as a skill entry carries it: `sha256:` followed by
/// 64 lowercase hex digits.
#[cfg(any(feature = "skills", feature = "client"))]
pub(crate) fn sha256_digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(hmac_sha256::Hash::hash(bytes)))
}

/// One file of a skill, with the digest and size of its raw bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillResource {
    /// Resource URI of the file.
    pub uri: String,
    /// `sha256:` followed by 64 lowercase hex digits.
    pub digest: String,
    /// Length of the file's raw content in bytes.
    pub size: u64,
}

/// A skill's files: a complete manifest, or `"dynamic"` when the content is
/// generated and no stable digests exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillResources {
    /// Every file of the skill, each once, `SKILL.md` included.
    Files(Vec<SkillResource>),
    /// The wire string `"dynamic"`: nothing to verify content against.
    Dynamic,
}

const DYNAMIC: &str = "dynamic";

impl Serialize for SkillResources {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            SkillResources::Files(files) => files.serialize(serializer),
            SkillResources::Dynamic => serializer.serialize_str(DYNAMIC),
        }
    }
}

impl<'de> Deserialize<'de> for SkillResources {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            Files(Vec<SkillResource>),
            Word(String),
        }
        match Wire::deserialize(deserializer) {
            Ok(Wire::Files(files)) => Ok(SkillResources::Files(files)),
            Ok(Wire::Word(word)) if word == DYNAMIC => Ok(SkillResources::Dynamic),
            // Any other value makes the entry invalid (and unloadable).
            _ => Err(serde::de::Error::custom(
                "`resources` must be an array of {uri, digest, size} or \"dynamic\"",
            )),
        }
    }
}

/// The entry for one skill (schema `Skill`), as `skills/list` and
/// `skills/get` return it.
///
/// Deserializing checks the shape only: `frontmatter` must hold string
/// `name` and `description`. The rules that span fields (the manifest lists
/// `SKILL.md`, the URI ends in the skill's name, digests are well formed)
/// are checked when the skill is loaded, so that a listing can still show an
/// entry that will not load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "WireSkill")]
pub struct Skill {
    /// Resource URI of the skill's `SKILL.md`.
    pub uri: String,
    /// The `SKILL.md` YAML frontmatter rendered as JSON, every field the
    /// author wrote.
    pub frontmatter: JsonObject,
    /// The skill's files.
    pub resources: SkillResources,
}

impl Skill {
    /// The skill's name (`frontmatter.name`; empty when it has none).
    pub fn name(&self) -> &str {
        self.text_field("name")
    }

    /// What the skill does and when to use it (`frontmatter.description`;
    /// empty when it has none).
    pub fn description(&self) -> &str {
        self.text_field("description")
    }

    fn text_field(&self, key: &str) -> &str {
        self.frontmatter
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
    }
}

/// Parameters of `skills/get`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetSkillRequestParams {
    /// URI of the skill's `SKILL.md`.
    pub uri: String,
}

/// Parameters of `resources/directory/read`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadResourceDirectoryRequestParams {
    /// URI of the directory resource (no trailing slash).
    pub uri: String,
    /// Where to continue, from an earlier result's `nextCursor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

#[derive(Deserialize)]
struct WireSkill {
    uri: String,
    frontmatter: JsonObject,
    resources: SkillResources,
}

impl TryFrom<WireSkill> for Skill {
    type Error = String;

    fn try_from(wire: WireSkill) -> Result<Self, String> {
        for field in ["name", "description"] {
            if !wire.frontmatter.get(field).is_some_and(|v| v.is_string()) {
                return Err(format!("frontmatter.{field} must be a string"));
            }
        }
        Ok(Skill {
            uri: wire.uri,
            frontmatter: wire.frontmatter,
            resources: wire.resources,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    #[cfg(any(feature = "skills", feature = "client"))]
    fn digests_are_lowercase_hex_sha256() {
        // The SHA-256 test vector of "abc" (FIPS 180-2).
        assert_eq!(
            sha256_digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(sha256_digest(b"").len(), "sha256:".len() + 64);
    }

    #[test]
    fn an_entry_round_trips_with_files_or_dynamic() {
        for resources in [
            json!([{"uri": "skill://a/SKILL.md", "digest": "sha256:00", "size": 3}]),
            json!("dynamic"),
        ] {
            let wire = json!({
                "uri": "skill://a/SKILL.md",
                "frontmatter": {"name": "a", "description": "d", "license": "MIT"},
                "resources": resources,
            });
            let skill: Skill = serde_json::from_value(wire.clone()).unwrap();
            assert_eq!(skill.name(), "a");
            assert_eq!(skill.description(), "d");
            assert_eq!(serde_json::to_value(&skill).unwrap(), wire);
        }
    }

    #[test]
    fn malformed_entries_do_not_deserialize() {
        let base = json!({
            "uri": "skill://a/SKILL.md",
            "frontmatter": {"name": "a", "description": "d"},
            "resources": "dynamic",
        });
        let broken = [
            ("resources", json!("static")),
            ("resources", json!({"uri": "skill://a/SKILL.md"})),
            (
                "resources",
                json!([{"uri": "skill://a/SKILL.md", "digest": "sha256:00"}]),
            ),
            ("frontmatter", json!({"name": "a"})),
            ("frontmatter", json!({"name": 1, "description": "d"})),
        ];
        for (field, value) in broken {
            let mut wire = base.clone();
            wire[field] = value;
            assert!(serde_json::from_value::<Skill>(wire).is_err(), "{field}");
        }
        let mut missing = base.clone();
        missing.as_object_mut().unwrap().remove("resources");
        assert!(serde_json::from_value::<Skill>(missing).is_err());
    }
}
