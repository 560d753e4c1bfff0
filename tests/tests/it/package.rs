//! The crates are ready for crates.io: `cargo package --workspace` passes,
//! each published crate's `.crate` carries its README and both license
//! texts (`LICENSE-MIT`, `LICENSE-APACHE`, those of the repository root),
//! the packaged sources build, and each crate declares what crates.io and
//! docs.rs show.
//!
//! `--no-verify`, and one `cargo check` instead. Cargo's own verification
//! builds every package from its packaged sources against its packaged
//! workspace dependencies, which compiles `mcp-toolkit-runtime` four or five times
//! (its package, and once per set of features the packages after it ask
//! for): 3.3 to 4.5 minutes of CPU, 3.5 to 13.5 minutes here (two cores
//! shared with other builds), with every dependency already built.
//!
//! Repeated runs of it also verify against stale packages: cargo unpacks a
//! workspace crate from its temporary registry (`target/package/tmp-registry`)
//! into `$CARGO_HOME/registry/src` once and reuses the directory, and the
//! unit built from it looks fresh forever (packaged files carry a fixed
//! timestamp). With unchanged versions, a later run here built
//! `mcp-examples` against the `mcp-toolkit-runtime` of an earlier one (a method added
//! since was missing; reproduced with two crates in a scratch workspace).
//!
//! So this test unpacks the packages itself, with current timestamps, and
//! checks `mcp-toolkit-codegen`, which needs every other published crate,
//! with each of those patched in from its own unpacked package: every
//! published crate compiled from exactly what would be uploaded. Then each
//! published combination of a crate's features (none, the defaults, each
//! optional feature, all) is checked from that crate's package the same way.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

/// The published crate whose check compiles every other one.
const CHECKED: &str = "mcp-toolkit-codegen";

#[test]
fn cargo_package_passes_and_the_packages_build() {
    let metadata = support::metadata();
    let target_dir = support::target_dir(&metadata);
    let published = support::published(&metadata);
    let package_dir = target_dir.join("package");
    let crate_file = |package: &Value| -> PathBuf {
        let (name, version) = (support::name(package), support::version(package));
        package_dir.join(format!("{name}-{version}.crate"))
    };
    for package in &published {
        // Whatever an earlier run left must not count.
        let _ = std::fs::remove_file(crate_file(package));
    }

    let started = Instant::now();
    let output = support::cargo()
        .args(["package", "--workspace", "--allow-dirty", "--no-verify"])
        .env("CARGO_TARGET_DIR", &target_dir)
        .output()
        .expect("run cargo package");
    eprintln!(
        "cargo package --workspace --no-verify took {:.0?}",
        started.elapsed()
    );
    assert!(
        output.status.success(),
        "cargo package --workspace failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // Each package holds its crate's README, byte for byte; unpacked (file
    // times set to now, so no earlier build of them counts as fresh).
    let unpacked = package_dir.join("check");
    let _ = std::fs::remove_dir_all(&unpacked);
    std::fs::create_dir_all(&unpacked).expect("create target/package/check");
    for package in &published {
        let (name, version) = (support::name(package), support::version(package));
        let file = crate_file(package);
        assert!(file.is_file(), "{name}: no {}", file.display());
        let status = Command::new("tar")
            .arg("-xzmf")
            .arg(&file)
            .arg("-C")
            .arg(&unpacked)
            .status()
            .expect("run tar");
        assert!(
            status.success(),
            "{name}: tar could not unpack {}",
            file.display()
        );
        let readme_path = Path::new(package["manifest_path"].as_str().expect("manifest_path"))
            .with_file_name("README.md");
        let readme = std::fs::read_to_string(&readme_path)
            .unwrap_or_else(|e| panic!("{name}: {}: {e}", readme_path.display()));
        let packaged = unpacked.join(format!("{name}-{version}")).join("README.md");
        assert_eq!(
            std::fs::read_to_string(&packaged).ok().as_deref(),
            Some(readme.as_str()),
            "{name}: {} does not hold the crate's README.md",
            file.display()
        );
        // "MIT OR Apache-2.0": both texts travel with every crate.
        for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
            let text = std::fs::read_to_string(support::workspace().join(license))
                .unwrap_or_else(|e| panic!("{license} at the repository root: {e}"));
            let packaged = unpacked.join(format!("{name}-{version}")).join(license);
            assert_eq!(
                std::fs::read_to_string(&packaged).ok().as_deref(),
                Some(text.as_str()),
                "{name}: {} does not hold the repository's {license} (link it from the crate's folder)",
                file.display()
            );
        }
    }

    // CHECKED as packaged, with every other published crate patched in from
    // its package (crates.io has none of them at these versions): that
    // compiles each of them, with the features CHECKED asks for.
    let root_of = |package: &Value| {
        unpacked.join(format!(
            "{}-{}",
            support::name(package),
            support::version(package)
        ))
    };
    let checked = published
        .iter()
        .find(|package| support::name(package) == CHECKED)
        .expect("the checked crate is published");
    let stderr = check_unpacked(
        &root_of(checked),
        &published,
        &root_of,
        &target_dir,
        &["--lib", "--bins"],
    );
    for package in &published {
        let from_package = format!(
            "{} v{} ({})",
            support::name(package),
            support::version(package),
            root_of(package).display()
        );
        assert!(
            stderr.contains(&from_package),
            "{} was not compiled from its package:\n{stderr}",
            support::name(package)
        );
    }

    // Then every published combination of each crate's features, each
    // compiled from the crate's own package.
    let mut combinations = 0;
    for package in &published {
        // A library packages no Cargo.lock: the workspace's, so that the
        // versions are those every other test ran with.
        let root = root_of(package);
        if !root.join("Cargo.lock").exists() {
            std::fs::copy(
                support::workspace().join("Cargo.lock"),
                root.join("Cargo.lock"),
            )
            .expect("copy Cargo.lock");
        }
        for flags in feature_combinations(package) {
            let mut args = vec!["--lib"];
            args.extend(flags.iter().map(String::as_str));
            check_unpacked(&root, &published, &root_of, &target_dir, &args);
            combinations += 1;
        }
    }
    assert!(
        combinations >= 5,
        "only {combinations} feature combinations"
    );
}

/// `cargo check ARGS` of the unpacked package at `root`, every other
/// published crate patched in from its own unpacked package; its stderr.
fn check_unpacked(
    root: &Path,
    published: &[&Value],
    root_of: &dyn Fn(&Value) -> PathBuf,
    target_dir: &Path,
    args: &[&str],
) -> String {
    // Its own workspace: it sits inside ours without being a member.
    let manifest_path = root.join("Cargo.toml");
    let mut manifest = std::fs::read_to_string(&manifest_path).expect("its Cargo.toml");
    if !manifest.contains("\n[workspace]\n") {
        manifest.push_str("\n[workspace]\n");
        std::fs::write(&manifest_path, manifest).expect("write its Cargo.toml");
    }
    let mut check = support::cargo();
    check
        .arg("check")
        .args(args)
        .current_dir(root)
        // The workspace's target directory, so that the dependencies built
        // by the other tests are reused.
        .env("CARGO_TARGET_DIR", target_dir)
        .env("CARGO_TERM_COLOR", "never");
    for package in published {
        let path = root_of(package);
        if path != root {
            check.arg("--config").arg(format!(
                "patch.crates-io.{}.path = {:?}",
                support::name(package),
                path.display().to_string()
            ));
        }
    }
    let started = Instant::now();
    let output = check.output().expect("run cargo check");
    let what = format!("{} {}", root.display(), args.join(" "));
    eprintln!("cargo check of {what} took {:.0?}", started.elapsed());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{what} does not build from its package:\n{stderr}"
    );
    stderr
}

/// The feature flags each published configuration of `package` is checked
/// with: none at all, the defaults, each optional feature the defaults do
/// not turn on (added to them), and all; nothing for a crate without
/// features.
fn feature_combinations(package: &Value) -> Vec<Vec<String>> {
    let features = package["features"].as_object().expect("features");
    let enables = |feature: &str| -> Vec<String> {
        features
            .get(feature)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|item| features.contains_key(*item))
            .map(str::to_owned)
            .collect()
    };
    // The features the defaults turn on, directly or through others.
    let mut on = vec!["default".to_owned()];
    let mut next = 0;
    while let Some(feature) = on.get(next).cloned() {
        for implied in enables(&feature) {
            if !on.contains(&implied) {
                on.push(implied);
            }
        }
        next += 1;
    }
    let optional: Vec<&String> = features.keys().filter(|f| !on.contains(f)).collect();
    if features.keys().all(|f| f == "default") {
        return Vec::new();
    }
    let mut combinations = vec![vec!["--no-default-features".to_owned()], Vec::new()];
    combinations.extend(
        optional
            .into_iter()
            .map(|feature| vec!["--features".to_owned(), feature.clone()]),
    );
    combinations.push(vec!["--all-features".to_owned()]);
    combinations
}

#[test]
fn published_crates_carry_crates_io_metadata() {
    let metadata = support::metadata();
    for package in support::published(&metadata) {
        let name = support::name(package);
        for field in [
            "description",
            "license",
            "repository",
            "documentation",
            "rust_version",
        ] {
            assert!(
                package[field]
                    .as_str()
                    .is_some_and(|value| !value.is_empty()),
                "{name} has no {field}"
            );
        }
        assert_eq!(
            package["documentation"].as_str(),
            Some(format!("https://docs.rs/{name}").as_str()),
            "{name}: documentation"
        );
        let readme = package["readme"].as_str().unwrap_or_default();
        assert!(
            Path::new(readme).file_name() == Some("README.md".as_ref()),
            "{name}: readme = {readme:?}"
        );
        let keywords = package["keywords"].as_array().expect("keywords");
        assert!(
            (1..=5).contains(&keywords.len()),
            "{name}: crates.io takes 1 to 5 keywords, not {keywords:?}"
        );
        for keyword in keywords.iter().filter_map(Value::as_str) {
            assert!(
                keyword.len() <= 20
                    && keyword.starts_with(|c: char| c.is_ascii_alphabetic())
                    && keyword
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_+".contains(c)),
                "{name}: keyword {keyword:?} is not one crates.io accepts"
            );
        }
        let categories = package["categories"].as_array().expect("categories");
        assert!(
            (1..=5).contains(&categories.len()),
            "{name}: crates.io takes 1 to 5 categories, not {categories:?}"
        );
        assert!(
            package["metadata"]["docs"]["rs"].is_object(),
            "{name} has no [package.metadata.docs.rs]"
        );
    }
}
