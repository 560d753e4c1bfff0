//! The minimum supported Rust version in the workspace's `Cargo.toml`
//! (`[workspace.package] rust-version`, inherited by every crate) is true:
//!
//! - every published crate declares it;
//! - no dependency of a published crate (normal and build dependencies, as
//!   `cargo metadata` resolves them, every platform) declares a newer
//!   `rust-version`;
//! - every published crate builds with a toolchain of exactly that version
//!   (`cargo check`, into `target/msrv`), which also catches language
//!   features and std APIs newer than the MSRV. That test is ignored:
//!   machines where only their own toolchain can be installed (CI's) cannot
//!   have it. `cargo test -p mcp-tests --test it msrv -- --ignored` runs it
//!   where `rustup toolchain install 1.88 --profile minimal` works, and
//!   fails, saying so, where the toolchain is missing;
//! - clippy's lint that checks std API use against `rust-version`
//!   (`incompatible_msrv`) passes on every published crate's packaged
//!   sources with every feature, on the machine's own toolchain
//!   (tests/tests/it/package.rs runs it), so a std API newer than the MSRV
//!   fails `cargo test` even where the MSRV toolchain cannot be had; and it
//!   stays on here: no source or manifest silences it, and no `clippy.toml`
//!   sets another `msrv`.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// `major.minor.patch` of a version such as `1.88` or `1.88.0`.
fn parse_version(text: &str) -> (u64, u64, u64) {
    let mut parts = text.split('.').map(|part| {
        part.parse::<u64>()
            .unwrap_or_else(|_| panic!("version {text:?}"))
    });
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    let patch = parts.next().unwrap_or(0);
    (major, minor, patch)
}

/// `rust-version` of `[workspace.package]` in the root `Cargo.toml`.
fn workspace_msrv() -> String {
    let manifest = std::fs::read_to_string(support::workspace().join("Cargo.toml"))
        .expect("read the workspace Cargo.toml");
    let mut in_section = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line == "[workspace.package]";
        } else if in_section && let Some(value) = line.strip_prefix("rust-version") {
            let value = value.trim_start().trim_start_matches('=').trim();
            return value.trim_matches('"').to_owned();
        }
    }
    panic!("the workspace Cargo.toml has no [workspace.package] rust-version");
}

#[test]
fn every_published_crate_declares_the_workspace_msrv() {
    let msrv = workspace_msrv();
    let metadata = support::metadata();
    for package in support::published(&metadata) {
        assert_eq!(
            package["rust_version"].as_str().map(parse_version),
            Some(parse_version(&msrv)),
            "{} should inherit rust-version {msrv} from the workspace (`rust-version.workspace = true`)",
            support::name(package)
        );
    }
}

#[test]
fn no_dependency_of_a_published_crate_needs_a_newer_rust() {
    let msrv = workspace_msrv();
    let metadata = support::metadata();
    let packages: BTreeMap<&str, &Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|package| (package["id"].as_str().expect("package id"), package))
        .collect();
    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("resolve nodes")
        .iter()
        .map(|node| (node["id"].as_str().expect("node id"), node))
        .collect();

    // Everything a published crate needs to build: normal and build
    // dependencies, transitively; dev-dependencies are not part of it.
    let mut needed_by: BTreeMap<&str, &str> = BTreeMap::new();
    let mut stack: Vec<(&str, &str)> = support::published(&metadata)
        .into_iter()
        .map(|package| {
            let id = package["id"].as_str().expect("package id");
            (id, support::name(package))
        })
        .collect();
    while let Some((id, root)) = stack.pop() {
        if needed_by.insert(id, root).is_some() {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().expect("deps") {
            let not_dev_only = dep["dep_kinds"]
                .as_array()
                .expect("dep_kinds")
                .iter()
                .any(|kind| kind["kind"].as_str() != Some("dev"));
            if not_dev_only {
                stack.push((dep["pkg"].as_str().expect("dep pkg"), root));
            }
        }
    }
    assert!(
        needed_by.len() > 50,
        "too few dependencies found: {needed_by:?}"
    );

    let too_new: BTreeSet<String> = needed_by
        .iter()
        .filter_map(|(id, root)| {
            let package = packages[id];
            let declared = package["rust_version"].as_str()?;
            (parse_version(declared) > parse_version(&msrv)).then(|| {
                format!(
                    "{} {} needs Rust {declared} (a dependency of {root})",
                    support::name(package),
                    support::version(package)
                )
            })
        })
        .collect();
    assert!(
        too_new.is_empty(),
        "the workspace declares rust-version {msrv}, but:\n  {}\n\
         raise rust-version in the workspace Cargo.toml (and the README), or pin an older version",
        too_new.into_iter().collect::<Vec<_>>().join("\n  ")
    );
}

#[test]
#[ignore = "needs the MSRV toolchain (Rust 1.88), which a machine that can install only its own \
            toolchain cannot have; run with --ignored after `rustup toolchain install 1.88 \
            --profile minimal`"]
fn published_crates_build_with_the_msrv_toolchain() {
    let msrv = workspace_msrv();
    let probe = support::without_test_env(&mut Command::new("rustup"))
        .args(["run", &msrv, "rustc", "--version"])
        .env("RUSTUP_AUTO_INSTALL", "0")
        .env_remove("RUSTUP_TOOLCHAIN")
        .output();
    let installed = match &probe {
        Ok(output) if output.status.success() => {
            String::from_utf8_lossy(&output.stdout).trim().to_owned()
        }
        _ => panic!(
            "Rust {msrv} (the MSRV) is not installed, so the published crates cannot be built \
             with it; install it with `rustup toolchain install {msrv} --profile minimal`"
        ),
    };
    assert!(
        installed.starts_with(&format!("rustc {msrv}")),
        "`rustup run {msrv} rustc --version` says {installed:?}"
    );

    let metadata = support::metadata();
    let target_dir = support::target_dir(&metadata).join("msrv");
    for package in support::published(&metadata) {
        let name = support::name(package);
        // One crate at a time, so each is built with only the features it
        // asks of its dependencies; --locked keeps the lock file as it is.
        let output = support::without_test_env(&mut Command::new("rustup"))
            .args([
                "run", &msrv, "cargo", "check", "--locked", "--quiet", "-p", name,
            ])
            .arg("--target-dir")
            .arg(&target_dir)
            .current_dir(support::workspace())
            .env("RUSTUP_AUTO_INSTALL", "0")
            // The toolchain running this test must not leak into the MSRV build.
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("CARGO")
            .env_remove("RUSTC")
            .env_remove("RUSTDOC")
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .expect("run rustup");
        assert!(
            output.status.success(),
            "{name} does not build with Rust {msrv} ({installed}):\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn the_incompatible_msrv_lint_stays_on() {
    // Spelled in two parts so that this file does not find itself.
    let lint = ["incompatible", "_msrv"].concat();
    let mut found = Vec::new();
    visit(&support::workspace(), &mut |path, text| {
        let is_clippy_toml = path.ends_with("clippy.toml") || path.ends_with(".clippy.toml");
        for line in text.lines() {
            // `#[allow(clippy::..)]`, `#[expect(..)]`, `cfg_attr(.., allow(..))`,
            // `[lints.clippy] .. = "allow"` / `{ level = "allow" }`.
            let silenced =
                line.contains(&lint) && (line.contains("allow") || line.contains("expect"));
            let other_msrv = is_clippy_toml && line.trim_start().starts_with("msrv");
            if silenced || other_msrv {
                found.push(format!("{}: {}", path.display(), line.trim()));
            }
        }
    });
    assert!(
        found.is_empty(),
        "clippy::{lint} must check against the workspace's rust-version:\n  {}",
        found.join("\n  ")
    );
}

/// Calls `check` with every Rust source, Cargo manifest and clippy
/// configuration under `dir`, outside build output and dependencies.
fn visit(dir: &Path, check: &mut dyn FnMut(&Path, &str)) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(
                name.as_str(),
                "target" | "node_modules" | "corpus" | "artifacts"
            ) && !name.starts_with('.')
            {
                visit(&path, check);
            }
        } else if (name.ends_with(".rs")
            || matches!(name.as_str(), "Cargo.toml" | "clippy.toml" | ".clippy.toml"))
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            check(&path, &text);
        }
    }
}
