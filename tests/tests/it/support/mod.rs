//! Helpers for the tests that drive cargo on the workspace itself
//! (`workspace_docs`, `msrv`, `package`, `fuzz_smoke`, `bench_smoke`). Every
//! file in `tests/tests/` is its own crate and uses only some of them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod cargo_env;
#[allow(unused_imports)] // each test file uses a different part
pub use cargo_env::without_test_env;

/// The workspace root (this crate sits in `tests/`).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// The cargo that runs these tests, in the workspace root, without the
/// variables cargo sets for a test (see [`without_test_env`]).
pub fn cargo() -> Command {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.current_dir(workspace());
    without_test_env(&mut cargo);
    cargo
}

/// `cargo metadata --format-version 1` of the workspace: every package of
/// the lock file, and the resolved dependency graph.
pub fn metadata() -> Value {
    let output = cargo()
        .args(["metadata", "--format-version", "1"])
        .output()
        .expect("run cargo metadata");
    assert!(
        output.status.success(),
        "cargo metadata failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

/// The workspace's target directory, as cargo resolves it (so
/// `CARGO_TARGET_DIR` and `.cargo/config.toml` are respected).
pub fn target_dir(metadata: &Value) -> PathBuf {
    PathBuf::from(
        metadata["target_directory"]
            .as_str()
            .expect("metadata has target_directory"),
    )
}

/// The workspace members that would be published: every one without
/// `publish = false` (which cargo metadata reports as `"publish": []`).
pub fn published(metadata: &Value) -> Vec<&Value> {
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let published: Vec<&Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|package| members.contains(&package["id"].as_str().unwrap_or_default()))
        .filter(|package| {
            package["publish"]
                .as_array()
                .is_none_or(|to| !to.is_empty())
        })
        .collect();
    let names: Vec<&str> = published.iter().map(|p| name(p)).collect();
    // A guard against a metadata format this reading does not understand.
    assert!(
        names.contains(&"mcp-toolkit-runtime") && !names.contains(&"mcp-tests"),
        "published crates read from cargo metadata: {names:?}"
    );
    published
}

/// A package's name.
pub fn name(package: &Value) -> &str {
    package["name"].as_str().expect("a package has a name")
}

/// A package's version.
pub fn version(package: &Value) -> &str {
    package["version"]
        .as_str()
        .expect("a package has a version")
}
