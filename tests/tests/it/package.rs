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
//! So this test unpacks the packages itself, with current timestamps, into
//! a workspace of their own in which each published crate depends on the
//! others' packages, and checks it: every published crate compiled from
//! exactly what would be uploaded, with its defaults; with all features
//! (through clippy, which also checks std APIs against the MSRV); and with
//! each of its other published combinations (none, and each optional
//! feature that brings a dependency).

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use serde_json::Value;

/// The workspace of unpacked packages (`target/package/check`), made once
/// per test binary for the tests that build from it: this one and the
/// public API listings (public_api.rs).
pub struct Unpacked {
    /// Its root, with the workspace manifest and our Cargo.lock.
    pub root: PathBuf,
    /// Its members' folders (`name-version`), in the order of `published`.
    pub members: Vec<String>,
}

/// Packages the workspace, checks what each `.crate` carries and unpacks
/// them into a workspace of their own; once per test binary.
pub fn unpacked() -> &'static Unpacked {
    static UNPACKED: OnceLock<Unpacked> = OnceLock::new();
    UNPACKED.get_or_init(package_and_unpack)
}

fn package_and_unpack() -> Unpacked {
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

    // The unpacked packages as one workspace of their own (it sits inside
    // ours without belonging to it), each published crate's dependency on
    // another patched to that one's package (crates.io has none of them at
    // these versions), and our Cargo.lock, so that the versions are those
    // every other test ran with.
    let members: Vec<String> = published
        .iter()
        .map(|package| format!("{}-{}", support::name(package), support::version(package)))
        .collect();
    let mut manifest =
        format!("[workspace]\nresolver = \"3\"\nmembers = {members:?}\n\n[patch.crates-io]\n");
    for (package, member) in published.iter().zip(&members) {
        manifest.push_str(&format!(
            "{} = {{ path = {member:?} }}\n",
            support::name(package)
        ));
    }
    std::fs::write(unpacked.join("Cargo.toml"), manifest).expect("write the workspace manifest");
    std::fs::copy(
        support::workspace().join("Cargo.lock"),
        unpacked.join("Cargo.lock"),
    )
    .expect("copy Cargo.lock");

    Unpacked {
        root: unpacked,
        members,
    }
}

#[test]
fn cargo_package_passes_and_the_packages_build() {
    let metadata = support::metadata();
    let published = support::published(&metadata);
    let Unpacked { root, members } = unpacked();
    // Every published crate with its default features, from its package:
    // cargo reports each unit it compiled or found fresh (the public API
    // test may have checked some of them already, in the same target
    // directory), with the manifest it was built from.
    let stdout = cargo_in(
        root,
        &[
            "check",
            "--workspace",
            "--lib",
            "--bins",
            "--message-format=json",
        ],
    );
    let manifests: Vec<PathBuf> = stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact")
        .filter_map(|message| message["manifest_path"].as_str().map(PathBuf::from))
        .collect();
    for (package, member) in published.iter().zip(members) {
        let from_package = root.join(member).join("Cargo.toml");
        assert!(
            manifests.contains(&from_package),
            "{} was not compiled from its package ({}); cargo built from:\n{manifests:#?}",
            support::name(package),
            from_package.display()
        );
    }
    // Every feature at once, through clippy with only the lint that checks
    // std APIs against `rust-version` (tests/tests/it/msrv.rs has the rest
    // of the MSRV's checks), so that a std API newer than the MSRV fails
    // here even where the MSRV toolchain cannot be installed.
    let lint = ["clippy::incompatible", "_msrv"].concat();
    cargo_in(
        root,
        &[
            "clippy",
            "--workspace",
            "--lib",
            "--bins",
            "--all-features",
            "--",
            "-A",
            "clippy::all",
            "-D",
            &lint,
        ],
    );
    // And each crate's other published combinations of features, without
    // a warning: code a combination compiles but never calls is dead there
    // (cargo replays a cached crate's warnings, so a fresh build says the same).
    let mut combinations = 0;
    for package in &published {
        for flags in feature_combinations(package) {
            let mut args = vec!["check", "--lib", "-p", support::name(package)];
            args.extend(flags.iter().map(String::as_str));
            let (_, stderr) = run_in(root, &args);
            assert!(
                !stderr.lines().any(|line| line.starts_with("warning")),
                "cargo {} warns on the packaged sources:\n{stderr}",
                args.join(" ")
            );
            combinations += 1;
        }
    }
    assert!(
        combinations >= 3,
        "only {combinations} feature combinations"
    );
}

/// `cargo ARGS` in the workspace of unpacked packages at `root`, into our
/// target directory (the dependencies are built once for all of these
/// runs); its stdout, after it succeeded.
fn cargo_in(root: &Path, args: &[&str]) -> String {
    run_in(root, args).0
}

/// [`cargo_in`], with its stderr too.
fn run_in(root: &Path, args: &[&str]) -> (String, String) {
    let started = Instant::now();
    let output = support::cargo()
        .args(args)
        .current_dir(root)
        .env(
            "CARGO_TARGET_DIR",
            support::target_dir(&support::metadata()),
        )
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .expect("run cargo");
    let what = format!("cargo {}", args.join(" "));
    eprintln!("{what} took {:.0?}", started.elapsed());
    assert!(
        output.status.success(),
        "{what} fails on the packaged sources:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The feature flags each further published configuration of `package` is
/// checked with (its defaults and all of its features are checked with
/// every crate's): none at all when the defaults turn some on, and each
/// optional feature that brings a dependency the defaults do not (added to
/// them: `http`, `client`, `redis`, ...); nothing for a crate without
/// features.
fn feature_combinations(package: &Value) -> Vec<Vec<String>> {
    let features = package["features"].as_object().expect("features");
    // What `feature = [...]` lists: other features, `dep:x` and `x/feature`.
    let items = |feature: &str| {
        features
            .get(feature)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
    };
    let enables = |feature: &str| -> Vec<String> {
        items(feature)
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
    // An optional feature that brings no dependency of its own (`fuzzing`,
    // which only exposes internals) compiles nothing `--all-features` does
    // not: checked there only.
    let brings_a_dependency =
        |feature: &str| items(feature).any(|item| item.starts_with("dep:") || item.contains('/'));
    if features.keys().all(|f| f == "default") {
        return Vec::new();
    }
    // Without defaults, when there are some (mcp-toolkit-runtime has none:
    // its defaults, checked already, are that build).
    let mut combinations = Vec::new();
    if items("default").next().is_some() {
        combinations.push(vec!["--no-default-features".to_owned()]);
    }
    combinations.extend(
        features
            .keys()
            .filter(|f| !on.contains(f) && brings_a_dependency(f))
            .map(|feature| vec!["--features".to_owned(), feature.clone()]),
    );
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

/// serde_json's `raw_value` compiles every struct field's serializer a
/// second time (for its `RawValue` emitter), in the runtime and in every
/// crate that serializes through serde_json: 124 such copies in a minimal
/// server's runtime, and 6% of its LLVM IR left with the feature. The
/// runtime does without it; checked with every feature on, as a workspace
/// may unify them.
#[test]
fn the_runtime_does_not_turn_on_serde_json_raw_value() {
    let output = support::cargo()
        .args(["tree", "-p", "mcp-toolkit-runtime", "--all-features"])
        .args(["-e", "normal,build,features", "-i", "serde_json"])
        .args(["--prefix", "none"])
        .output()
        .expect("run cargo tree");
    let tree = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && tree.contains("serde_json feature \"std\""),
        "cargo tree shows no serde_json:\n{tree}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !tree.contains("serde_json feature \"raw_value\""),
        "something turns on serde_json's raw_value:\n{tree}"
    );
}
