//! The frontmatter reader, case by case.

use super::*;
use serde_json::json;

fn fields(yaml: &str) -> Value {
    let text = format!("---\n{yaml}---\nbody\n");
    Value::Object(parse(&text).unwrap().fields)
}

fn fails(yaml: &str) -> Error {
    parse(&format!("---\n{yaml}---\n")).unwrap_err()
}

#[test]
fn splits_the_frontmatter_from_the_body() {
    let text = "---\r\nname: a\r\ndescription: b\r\n---\r\n\r\n# Title\n";
    let document = parse(text).unwrap();
    assert_eq!(&text[document.body_start..], "\r\n# Title\n");
    assert_eq!(
        Value::Object(document.fields),
        json!({"name": "a", "description": "b"})
    );
    assert_eq!(parse("---\nname: a\n---").unwrap().body_start, 15);
}

#[test]
fn a_file_without_frontmatter_is_an_error() {
    assert_eq!(parse("# Title\n").unwrap_err().line, 1);
    assert_eq!(parse("---\nname: a\n").unwrap_err().line, 3);
}

#[test]
fn reads_the_agent_skills_fields() {
    let yaml = "\
name: pdf-processing   # the directory's name
description: 'Extract, fill, and assemble PDF documents'
license: \"Apache-2.0\"
allowed-tools: Bash(git:*) Read
metadata:
  author: example-org
  version: \"1.0\"

compatibility:
";
    assert_eq!(
        fields(yaml),
        json!({
            "name": "pdf-processing",
            "description": "Extract, fill, and assemble PDF documents",
            "license": "Apache-2.0",
            "allowed-tools": "Bash(git:*) Read",
            "metadata": {"author": "example-org", "version": "1.0"},
            "compatibility": null
        })
    );
}

#[test]
fn resolves_plain_scalars_with_the_core_schema() {
    let yaml =
        "a: 1.0\nb: -12\nc: 0x1F\nd: TRUE\ne: ~\nf: 1e3\ng: .5\nh: 1.2.3\ni: .inf\nj: 0o17\n";
    assert_eq!(
        fields(yaml),
        json!({"a": 1.0, "b": -12, "c": 31, "d": true, "e": null, "f": 1000.0,
                   "g": 0.5, "h": "1.2.3", "i": ".inf", "j": 15})
    );
}

#[test]
fn folds_multi_line_scalars() {
    let yaml = "\
plain: first
  second

  third
single: 'it''s
  folded'
double: \"tab\\there \\
  joined \\u00e9\"
";
    assert_eq!(
        fields(yaml),
        json!({
            "plain": "first second\nthird",
            "single": "it's folded",
            "double": "tab\there joined é"
        })
    );
}

#[test]
fn reads_block_scalars_with_chomping() {
    let yaml = "\
literal: |
  line one
    indented
  # not a comment

folded: >-
  one
  two

  three
kept: |+
  x

next: end
";
    assert_eq!(
        fields(yaml),
        json!({
            "literal": "line one\n  indented\n# not a comment\n",
            "folded": "one two\nthree",
            "kept": "x\n\n",
            "next": "end"
        })
    );
}

#[test]
fn a_kept_block_scalar_without_content_keeps_its_empty_lines() {
    // Found by the differential fuzz target: YAML keeps the line breaks.
    assert_eq!(fields("a: |+\n  \n"), json!({"a": "\n"}));
    assert_eq!(fields("a: |+\n\n\nb: c\n"), json!({"a": "\n\n", "b": "c"}));
    assert_eq!(fields("a: |\n\nb: c\n"), json!({"a": "", "b": "c"}));
    assert_eq!(fields("a: |+\nb: c\n"), json!({"a": "", "b": "c"}));
}

#[test]
fn reads_block_sequences() {
    let yaml =
        "tools:\n- Read\n- 'Bash(git:*)'\nnested:\n  - k: v\n    other: 2\n  -\n    - deep\n";
    assert_eq!(
        fields(yaml),
        json!({"tools": ["Read", "Bash(git:*)"], "nested": [{"k": "v", "other": 2}, ["deep"]]})
    );
}

#[test]
fn rejects_what_it_does_not_read_exactly() {
    for (yaml, line) in [
        ("name: a\nname: b\n", 3),
        ("name: a: b\n", 2),
        ("tags: [a, b]\n", 2),
        ("base: &anchor x\n", 2),
        ("name: 'open\n", 2),
        ("text: |2\n  x\n", 2),
        ("name: a\n\tdescription: b\n", 3),
        ("name: a\n  extra: b\n", 3),
        ("- a\n", 2),
        ("just text\n", 2),
        ("x: \"\\q\"\n", 2),
        ("x: 'a' b\n", 2),
        // `:` or `-` before a tab is an indicator, as before a space.
        ("x: a:\tb\n", 2),
        ("x: -\ta\n", 2),
        ("x:\ta\n", 2),
        ("x:\n-\ta\n", 3),
        // Found by the differential fuzz target: YAML has no control
        // characters outside tab and line breaks, even in comments.
        ("# a\0comment\n", 2),
        ("a: b\rc\n", 2),
        ("a: \"\u{7f}\"\n", 2),
        ("`: x\n", 2),
        ("list:\n  -\u{feff}-\n", 3),
        ("a: b # comment\n  c\n", 3),
        ("a: b\n  c # comment\n  d\n", 4),
        // Read as a key `\u{85}#` here but as white space before a comment
        // by saphyr: next line and the Unicode separators are refused.
        (" \u{85}#:\n  |##\n", 2),
        ("a: b\u{2028}c\n", 2),
        ("a: 'b\u{2029}c'\n", 2),
        // Tabs past the indentation of a block scalar are content to
        // saphyr; a line of only white space is refused when it has one.
        ("k: |\n $keep\n \t  \t\n", 4),
        // YAML forbids a leading empty line longer than the content's
        // indentation.
        ("k: |\n   \n a\n", 3),
        // `#` right after a closing quote starts no comment: it is text
        // after the quote (found by the differential fuzz target).
        ("q: \"\"#x\n", 2),
        ("q: 'a'#x\n", 2),
        // `?` or `:` alone is an indicator (an explicit key, an empty
        // key), never a plain value (found by the differential fuzz target).
        ("a:\n b: ?\n", 3),
        ("a: :\n", 2),
        ("a: >#n\n", 2),
        // A block scalar without content still owns the blank lines after
        // it, and YAML reads a tab in them as content.
        ("n: |\n \n  \t\n", 4),
        // `...` ends a YAML document and `---` starts one, wherever the
        // line is (found by the differential fuzz target).
        ("...\t:\n", 2),
        ("a: |\n  x\n... \n", 4),
        ("a: b\n--- c\n", 3),
        // A quoted value's empty continuation line may not start with a
        // tab below its indentation (found by the differential fuzz target).
        ("a: 'x\n\t\n y'\n", 3),
        // An escape cut short by an escaped line break does not take its
        // digits from the next line (found by the differential fuzz target).
        ("a: \"\\x\\\n false\"\n", 2),
        ("a: \"\\u00\\\n e9\"\n", 2),
    ] {
        assert_eq!(fails(yaml).line, line, "{yaml:?}");
    }
    // YAML limits an implicit key to 1024 characters (found by the
    // differential fuzz target).
    assert!(parse(&format!("---\n{}: v\n---\n", "k".repeat(1024))).is_ok());
    assert_eq!(fails(&format!("{}: v\n", "k".repeat(1025))).line, 2);
}

#[test]
fn numbers_follow_the_core_schema_grammar_exactly() {
    // A sign after `0x`/`0o` or a digit outside the radix is no number.
    let yaml = "a: 0x-1\nb: 0x+1\nc: 0o-7\nd: 0o8\ne: +0x1\nf: 0x\ng: 0xfF\nh: +12\n";
    assert_eq!(
        fields(yaml),
        json!({"a": "0x-1", "b": "0x+1", "c": "0o-7", "d": "0o8", "e": "+0x1", "f": "0x",
                   "g": 255, "h": 12})
    );
}

#[test]
fn escapes_take_exactly_their_hex_digits() {
    assert_eq!(
        fields("a: \"\\x41\\u00e9\\U0001F600\"\n"),
        json!({"a": "A\u{e9}\u{1F600}"})
    );
    for escape in [
        "\\u+041",
        "\\x+1",
        "\\u-041",
        "\\x4",
        "\\U0000041",
        "\\ud83d",
    ] {
        let error = fails(&format!("a: \"{escape}\"\n"));
        assert!(
            error.reason.contains("invalid escape"),
            "{escape}: {error:?}"
        );
    }
}

/// Frontmatters our parser must read, each the same as saphyr reads it.
const DIFFERENTIAL_CORPUS: &[&str] = &[
    "name: pdf\ndescription: Extract text\nmetadata:\n  author: me\n  version: \"1.0\"\n",
    "a: 0x-1\nb: 0x+1\nc: 0o-7\nd: 0o8\ne: +0x1\nf: -0x1\ng: 0x1F\nh: 0o17\ni: 0x\nj: 0o\n",
    "a: +12\nb: -0\nc: 007\nd: 1_000\ne: 9223372036854775807\nf: -9223372036854775808\n",
    "a: 99999999999999999999\nb: 0xFFFFFFFFFFFFFFFF\nc: 0o7777777777777777777777\n",
    "a: 1e3\nb: 1E+3\nc: .5\nd: +.5\ne: -.5e-1\nf: 1.\ng: .\nh: 1e\ni: e1\nj: 1.e2\n",
    "a: .inf\nb: -.Inf\nc: +.INF\nd: .NaN\ne: nan\nf: inf\ng: 1e999\nh: .nAn\n",
    "a: True\nb: tRUE\nc: yes\nd: on\ne: ~\nf: Null\ng: NULL\nh: nULL\ni:\nj: FALSE\n",
    "a: \"\\x41\\u00e9\\U0001F600\\t\\N\\_\\L\\P\\/\\ \\e\\0\"\nb: 'it''s'\n",
    "1: one\n0x1F: key\n\"quoted key\": v\n'single key': w\nnull: n\ntrue: t\n",
    "url: http://example.com/a#b\nhash: a#b\ncomment: a # gone\ncolon: a:b\n",
    "plain: first\n  second\n\n  third\nnext: x\n",
    "double: \"a\n  b\\\n  c\\ \n\n  d\"\nsingle: 'a\n\n  b'\n",
    "literal: |\n  one\n    two\n\n  three\nfolded: >\n  a\n  b\n\n   c\n  d\nstrip: |-\n  x\n\nkeep: |+\n  y\n\n\n",
    "tools:\n- Read\n- 'Bash(git:*)'\nnested:\n  - k: v\n    o: 2\n  -\n    - deep\n",
    "empty:\nalso: ''\nlist:\n  -\n  - ~\n",
    "  indented: top\n  second: key\n",
    "a: b\r\nc: d\r\n",
    "# only a comment\n",
    "",
    "key with spaces: value with spaces  \nk: v\t\n",
    "a:\n  b:\n    c:\n      d: deep\n",
    "scalar_next_line:\n  value on the next line\n",
    "quoted_next_line:\n  \"value\"\n",
    // YAML's white space is space and tab only; a tab starts a comment.
    "ideographic: b\u{3000}\ntabbed: v\t# a comment\n",
    // Spaces past a block scalar's indentation on an otherwise empty line
    // are content (found by the differential fuzz target).
    "literal: |\n a\n  \n b\n",
    "folded: >\n a\n  \n b\n",
    "kept: |+\n a\n   \n",
    // A kept block scalar without content keeps its empty lines (found by
    // the differential fuzz target).
    "a: |+\n  \n",
    "a: |+\n\n\nb: c\n",
    "a: |\n\nb: c\n",
    "a: |+\nb: c\n",
    "a: 'x\n \t\n y'\n",
    // An escaped line break followed by empty lines (found by the
    // differential fuzz target).
    "a: \"x\\\n\n y\"\n",
    "a: \"x\\\n \n\n y\"\n",
    "a: \"x\\\n y\"\n",
    "a: \"\\x41\\\n  \\u00e9\"\n",
    "quoted: \"a\" # a comment after white space\n",
];

#[test]
fn reads_each_case_as_a_maintained_yaml_parser_does() {
    for yaml in DIFFERENTIAL_CORPUS {
        let ours = parse(&format!("---\n{yaml}---\n")).map(|document| document.fields);
        let ours = ours.unwrap_or_else(|error| panic!("{yaml:?}: {error}"));
        assert_eq!(Ok(ours), reference::load(yaml), "{yaml:?}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // Mappings nested one space deeper per line, and sequences of
    // sequences: 10,000 levels each would overflow any thread's stack.
    let mappings: String = (0..10_000)
        .map(|i| format!("{}a:\n", " ".repeat(i)))
        .collect();
    let sequences: String = (0..10_000)
        .map(|i| format!("{}-\n", " ".repeat(i)))
        .collect();
    for yaml in [mappings, format!("a:\n{sequences}")] {
        let error = fails(&yaml);
        assert!(error.reason.contains("nested more than 64"), "{error:?}");
    }
    // The limit itself is fine.
    let deep: String = (0..MAX_DEPTH)
        .map(|i| format!("{}a:\n", " ".repeat(i)))
        .collect();
    assert!(parse(&format!("---\n{deep}---\n")).is_ok());
}
