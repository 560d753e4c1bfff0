//! The skills a server serves, built once with the registry: the entries
//! `skills/list` pages through and `skills/get` returns (serialized at build
//! time), the directory tree `resources/directory/read` walks, and the files
//! themselves as ordinary resources, so that `resources/list` and
//! `resources/read` serve them with no code of their own.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use serde_json::Value;

use super::audience::{Audience, Restricted};
use super::handler::erase;
use super::listing::{Listing, Page, write_shape};
use super::resource::{ResourceDef, ResourceRead};
use super::skill::{SkillDef, compile};
use crate::jsonrpc::ErrorObject;
use crate::protocol::{
    CacheScope, DIRECTORY_MIME_TYPE, JsonObject, ReadResourceResult, Resource, ResultType, Skill,
};
use crate::server::engine::shape::shaped;

// Skills, and their files, are shown to everyone.
impl Restricted for Skill {
    fn audience(&self) -> Option<&Audience> {
        None
    }
}

impl Restricted for Resource {
    fn audience(&self) -> Option<&Audience> {
        None
    }
}

/// Every skill of a server, ready to answer the extension's methods.
pub(crate) struct Skills {
    /// The entries, by the URI of their `SKILL.md`.
    entries: Listing<Skill>,
    /// The direct children of each directory, by the directory's URI (no
    /// trailing slash): each skill's root and its subdirectories.
    directories: HashMap<String, Listing<Resource>>,
}

impl Skills {
    /// Checks and compiles `defs`. The skills' files come back as resources
    /// for the registry to list and read along with the others.
    pub(crate) fn build(defs: Vec<SkillDef>) -> Result<(Skills, Vec<ResourceDef>), String> {
        let paths: Vec<String> = defs.iter().map(|def| def.path().to_owned()).collect();
        let compiled = defs
            .into_iter()
            .map(compile)
            .collect::<Result<Vec<_>, _>>()?;
        check_not_nested(&paths)?;
        let mut entries = Vec::with_capacity(compiled.len());
        let mut directories: HashMap<String, Vec<Resource>> = HashMap::new();
        let mut resources = Vec::new();
        for compiled in compiled {
            let root = compiled
                .entry
                .uri
                .strip_suffix("/SKILL.md")
                .unwrap_or_default()
                .to_owned();
            directories.entry(root.clone()).or_default();
            for file in compiled.files {
                let mut parent = root.clone();
                for name in &file.segments[..file.segments.len() - 1] {
                    let uri = format!("{parent}/{name}");
                    if !directories.contains_key(&uri) {
                        directories.insert(uri.clone(), Vec::new());
                        children(&mut directories, &parent).push(directory(&uri, name));
                    }
                    parent = uri;
                }
                children(&mut directories, &parent).push(file.resource.clone());
                resources.push(serve(file.resource, file.contents));
            }
            entries.push(compiled.entry);
        }
        let entries = Listing::build(entries, |s| s.uri.as_str(), |s| s, "skill")?;
        let directories = directories
            .into_iter()
            .map(|(uri, children)| {
                let listing =
                    Listing::build(children, |r| r.uri.as_str(), |r| r, "directory entry")?;
                Ok((uri, listing))
            })
            .collect::<Result<_, String>>()?;
        Ok((
            Skills {
                entries,
                directories,
            },
            resources,
        ))
    }

    /// The extension's settings in the server's capabilities.
    pub(crate) fn capability() -> JsonObject {
        let mut settings = JsonObject::new();
        settings.insert("directoryRead".into(), Value::Bool(true));
        settings
    }

    /// A page of `skills/list`.
    pub(crate) fn list(
        &self,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<Page<'_>, ErrorObject> {
        self.entries.page("skills", cursor, page_size, None)
    }

    /// The `skills/get` result for the skill at `uri`.
    pub(crate) fn get(&self, uri: &str) -> Result<GetSkillResult<'_>, ErrorObject> {
        let skill = self
            .entries
            .get_listed(uri)
            .ok_or_else(|| ErrorObject::invalid_params(format!("No skill is served at {uri}")))?;
        Ok(GetSkillResult {
            skill,
            result_type: None,
            ttl_ms: None,
            cache_scope: None,
        })
    }

    /// A page of `resources/directory/read` for the directory at `uri`.
    pub(crate) fn read_directory(
        &self,
        uri: &str,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<Page<'_>, ErrorObject> {
        let children = self.directories.get(uri).ok_or_else(|| {
            ErrorObject::invalid_params(format!("{uri} is not a directory resource"))
        })?;
        children.page("resources", cursor, page_size, None)
    }
}

/// The result of `skills/get`, around the entry serialized at build time.
/// The entry is registry data that does not change while the server runs,
/// so it carries the cache hints of list results.
pub(crate) struct GetSkillResult<'a> {
    /// The skill's JSON text, as listed.
    skill: &'a str,
    result_type: Option<ResultType>,
    ttl_ms: Option<u64>,
    cache_scope: Option<CacheScope>,
}

shaped! {
    written: GetSkillResult<'_>;
}

impl GetSkillResult<'_> {
    /// The result object, written by hand: the skill is JSON text already.
    fn write_result(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(br#"{"skill":"#);
        out.extend_from_slice(self.skill.as_bytes());
        write_shape(out, self.result_type, self.ttl_ms, self.cache_scope);
        out.push(b'}');
    }
}

/// Nested skills would need the enclosing skill's manifest to list the
/// nested one's files too; rather than guess, they are refused.
fn check_not_nested(paths: &[String]) -> Result<(), String> {
    let paths: BTreeSet<&str> = paths.iter().map(String::as_str).collect();
    for path in &paths {
        let mut prefix = *path;
        while let Some((parent, _)) = prefix.rsplit_once('/') {
            if paths.contains(parent) {
                return Err(format!(
                    "skill `{path}` is nested in skill `{parent}`, which is not supported: \
                     serve its files as supporting files of `{parent}`, or move it"
                ));
            }
            prefix = parent;
        }
    }
    Ok(())
}

fn children<'a>(
    directories: &'a mut HashMap<String, Vec<Resource>>,
    uri: &str,
) -> &'a mut Vec<Resource> {
    directories
        .get_mut(uri)
        .expect("a parent directory is registered before its children")
}

/// A subdirectory, as its parent lists it.
fn directory(uri: &str, name: &str) -> Resource {
    Resource {
        uri: uri.to_owned(),
        name: name.to_owned(),
        title: None,
        description: None,
        mime_type: Some(DIRECTORY_MIME_TYPE.to_owned()),
        size: None,
        annotations: None,
        icons: None,
        meta: None,
    }
}

/// A skill file as a resource whose reads return its contents.
fn serve(resource: Resource, contents: crate::protocol::ResourceContents) -> ResourceDef {
    let contents = Arc::new(contents);
    ResourceDef {
        resource,
        handler: erase(move |_: ResourceRead| {
            let contents = contents.clone();
            async move {
                Ok(ReadResourceResult {
                    contents: vec![(*contents).clone()],
                    ..ReadResourceResult::default()
                })
            }
        }),
        audience: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::RequestId;
    use crate::protocol::Method;
    use crate::server::engine::shape;
    use crate::server::{Era, ServerOptions};
    use serde_json::json;

    fn skill_md(name: &str) -> String {
        format!("---\nname: {name}\ndescription: The {name} skill\n---\n\nBody.\n")
    }

    fn skills(defs: Vec<SkillDef>) -> Skills {
        Skills::build(defs).unwrap().0
    }

    /// Answers as the router does: the method's result, shaped for `era`.
    fn answer(skills: &Skills, era: Era, method: &str, params: Value) -> Result<Value, i64> {
        let options = ServerOptions {
            page_size: 2,
            ..ServerOptions::default()
        };
        let id = RequestId::Int(1);
        let method = Method::parse(method).expect("a skills method");
        let cursor = params.get("cursor").and_then(Value::as_str);
        let uri = params.get("uri").and_then(Value::as_str).ok_or(-32602);
        let encode = |result| shape::encode(era, method, &id, result, &options);
        let frame = match method {
            Method::SkillsList => skills.list(cursor, 2).map(encode),
            Method::SkillsGet => skills
                .get(uri?)
                .map(|got| shape::encode(era, method, &id, got, &options)),
            _ => skills.read_directory(uri?, cursor, 2).map(encode),
        };
        let frame: Value = serde_json::from_slice(&frame.map_err(|e| e.code)?).unwrap();
        Ok(frame["result"].clone())
    }

    fn pdf() -> SkillDef {
        SkillDef::new("pdf-processing")
            .file("SKILL.md", skill_md("pdf-processing"))
            .file("templates/invoice.md", "Invoice\n")
            .file("templates/regional/eu.md", "EU\n")
            .file("scripts/extract.py", "print()\n")
    }

    #[test]
    fn directories_list_their_direct_children() {
        let skills = skills(vec![pdf()]);
        let read = |uri: &str, cursor: Option<&str>| {
            let mut params = json!({"uri": uri});
            if let Some(cursor) = cursor {
                params["cursor"] = json!(cursor);
            }
            answer(&skills, Era::Modern, "resources/directory/read", params)
        };
        let first = read("skill://pdf-processing", None).unwrap();
        assert_eq!(first["resultType"], "complete");
        assert!(first.get("ttlMs").is_none());
        let second = read("skill://pdf-processing", first["nextCursor"].as_str()).unwrap();
        assert!(second.get("nextCursor").is_none());
        let root: Vec<_> = [&first, &second]
            .iter()
            .flat_map(|page| page["resources"].as_array().unwrap().clone())
            .map(|r| (r["name"].clone(), r["mimeType"].clone()))
            .collect();
        assert_eq!(
            root,
            [
                (json!("pdf-processing"), json!("text/markdown")),
                (json!("scripts"), json!("inode/directory")),
                (json!("templates"), json!("inode/directory")),
            ]
        );
        let templates = read("skill://pdf-processing/templates", None).unwrap();
        assert_eq!(
            templates["resources"],
            json!([
                {"uri": "skill://pdf-processing/templates/invoice.md", "name": "invoice.md", "mimeType": "text/markdown", "size": 8},
                {"uri": "skill://pdf-processing/templates/regional", "name": "regional", "mimeType": "inode/directory"}
            ])
        );
        for not_a_directory in [
            "skill://pdf-processing/SKILL.md",
            "skill://pdf-processing/templates/",
            "skill://pdf-processing/nothing",
            "skill://",
        ] {
            assert_eq!(
                read(not_a_directory, None),
                Err(-32602),
                "{not_a_directory}"
            );
        }
    }

    #[test]
    fn skills_are_listed_and_fetched_by_uri() {
        let defs = ["a", "b", "c"].map(|name| SkillDef::new(name).file("SKILL.md", skill_md(name)));
        let skills = skills(defs.to_vec());
        let first = answer(&skills, Era::Legacy, "skills/list", json!({})).unwrap();
        assert_eq!(first["skills"].as_array().unwrap().len(), 2);
        assert!(first.get("resultType").is_none());
        let cursor = first["nextCursor"].clone();
        let second = answer(
            &skills,
            Era::Modern,
            "skills/list",
            json!({"cursor": cursor}),
        )
        .unwrap();
        assert_eq!(second["skills"][0]["uri"], "skill://c/SKILL.md");
        assert_eq!(second["cacheScope"], "public");

        let got = answer(
            &skills,
            Era::Modern,
            "skills/get",
            json!({"uri": "skill://b/SKILL.md"}),
        )
        .unwrap();
        assert_eq!(got["skill"], first["skills"][1]);
        assert_eq!(got["resultType"], "complete");
        assert_eq!(got["ttlMs"], 300_000);
        assert!(got.get("nextCursor").is_none());
        let legacy = answer(
            &skills,
            Era::Legacy,
            "skills/get",
            json!({"uri": "skill://b/SKILL.md"}),
        )
        .unwrap();
        assert_eq!(legacy, json!({"skill": first["skills"][1]}));

        for params in [
            json!({"uri": "skill://d/SKILL.md"}),
            json!({"uri": "skill://b"}),
            json!({}),
        ] {
            assert_eq!(
                answer(&skills, Era::Modern, "skills/get", params.clone()),
                Err(-32602),
                "{params}"
            );
        }
    }

    #[test]
    fn nested_and_duplicate_skills_are_refused() {
        let nested = vec![
            SkillDef::new("acme/a").file("SKILL.md", skill_md("a")),
            SkillDef::new("acme/a/b").file("SKILL.md", skill_md("b")),
        ];
        let error = Skills::build(nested).err().unwrap();
        assert!(
            error.contains("`acme/a/b` is nested in skill `acme/a`"),
            "{error}"
        );
        let twice = vec![
            SkillDef::new("a").file("SKILL.md", skill_md("a")),
            SkillDef::new("a").file("SKILL.md", skill_md("a")),
        ];
        let error = Skills::build(twice).err().unwrap();
        assert!(error.contains("two skills"), "{error}");
    }

    #[test]
    fn every_file_is_a_resource() {
        let (_, resources) = Skills::build(vec![pdf()]).unwrap();
        let uris: Vec<_> = resources.iter().map(|r| r.resource.uri.as_str()).collect();
        assert_eq!(
            uris,
            [
                "skill://pdf-processing/SKILL.md",
                "skill://pdf-processing/scripts/extract.py",
                "skill://pdf-processing/templates/invoice.md",
                "skill://pdf-processing/templates/regional/eu.md",
            ]
        );
    }
}
