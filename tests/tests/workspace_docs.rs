//! The workspace documents cleanly with warnings denied, as many users' CI
//! runs rustdoc: `RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
//! --workspace` (broken intra-doc links, unclosed HTML tags, bare URLs,
//! private items linked from public docs all fail it). The workspace
//! includes tests/generated-docs: every client mcp-codegen's snapshot tests
//! generate, so generated code is held to the same.

mod support;

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
