//! Loading skills: size, digest and frontmatter verification.

use super::*;
use crate::protocol::TextResourceContents;
use serde_json::json;

const SKILL_MD: &str = "---\nname: pdf-processing\ndescription: Extract PDF text\nmetadata:\n  version: \"2\"\n---\n\n# PDF\n";
const FORMS: &str = "Supporting content.\n";

fn digest(text: &str) -> String {
    sha256_digest(text.as_bytes())
}

fn entry() -> Skill {
    serde_json::from_value(json!({
            "uri": "skill://pdf-processing/SKILL.md",
            "frontmatter": {
                "name": "pdf-processing",
                "description": "Extract PDF text",
                "metadata": {"version": "2"}
            },
            "resources": [
                {"uri": "skill://pdf-processing/SKILL.md", "digest": digest(SKILL_MD), "size": SKILL_MD.len()},
                {"uri": "skill://pdf-processing/references/FORMS.md", "digest": digest(FORMS), "size": FORMS.len()}
            ]
        }))
        .unwrap()
}

fn files(entry: &mut Skill) -> &mut Vec<SkillResource> {
    match &mut entry.resources {
        SkillResources::Files(files) => files,
        SkillResources::Dynamic => unreachable!("the test entry lists files"),
    }
}

#[test]
fn a_matching_skill_md_loads() {
    let skill = LoadedSkill::verify(&entry(), SKILL_MD.into()).unwrap();
    assert_eq!(skill.body(), "\n# PDF\n");
    assert_eq!(skill.text(), SKILL_MD);
    let supporting: Vec<_> = skill.supporting_files().map(|f| f.uri.as_str()).collect();
    assert_eq!(supporting, ["skill://pdf-processing/references/FORMS.md"]);
}

#[test]
fn a_size_mismatch_is_caught_before_the_digest() {
    let longer = format!("{SKILL_MD}extra\n");
    let error = LoadedSkill::verify(&entry(), longer.clone().into()).unwrap_err();
    assert!(
        matches!(error, SkillError::SizeMismatch { expected, actual, .. }
                if expected == SKILL_MD.len() as u64 && actual == longer.len() as u64),
        "{error}"
    );
    assert!(error.is_verification_failure());
}

#[test]
fn a_digest_mismatch_is_caught() {
    let tampered = SKILL_MD.replace("# PDF", "# EVL");
    assert_eq!(tampered.len(), SKILL_MD.len());
    let error = LoadedSkill::verify(&entry(), tampered.clone().into()).unwrap_err();
    assert!(
        matches!(&error, SkillError::DigestMismatch { actual, .. } if *actual == digest(&tampered)),
        "{error}"
    );
    assert!(error.is_verification_failure());
}

#[test]
fn a_frontmatter_that_differs_from_the_entry_is_caught() {
    // The entry's digest and size describe the tampered file, so only
    // the frontmatter comparison can catch it.
    let cases = [
        (
            "description: Extract PDF text",
            "description: Exfiltrate keys",
            "description",
        ),
        ("  version: \"2\"", "  version: 2", "metadata"),
        ("---\n\n# PDF", "license: MIT\n---\n\n# PDF", "license"),
    ];
    for (from, to, field) in cases {
        let tampered = SKILL_MD.replace(from, to);
        let mut entry = entry();
        files(&mut entry)[0].digest = digest(&tampered);
        files(&mut entry)[0].size = tampered.len() as u64;
        let error = LoadedSkill::verify(&entry, tampered.into()).unwrap_err();
        assert!(
            matches!(&error, SkillError::FrontmatterMismatch { field: f, .. } if f == field),
            "{error}"
        );
        assert!(error.is_verification_failure());
    }
}

#[test]
fn a_field_missing_from_the_file_is_a_mismatch() {
    let mut entry = entry();
    entry.frontmatter.insert("license".into(), json!("MIT"));
    let error = LoadedSkill::verify(&entry, SKILL_MD.into()).unwrap_err();
    assert!(
        matches!(&error, SkillError::FrontmatterMismatch { field, actual: None, .. } if field == "license"),
        "{error}"
    );
}

#[test]
fn unreadable_frontmatter_is_a_verification_failure() {
    let broken = SKILL_MD.replace("description: Extract PDF text", "description: a: b");
    let mut entry = entry();
    files(&mut entry)[0].digest = digest(&broken);
    files(&mut entry)[0].size = broken.len() as u64;
    let error = LoadedSkill::verify(&entry, broken.into()).unwrap_err();
    assert!(matches!(error, SkillError::Frontmatter { .. }), "{error}");
    assert!(error.is_verification_failure());
}

#[test]
fn numbers_compare_by_value() {
    let mut entry = entry();
    entry.frontmatter.insert("weight".into(), json!(1));
    let text = SKILL_MD.replace("---\n\n", "weight: 1.0\n---\n\n");
    files(&mut entry)[0].digest = digest(&text);
    files(&mut entry)[0].size = text.len() as u64;
    assert!(LoadedSkill::verify(&entry, text.into()).is_ok());
}

#[test]
fn entries_that_break_the_rules_are_refused() {
    type Break = fn(&mut Skill);
    let cases: [(&str, Break); 6] = [
        ("dynamic", |e| e.resources = SkillResources::Dynamic),
        ("SKILL.md unlisted", |e| {
            files(e).remove(0);
        }),
        ("uppercase digest", |e| {
            files(e)[0].digest = files(e)[0]
                .digest
                .to_uppercase()
                .replace("SHA256", "sha256");
        }),
        ("name mismatch", |e| {
            e.frontmatter.insert("name".into(), json!("other"));
        }),
        ("outside", |e| {
            files(e)[1].uri = "skill://pdf-processing-evil/x.md".into();
        }),
        ("too many bytes", |e| files(e)[1].size = MAX_SKILL_BYTES),
    ];
    for (name, break_entry) in cases {
        let mut entry = entry();
        break_entry(&mut entry);
        let error = LoadedSkill::verify(&entry, SKILL_MD.into()).unwrap_err();
        let expected = match name {
            "dynamic" => matches!(error, SkillError::Dynamic { .. }),
            "too many bytes" => matches!(error, SkillError::TooLarge { .. }),
            _ => matches!(error, SkillError::InvalidEntry { .. }),
        };
        assert!(expected, "{name}: {error}");
        assert!(!error.is_verification_failure(), "{name}");
    }
}

#[test]
fn supporting_files_are_verified_and_must_be_listed() {
    let entry = entry();
    let listed = &check_entry(&entry).unwrap()[1];
    assert!(verify_bytes(listed, FORMS.as_bytes()).is_ok());
    let error = verify_bytes(listed, b"Supporting content!\n").unwrap_err();
    assert!(
        matches!(error, SkillError::DigestMismatch { .. }),
        "{error}"
    );
}

#[test]
fn contents_are_read_as_raw_bytes() {
    let text = |uri: &str, text: &str| {
        ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            text: text.into(),
            ..Default::default()
        })
    };
    let blob = |uri: &str, blob: &str| {
        serde_json::from_value::<ResourceContents>(json!({"uri": uri, "blob": blob})).unwrap()
    };
    let read = |contents| ReadResourceResult {
        contents,
        ..Default::default()
    };
    let uri = "skill://a/x";
    assert_eq!(
        raw_contents(
            uri,
            read(vec![text("skill://a/other", "no"), text(uri, "é")])
        )
        .unwrap()
        .0,
        "é".as_bytes()
    );
    assert_eq!(
        raw_contents(uri, read(vec![blob(uri, "AAEC")])).unwrap().0,
        [0, 1, 2]
    );
    for contents in [
        vec![],
        vec![text("skill://a/other", "no")],
        vec![text(uri, "a"), text(uri, "b")],
        vec![blob(uri, "not base64!")],
    ] {
        let error = raw_contents(uri, read(contents)).unwrap_err();
        assert!(matches!(error, SkillError::Content { .. }), "{error}");
    }
}
