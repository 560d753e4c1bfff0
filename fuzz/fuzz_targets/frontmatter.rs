#![no_main]
//! Differential: whenever our SKILL.md frontmatter parser accepts a
//! frontmatter, saphyr (a maintained YAML 1.2 parser) must read it too, to
//! the same JSON values. Ours may refuse what saphyr reads: it supports a
//! strict subset of YAML on purpose.
//!
//! The input is the YAML between the `---` lines, cut where ours would see
//! the closing `---`.

#[path = "../../mcp-runtime/src/frontmatter/reference.rs"]
mod reference;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Both parsers read the same text, which ends with a line break as
    // it does before the closing `---`.
    let mut yaml = before_closing_marker(text).to_owned();
    if !yaml.is_empty() && !yaml.ends_with('\n') {
        yaml.push('\n');
    }
    let Ok(ours) = mcp_toolkit_runtime::fuzzing::frontmatter(&format!("---\n{yaml}---\n")) else {
        return;
    };
    match reference::load(&yaml) {
        Ok(theirs) => assert_eq!(ours, theirs, "different values for {yaml:?}"),
        Err(error) => panic!("ours read {yaml:?} as {ours:?}; saphyr refused it: {error}"),
    }
});

/// `text` up to its first line that is `---` (trailing spaces and tabs
/// allowed), where the frontmatter would end.
fn before_closing_marker(text: &str) -> &str {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let content = line.strip_suffix('\n').unwrap_or(line);
        let content = content.strip_suffix('\r').unwrap_or(content);
        if content.trim_end_matches([' ', '\t']) == "---" {
            break;
        }
        end += line.len();
    }
    &text[..end]
}
