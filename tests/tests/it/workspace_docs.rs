//! The workspace documents cleanly with warnings denied, as many users' CI
//! runs rustdoc: `RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
//! --workspace` (broken intra-doc links, unclosed HTML tags, bare URLs,
//! private items linked from public docs all fail it). The workspace
//! includes tests/generated-docs: every client mcp-codegen's snapshot tests
//! generate, so generated code is held to the same. And the README's
//! benchmark figures are those of `bench/README.md`'s acceptance run.

use crate::support;

#[test]
fn cargo_doc_passes_with_warnings_denied() {
    let output = support::cargo()
        .args(["doc", "--no-deps", "--workspace", "--quiet"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("run cargo doc");
    assert!(
        output.status.success(),
        "cargo doc with warnings denied failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The README quotes the benchmarks' latest acceptance run: its
/// `benchmarks` row names the run's date, and every figure after it (each
/// decimal number) is one that run measured, so the two cannot drift.
#[test]
fn the_readme_quotes_the_latest_acceptance_run() {
    let root = support::workspace();
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let (readme, bench) = (read("README.md"), read("bench/README.md"));
    const HEADING: &str = "### The acceptance run (";
    let start = bench
        .rfind(HEADING)
        .expect("bench/README.md has an acceptance run");
    let section = &bench[start..];
    let section = &section[..section[HEADING.len()..]
        .find("\n### ")
        .map_or(section.len(), |end| end + HEADING.len())];
    let date = &section[HEADING.len()..HEADING.len() + "YYYY-MM-DD".len()];
    let row = readme
        .lines()
        .find(|line| line.starts_with("| benchmarks |"))
        .expect("the README's status table has a benchmarks row");
    let marker = format!("acceptance run of {date}");
    let Some(at) = row.find(&marker) else {
        panic!("the README's benchmarks row must name the {marker}:\n{row}");
    };
    let figures = decimals(&row[at + marker.len()..]);
    assert!(!figures.is_empty(), "no figures in:\n{row}");
    for figure in figures {
        assert!(
            decimals(section).contains(&figure),
            "the README quotes {figure}, which the acceptance run of {date} does not show"
        );
    }
}

/// Every decimal number (digits, a dot, digits) in `text`.
fn decimals(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() || (i > 0 && bytes[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            found.push(&text[start..i]);
        }
    }
    found
}
