//! The workspace documents cleanly with warnings denied, as many users' CI
//! runs rustdoc: `RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
//! --workspace --all-features` (broken intra-doc links, unclosed HTML tags, bare URLs,
//! private items linked from public docs all fail it). The workspace
//! includes tests/generated-docs: every client mcp-codegen's snapshot tests
//! generate, so generated code is held to the same. The README's
//! benchmark figures are those of `bench/README.md`'s acceptance run, and
//! each published crate's README lists exactly the features its Cargo.toml
//! declares, with the same defaults.

use crate::support;

use std::path::Path;

use serde_json::Value;

#[test]
fn cargo_doc_passes_with_warnings_denied() {
    let output = support::cargo()
        // Every feature, so that feature-gated items are documented too.
        .args([
            "doc",
            "--no-deps",
            "--workspace",
            "--all-features",
            "--quiet",
        ])
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

/// A published crate with Cargo features has a `## Features` table in its
/// README, one row per feature (`| \`name\` | yes or no ... | what it adds |`),
/// and the rows are exactly the features of its Cargo.toml, marked "yes"
/// exactly when `default` lists them.
#[test]
fn each_crate_readme_lists_its_features_and_defaults() {
    let metadata = support::metadata();
    let mut checked = 0;
    for package in support::published(&metadata) {
        let name = support::name(package);
        let features = package["features"].as_object().expect("features");
        let defaults: Vec<&str> = features
            .get("default")
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut declared: Vec<(&str, bool)> = features
            .keys()
            .map(String::as_str)
            .filter(|feature| *feature != "default")
            .map(|feature| (feature, defaults.contains(&feature)))
            .collect();
        if declared.is_empty() {
            continue;
        }
        let manifest = Path::new(package["manifest_path"].as_str().expect("manifest_path"));
        let readme_path = manifest.with_file_name("README.md");
        let readme = std::fs::read_to_string(&readme_path)
            .unwrap_or_else(|e| panic!("{name}: {}: {e}", readme_path.display()));
        let mut listed = feature_rows(&readme)
            .unwrap_or_else(|| panic!("{name}: its README has no `## Features` table"));
        declared.sort();
        listed.sort();
        assert_eq!(
            listed, declared,
            "{name}: the README's features table (left: feature, default) disagrees with Cargo.toml (right)"
        );
        checked += 1;
    }
    assert!(checked > 0, "no published crate declares a feature");
}

/// The rows of the table under `## Features`: each feature's name and
/// whether its default column says "yes".
fn feature_rows(readme: &str) -> Option<Vec<(&str, bool)>> {
    let section = &readme[readme.find("\n## Features\n")?..];
    let rows = section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2); // the header and its separator
    Some(
        rows.map(|row| {
            let mut cells = row.split('|').skip(1).map(str::trim);
            let feature = cells.next().unwrap_or_default().trim_matches('`');
            let default = cells.next().unwrap_or_default().starts_with("yes");
            (feature, default)
        })
        .collect(),
    )
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
