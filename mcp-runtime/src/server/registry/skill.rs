//! Skills a server publishes (the `io.modelcontextprotocol/skills`
//! extension, SEP-2640): a [`SkillDef`] is an Agent Skills directory held in
//! memory, and [`compile`] checks it against the extension's rules and turns
//! it into its entry and its files.
//!
//! A skill at path `acme/billing/refunds` is served as resources under
//! `skill://acme/billing/refunds/`; its entry is addressed by the URI of its
//! `SKILL.md`, whose frontmatter it carries verbatim, and lists every file
//! with its SHA-256 digest and size.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use base64::Engine as _;
use serde_json::Value;

use crate::frontmatter;
use crate::protocol::{
    BlobResourceContents, JsonObject, MAX_SKILL_BYTES, MAX_SKILL_FILES, RESERVED_METADATA_PREFIX,
    Resource, ResourceContents, Skill, SkillResource, SkillResources, TextResourceContents,
    sha256_digest,
};

/// The file every skill has at its root.
const SKILL_MD: &str = "SKILL.md";

/// A skill to serve: its path and its files, held in memory.
///
/// The path is one or more `/`-separated segments; the last one is the
/// skill's name, which must equal the `name` in its `SKILL.md` frontmatter
/// and follow the Agent Skills naming rules (1 to 64 lowercase letters,
/// digits and hyphens, no hyphen at either end or twice in a row). Earlier
/// segments are an organizational prefix of the server's choosing.
/// [`ServerBuilder::build`](crate::server::ServerBuilder::build) checks the skill
/// and fails with a [`BuildError`](crate::server::BuildError) naming what is wrong.
///
/// ```
/// use mcp_toolkit_runtime::server::{Server, SkillDef};
///
/// let skill = SkillDef::new("pdf-processing")
///     .file(
///         "SKILL.md",
///         "---\nname: pdf-processing\ndescription: Extract text from PDF files\n---\n\nSee references/FORMS.md.\n",
///     )
///     .file("references/FORMS.md", "# Forms\n");
/// let server = Server::builder(mcp_toolkit_runtime::server_info!()).skill(skill).build();
/// assert!(server.is_ok());
/// ```
#[derive(Debug, Clone)]
pub struct SkillDef {
    path: String,
    files: Vec<(String, Vec<u8>)>,
}

impl SkillDef {
    /// A skill at `path` (such as `pdf-processing` or `acme/billing/refunds`),
    /// with no files yet.
    pub fn new(path: impl Into<String>) -> Self {
        SkillDef {
            path: path.into(),
            files: Vec::new(),
        }
    }

    /// Adds a file at `path`, relative to the skill's root and `/`-separated
    /// (`SKILL.md`, `references/FORMS.md`). UTF-8 content is served as text,
    /// anything else as a base64 blob; both are digested as raw bytes.
    pub fn file(mut self, path: impl Into<String>, content: impl Into<Vec<u8>>) -> Self {
        self.files.push((path.into(), content.into()));
        self
    }

    /// Reads a skill directory from disk: its name is the skill's path, and
    /// every file below it (recursively) is one of its files. Entries whose
    /// name starts with `.` are skipped (`.git`, editor files); symbolic
    /// links to files are followed, links to directories are an error.
    /// Reading stops with an error past the extension's limits (512 files,
    /// 16 MiB), so that a wrong directory is not read into memory whole.
    pub fn from_dir(dir: impl AsRef<Path>) -> io::Result<Self> {
        let dir = dir.as_ref();
        let name = dir
            .canonicalize()?
            .file_name()
            .and_then(|name| name.to_str())
            .map(str::to_owned)
            .ok_or_else(|| invalid_data(format!("{} has no UTF-8 name", dir.display())))?;
        let mut skill = SkillDef::new(name);
        let mut bytes = 0;
        read_dir_into(dir, "", &mut skill.files, &mut bytes)?;
        Ok(skill)
    }

    /// The skill's path.
    pub fn path(&self) -> &str {
        &self.path
    }
}

fn invalid_data(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Adds the files below `dir` to `files`, their paths prefixed by `prefix`.
fn read_dir_into(
    dir: &Path,
    prefix: &str,
    files: &mut Vec<(String, Vec<u8>)>,
    bytes: &mut u64,
) -> io::Result<()> {
    let mut entries = std::fs::read_dir(dir)?.collect::<io::Result<Vec<_>>>()?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            return Err(invalid_data(format!(
                "{} has no UTF-8 name",
                path.display()
            )));
        };
        if name.starts_with('.') {
            continue;
        }
        let relative = format!("{prefix}{name}");
        let kind = entry.file_type()?;
        if kind.is_dir() {
            read_dir_into(&path, &format!("{relative}/"), files, bytes)?;
            continue;
        }
        if !std::fs::metadata(&path)?.is_file() {
            return Err(invalid_data(format!(
                "{} is neither a file nor a directory (links to directories are not followed)",
                path.display()
            )));
        }
        let content = std::fs::read(&path)?;
        *bytes += content.len() as u64;
        files.push((relative, content));
        if files.len() > MAX_SKILL_FILES || *bytes > MAX_SKILL_BYTES {
            return Err(invalid_data(format!(
                "{} holds more than the {MAX_SKILL_FILES} files or {MAX_SKILL_BYTES} bytes a skill may have",
                dir.display()
            )));
        }
    }
    Ok(())
}

/// A skill that passed every check, ready to serve.
pub(crate) struct Compiled {
    /// Its entry, as `skills/list` and `skills/get` return it.
    pub entry: Skill,
    /// Its files, in path order.
    pub files: Vec<ServedFile>,
}

/// One file of a compiled skill.
pub(crate) struct ServedFile {
    /// The `/`-separated segments of its path in the skill.
    pub segments: Vec<String>,
    /// Its metadata in `resources/list` and directory reads.
    pub resource: Resource,
    /// What `resources/read` returns.
    pub contents: ResourceContents,
}

/// Checks `def` against the extension's rules and builds its entry: the
/// frontmatter of its `SKILL.md`, and each file's URI, digest and size.
pub(crate) fn compile(def: SkillDef) -> Result<Compiled, String> {
    let SkillDef { path, files } = def;
    let fail = |reason: String| format!("skill `{path}`: {reason}");
    check_skill_path(&path).map_err(fail)?;
    let total = files
        .iter()
        .map(|(_, bytes)| bytes.len() as u64)
        .fold(0, u64::saturating_add);
    if files.len() > MAX_SKILL_FILES || total > MAX_SKILL_BYTES {
        return Err(fail(format!(
            "{} files and {total} bytes, over the extension's limits of \
             {MAX_SKILL_FILES} files and {MAX_SKILL_BYTES} bytes",
            files.len()
        )));
    }
    let mut by_path = BTreeMap::new();
    for (file, bytes) in files {
        check_file_path(&file).map_err(fail)?;
        if by_path.contains_key(&file) {
            return Err(fail(format!("the file `{file}` is added twice")));
        }
        by_path.insert(file, bytes);
    }
    // A path cannot be both a file and the directory of another file.
    for file in by_path.keys() {
        let mut dir = file.as_str();
        while let Some((parent, _)) = dir.rsplit_once('/') {
            if by_path.contains_key(parent) {
                return Err(fail(format!(
                    "`{parent}` is a file and also the directory of `{file}`"
                )));
            }
            dir = parent;
        }
    }
    let skill_md = by_path
        .get(SKILL_MD)
        .ok_or_else(|| fail("no SKILL.md at the skill's root".into()))?;
    let frontmatter = read_frontmatter(&path, skill_md).map_err(fail)?;
    let root = format!("skill://{path}");
    let mut manifest = Vec::with_capacity(by_path.len());
    let mut served = Vec::with_capacity(by_path.len());
    for (file, bytes) in by_path {
        let uri = format!("{root}/{file}");
        manifest.push(SkillResource {
            uri: uri.clone(),
            digest: sha256_digest(&bytes),
            size: bytes.len() as u64,
        });
        served.push(serve_file(&file, uri, bytes, &frontmatter));
    }
    Ok(Compiled {
        entry: Skill {
            uri: format!("{root}/{SKILL_MD}"),
            frontmatter,
            resources: SkillResources::Files(manifest),
        },
        files: served,
    })
}

/// The frontmatter of `SKILL.md`, with the fields the extension requires.
fn read_frontmatter(path: &str, skill_md: &[u8]) -> Result<JsonObject, String> {
    let text = std::str::from_utf8(skill_md).map_err(|_| "SKILL.md is not UTF-8".to_owned())?;
    let fields = frontmatter::parse(text)
        .map_err(|e| format!("the frontmatter of SKILL.md cannot be read: {e}"))?
        .fields;
    for field in ["name", "description"] {
        if fields
            .get(field)
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            return Err(format!(
                "the frontmatter of SKILL.md has no `{field}` (a non-empty string)"
            ));
        }
    }
    let name = fields["name"].as_str().unwrap_or_default();
    let last = path.rsplit('/').next().unwrap_or_default();
    if name != last {
        return Err(format!(
            "the frontmatter name `{name}` differs from `{last}`, the last segment of the skill's path"
        ));
    }
    if let Some(Value::Object(metadata)) = fields.get("metadata")
        && let Some(key) = metadata
            .keys()
            .find(|key| key.starts_with(RESERVED_METADATA_PREFIX))
    {
        return Err(format!(
            "the metadata key `{key}` uses the prefix `{RESERVED_METADATA_PREFIX}`, \
                 reserved for MCP extensions"
        ));
    }
    Ok(fields)
}

/// A file's resource metadata and contents. `SKILL.md` is listed under the
/// skill's name and description, as the extension recommends.
fn serve_file(file: &str, uri: String, bytes: Vec<u8>, frontmatter: &JsonObject) -> ServedFile {
    let segments: Vec<String> = file.split('/').map(str::to_owned).collect();
    let top_level_skill_md = file == SKILL_MD;
    let (name, description) = if top_level_skill_md {
        let field = |key: &str| frontmatter[key].as_str().unwrap_or_default().to_owned();
        (field("name"), Some(field("description")))
    } else {
        (segments[segments.len() - 1].clone(), None)
    };
    let size = bytes.len() as u64;
    let (mime_type, contents) = match String::from_utf8(bytes) {
        Ok(text) => {
            let mime_type = mime_type(file, true);
            let contents = ResourceContents::Text(TextResourceContents {
                uri: uri.clone(),
                mime_type: Some(mime_type.to_owned()),
                text,
                meta: None,
            });
            (mime_type, contents)
        }
        Err(error) => {
            let mime_type = mime_type(file, false);
            let contents = ResourceContents::Blob(BlobResourceContents {
                uri: uri.clone(),
                mime_type: Some(mime_type.to_owned()),
                blob: base64::engine::general_purpose::STANDARD.encode(error.into_bytes()),
                meta: None,
            });
            (mime_type, contents)
        }
    };
    ServedFile {
        segments,
        resource: Resource {
            uri,
            name,
            title: None,
            description,
            mime_type: Some(mime_type.to_owned()),
            size: Some(size),
            annotations: None,
            icons: None,
            meta: None,
        },
        contents,
    }
}

/// The MIME type of a file, from its extension; otherwise `text/plain` for
/// UTF-8 content and `application/octet-stream` for the rest.
fn mime_type(file: &str, utf8: bool) -> &'static str {
    let extension = file
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" => "text/plain",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "js" | "mjs" => "text/javascript",
        "py" => "text/x-python",
        "sh" => "text/x-shellscript",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        _ if utf8 => "text/plain",
        _ => "application/octet-stream",
    }
}

/// The Agent Skills naming rule: 1 to 64 of `a-z`, `0-9` and `-`, no `-`
/// at either end or twice in a row.
fn is_valid_skill_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// Characters a URI carries verbatim in a `reg-name` (RFC 3986 unreserved
/// and sub-delims); `:` and `@` are also allowed in file paths.
fn is_uri_safe(b: u8, in_file_path: bool) -> bool {
    b.is_ascii_alphanumeric()
        || b"-._~!$&'()*+,;=".contains(&b)
        || (in_file_path && (b == b':' || b == b'@'))
}

fn check_segments(path: &str, what: &str, in_file_path: bool) -> Result<(), String> {
    for segment in path.split('/') {
        if segment.is_empty() || segment == "." || segment == ".." {
            return Err(format!(
                "the {what} `{path}` has an empty, `.` or `..` segment"
            ));
        }
        if let Some(c) = segment.bytes().find(|&b| !is_uri_safe(b, in_file_path)) {
            return Err(format!(
                "the {what} `{path}` has a character a URI cannot carry verbatim ({:?}); \
                 use letters, digits and -._~!$&'()*+,;=",
                c as char
            ));
        }
    }
    Ok(())
}

/// A skill path: URI-safe segments, the last one a valid skill name.
fn check_skill_path(path: &str) -> Result<(), String> {
    check_segments(path, "skill path", false)?;
    let name = path.rsplit('/').next().unwrap_or_default();
    if !is_valid_skill_name(name) {
        return Err(format!(
            "`{name}` is not a valid skill name: use 1 to 64 lowercase letters, digits \
             and hyphens, with no hyphen at either end or twice in a row"
        ));
    }
    Ok(())
}

/// A file path: relative, `/`-separated, URI-safe segments.
fn check_file_path(path: &str) -> Result<(), String> {
    check_segments(path, "file path", true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SKILL_MD_TEXT: &str = "---\nname: pdf-processing\ndescription: Extract PDF text\nmetadata:\n  version: \"2\"\n---\n\n# PDF\n";

    fn pdf() -> SkillDef {
        SkillDef::new("pdf-processing")
            .file("SKILL.md", SKILL_MD_TEXT)
            .file("references/FORMS.md", "# Forms\n")
    }

    fn error(def: SkillDef) -> String {
        match compile(def) {
            Ok(_) => panic!("the skill compiled"),
            Err(error) => error,
        }
    }

    #[test]
    fn the_entry_carries_frontmatter_digests_and_sizes() {
        let compiled = compile(pdf().file("assets/logo.png", vec![0x89, b'P', 0xff])).unwrap();
        let entry = serde_json::to_value(&compiled.entry).unwrap();
        assert_eq!(
            entry,
            json!({
                "uri": "skill://pdf-processing/SKILL.md",
                "frontmatter": {
                    "name": "pdf-processing",
                    "description": "Extract PDF text",
                    "metadata": {"version": "2"}
                },
                "resources": [
                    {"uri": "skill://pdf-processing/SKILL.md", "digest": sha256_digest(SKILL_MD_TEXT.as_bytes()), "size": SKILL_MD_TEXT.len()},
                    {"uri": "skill://pdf-processing/assets/logo.png", "digest": sha256_digest(&[0x89, b'P', 0xff]), "size": 3},
                    {"uri": "skill://pdf-processing/references/FORMS.md", "digest": sha256_digest(b"# Forms\n"), "size": 8}
                ]
            })
        );
    }

    #[test]
    fn files_are_served_as_text_or_blob_with_metadata() {
        let compiled = compile(pdf().file("assets/logo.png", vec![0x89, b'P', 0xff])).unwrap();
        let listed: Vec<_> = compiled
            .files
            .iter()
            .map(|f| serde_json::to_value(&f.resource).unwrap())
            .collect();
        assert_eq!(
            listed,
            [
                json!({"uri": "skill://pdf-processing/SKILL.md", "name": "pdf-processing", "description": "Extract PDF text", "mimeType": "text/markdown", "size": SKILL_MD_TEXT.len()}),
                json!({"uri": "skill://pdf-processing/assets/logo.png", "name": "logo.png", "mimeType": "image/png", "size": 3}),
                json!({"uri": "skill://pdf-processing/references/FORMS.md", "name": "FORMS.md", "mimeType": "text/markdown", "size": 8}),
            ]
        );
        let contents: Vec<_> = compiled
            .files
            .iter()
            .map(|f| serde_json::to_value(&f.contents).unwrap())
            .collect();
        assert_eq!(contents[0]["text"], SKILL_MD_TEXT);
        assert_eq!(contents[1]["blob"], "iVD/");
        assert_eq!(compiled.files[2].segments, ["references", "FORMS.md"]);
    }

    #[test]
    fn a_prefixed_path_names_the_skill_by_its_last_segment() {
        let def = SkillDef::new("acme/billing/refunds").file(
            "SKILL.md",
            "---\nname: refunds\ndescription: Process refunds\n---\n",
        );
        let compiled = compile(def).unwrap();
        assert_eq!(compiled.entry.uri, "skill://acme/billing/refunds/SKILL.md");
    }

    #[test]
    fn invalid_skills_are_refused_with_the_reason() {
        let skill_md = |yaml: &str| format!("---\n{yaml}---\n");
        let cases: Vec<(SkillDef, &str)> = vec![
            (SkillDef::new("Pdf").file("SKILL.md", "x"), "not a valid skill name"),
            (SkillDef::new("a--b").file("SKILL.md", "x"), "not a valid skill name"),
            (SkillDef::new("acme//pdf").file("SKILL.md", "x"), "empty"),
            (SkillDef::new("ac me/pdf").file("SKILL.md", "x"), "verbatim"),
            (
                SkillDef::new("pdf-processing").file("references/FORMS.md", "x"),
                "no SKILL.md",
            ),
            (
                SkillDef::new("pdf-processing").file("SKILL.md", "# no frontmatter\n"),
                "cannot be read",
            ),
            (
                SkillDef::new("pdf-processing").file("SKILL.md", vec![0xff, 0xfe]),
                "not UTF-8",
            ),
            (
                SkillDef::new("pdf-processing")
                    .file("SKILL.md", skill_md("name: pdf-processing\n")),
                "no `description`",
            ),
            (
                SkillDef::new("pdf-processing")
                    .file("SKILL.md", skill_md("name: pdf\ndescription: d\n")),
                "differs from `pdf-processing`",
            ),
            (
                SkillDef::new("pdf-processing").file(
                    "SKILL.md",
                    skill_md(
                        "name: pdf-processing\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: y\n",
                    ),
                ),
                "reserved",
            ),
            (pdf().file("../escape.md", "x"), "`..`"),
            (pdf().file("/abs.md", "x"), "empty"),
            (pdf().file("with space.md", "x"), "verbatim"),
            (pdf().file("references/FORMS.md", "again"), "added twice"),
            (pdf().file("references", "x"), "also the directory of"),
        ];
        for (def, expected) in cases {
            let path = def.path().to_owned();
            let error = error(def);
            assert!(error.starts_with(&format!("skill `{path}`: ")), "{error}");
            assert!(error.contains(expected), "{expected}: {error}");
        }
    }

    #[test]
    fn skills_over_the_limits_are_refused() {
        let mut many = pdf();
        for i in 0..MAX_SKILL_FILES - 1 {
            many = many.file(format!("f/{i}.txt"), "");
        }
        assert!(error(many).contains("over the extension's limits"));
        let big = pdf().file("big.bin", vec![0; MAX_SKILL_BYTES as usize]);
        assert!(error(big).contains("over the extension's limits"));
        // Exactly at the limits is fine.
        let mut full = pdf();
        for i in 0..MAX_SKILL_FILES - 3 {
            full = full.file(format!("f/{i}.txt"), "");
        }
        let rest = MAX_SKILL_BYTES as usize - SKILL_MD_TEXT.len() - "# Forms\n".len();
        assert!(compile(full.file("big.bin", vec![0; rest])).is_ok());
    }

    #[test]
    fn skill_names_follow_the_agent_skills_rules() {
        for name in ["a", "pdf-processing", "x1-2", &"a".repeat(64)] {
            assert!(is_valid_skill_name(name), "{name}");
        }
        for name in ["", "-a", "a-", "a--b", "A", "a_b", "a.b", &"a".repeat(65)] {
            assert!(!is_valid_skill_name(name), "{name}");
        }
    }

    #[test]
    fn a_directory_is_read_with_its_subdirectories() {
        let root = std::env::temp_dir().join(format!("mcp-skill-{}", std::process::id()));
        let dir = root.join("pdf-processing");
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        std::fs::write(dir.join("SKILL.md"), SKILL_MD_TEXT).unwrap();
        std::fs::write(dir.join("references/FORMS.md"), "# Forms\n").unwrap();
        std::fs::write(dir.join(".git/HEAD"), "ref").unwrap();
        let def = SkillDef::from_dir(&dir);
        std::fs::remove_dir_all(&root).unwrap();
        let def = def.unwrap();
        assert_eq!(def.path(), "pdf-processing");
        let paths: Vec<_> = def.files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["SKILL.md", "references/FORMS.md"]);
        assert!(compile(def).is_ok());
    }
}
