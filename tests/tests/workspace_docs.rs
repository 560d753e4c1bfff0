//! The workspace documents cleanly with warnings denied, as many users' CI
//! runs rustdoc: `RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
//! --workspace` (broken intra-doc links, unclosed HTML tags, bare URLs,
//! private items linked from public docs all fail it).

use std::path::Path;
use std::process::Command;

#[test]
fn cargo_doc_passes_with_warnings_denied() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let output = Command::new(env!("CARGO"))
        .args(["doc", "--no-deps", "--workspace", "--quiet"])
        .current_dir(workspace)
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("run cargo doc");
    assert!(
        output.status.success(),
        "cargo doc with warnings denied failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
