//! Every published crate's public API is a committed, reviewed file:
//! `tests/api/<package>.txt` lists each public item (modules, types with
//! their fields and variants, functions and methods with their signatures,
//! trait impls including the auto traits, with every feature on) one per
//! line, as the `public-api` crate renders rustdoc's JSON output. A change to
//! a crate's API fails the package test with the lines that changed until
//! the listing is rewritten with `UPDATE_API=1 cargo test -p mcp-tests --test
//! it public_api::` and the diff is committed, so it is reviewed like code.
//!
//! The listings come from the packaged sources: the workspace of unpacked
//! packages that tests/tests/it/package.rs makes. Rustdoc's JSON output is
//! unstable; as cargo-semver-checks does with a stable toolchain, this run
//! of the machine's own rustdoc is allowed it with `RUSTC_BOOTSTRAP=1`,
//! given to rustdoc alone through a wrapper (`RUSTDOC`): build scripts that
//! watch that variable (proc-macro2's, anyhow's, thiserror's) would rerun
//! with it, and with them everything that depends on them. So the
//! dependencies this build checks are the very ones the package test's
//! `--all-features` clippy run checks, in the same target directory, and
//! whichever of the two runs first builds them for both.
//!
//! Blanket impls (`impl<T> From<T> for T` and the like) are left out: they
//! follow from std, not from the crate. Doc text, private items,
//! `#[doc(hidden)]` items (`mcp-toolkit-runtime`'s `fuzzing` module) and parameter
//! names are not in the listing, so they change nothing here.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

/// The command that rewrites the listings.
const UPDATE: &str = "UPDATE_API=1 cargo test -p mcp-tests --test it public_api::";

/// Whether this run rewrites the listings: only `UPDATE_API=1` does (as
/// `UPDATE_SNAPSHOTS=1` for mcp-codegen's snapshots), any other value
/// compares.
fn updating() -> bool {
    std::env::var_os("UPDATE_API").is_some_and(|value| value == "1")
}

/// Where the committed listings are: `tests/api/`.
fn listings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("api")
}

/// The name of a package's library target, which names its rustdoc JSON
/// file (`mcp_toolkit_names` for `mcp-toolkit-names`, a proc-macro crate's too).
fn lib_name(package: &Value) -> String {
    let targets = package["targets"].as_array().expect("targets");
    let lib = targets
        .iter()
        .find(|target| {
            target["kind"]
                .as_array()
                .expect("target kinds")
                .iter()
                .any(|kind| matches!(kind.as_str(), Some("lib" | "rlib" | "proc-macro")))
        })
        .unwrap_or_else(|| panic!("published {} has no library", support::name(package)));
    lib["name"].as_str().expect("target name").replace('-', "_")
}

/// Builds the rustdoc JSON of every member of the workspace at `root` (the
/// unpacked packages) in one cargo run, with every feature on, into
/// `target_dir`; returns the directory the `<lib>.json` files are in.
fn rustdoc_json(root: &Path, target_dir: &Path) -> PathBuf {
    let started = Instant::now();
    let output = support::cargo()
        .args([
            "doc",
            "--workspace",
            "--no-deps",
            "--lib",
            "--all-features",
            "--quiet",
        ])
        .current_dir(root)
        .env("CARGO_TARGET_DIR", target_dir)
        .env("RUSTDOC", unstable_rustdoc(target_dir))
        .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json")
        .env_remove("CARGO_ENCODED_RUSTDOCFLAGS")
        .env_remove("RUSTC_BOOTSTRAP")
        .output()
        .expect("run cargo doc");
    eprintln!("cargo doc (rustdoc JSON) took {:.0?}", started.elapsed());
    assert!(
        output.status.success(),
        "cargo doc (rustdoc JSON) failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    target_dir.join("doc")
}

/// A script in `target_dir` that runs the rustdoc of the cargo running
/// these tests with `RUSTC_BOOTSTRAP=1`, so that only rustdoc sees the
/// variable (see the module's docs).
fn unstable_rustdoc(target_dir: &Path) -> PathBuf {
    let rustdoc = Path::new(env!("CARGO")).with_file_name("rustdoc");
    assert!(
        rustdoc.is_file(),
        "no rustdoc beside cargo at {} (it comes with the rustc component)",
        rustdoc.display()
    );
    let script = target_dir.join("public-api-rustdoc.sh");
    // Single-quoted for sh, a quote in the path written as '\''.
    let quoted = rustdoc.display().to_string().replace('\'', r"'\''");
    let text = format!("#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec '{quoted}' \"$@\"\n");
    std::fs::write(&script, text).expect("write the rustdoc wrapper");
    let mut permissions = std::fs::metadata(&script)
        .expect("the wrapper")
        .permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).expect("make the wrapper executable");
    script
}

/// The public API in `json` (a rustdoc JSON file) as the listing's text: a
/// comment line, then one item per line in `public-api`'s order (items
/// grouped under their module, type or impl, sorted by path, then text).
fn listing(json: &Path) -> String {
    let api = public_api::Builder::from_rustdoc_json(json)
        .omit_blanket_impls(true)
        .build()
        .unwrap_or_else(|error| {
            let format_version = std::fs::read(json)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
                .map(|doc| doc["format_version"].clone());
            panic!(
                "the public-api crate cannot read {} (rustdoc JSON format_version {:?}): {error}; \
                 a newer toolchain may need a newer public-api in tests/Cargo.toml",
                json.display(),
                format_version
            )
        });
    format!(
        "# The public API, every feature on (tests/tests/it/public_api.rs; `{UPDATE}` rewrites it).\n{api}"
    )
}

/// The lines of `expected` missing from `actual` (`-`), then those of
/// `actual` missing from `expected` (`+`), each counted as often as it
/// occurs (two impls can have methods that render alike), at most `limit`.
fn diff(expected: &str, actual: &str, limit: usize) -> String {
    let (old, new) = (count_lines(expected), count_lines(actual));
    let mut lines = Vec::new();
    for (sign, text, this, other) in [('-', expected, &old, &new), ('+', actual, &new, &old)] {
        let mut surplus: BTreeMap<&str, isize> = this
            .iter()
            .map(|(line, n)| (*line, n - other.get(line).copied().unwrap_or(0)))
            .filter(|(_, n)| *n > 0)
            .collect();
        for line in text.lines() {
            if let Some(n) = surplus.get_mut(line).filter(|n| **n > 0) {
                *n -= 1;
                lines.push(format!("{sign} {line}"));
            }
        }
    }
    let more = lines.len().saturating_sub(limit);
    lines.truncate(limit);
    if more > 0 {
        lines.push(format!("… and {more} more lines"));
    }
    lines.join("\n")
}

/// How often each line occurs in `text`.
fn count_lines(text: &str) -> BTreeMap<&str, isize> {
    let mut counts = BTreeMap::new();
    for line in text.lines() {
        *counts.entry(line).or_default() += 1;
    }
    counts
}

/// Every published crate's public API, listed from its package, is the one
/// its committed listing holds; with `UPDATE_API=1` the listings are
/// rewritten instead.
#[test]
fn each_published_crate_has_the_public_api_of_its_listing() {
    let metadata = support::metadata();
    let published = support::published(&metadata);
    let root = &crate::package::unpacked().root;
    let docs = rustdoc_json(root, &support::target_dir(&metadata));
    let dir = listings_dir();
    let mut problems = Vec::new();
    let mut expected_files = Vec::new();
    for package in &published {
        let name = support::name(package);
        let file = dir.join(format!("{name}.txt"));
        let actual = listing(&docs.join(format!("{}.json", lib_name(package))));
        expected_files.push(file.clone());
        if updating() {
            std::fs::create_dir_all(&dir).expect("create tests/api");
            std::fs::write(&file, &actual).expect("write a listing");
            continue;
        }
        match std::fs::read_to_string(&file) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => problems.push(format!(
                "the public API of {name} differs from tests/api/{name}.txt:\n{}",
                diff(&expected, &actual, 200)
            )),
            Err(error) => problems.push(format!("tests/api/{name}.txt: {error}")),
        }
    }
    // A listing of a crate no longer published (or renamed) goes too.
    for entry in std::fs::read_dir(&dir).expect("read tests/api").flatten() {
        let path = entry.path();
        if !expected_files.contains(&path) {
            if updating() {
                std::fs::remove_file(&path).expect("remove a stale listing");
            } else {
                let name = entry.file_name();
                problems.push(format!(
                    "tests/api/{} lists no published crate's API",
                    name.to_string_lossy()
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n\nIf the change is intended, rewrite the listings with `{UPDATE}` and commit them \
         with the change, so the API diff is reviewed.",
        problems.join("\n\n")
    );
}

#[test]
fn the_diff_shows_what_was_removed_and_added() {
    let old = "a\nb\nfmt\nfmt\nc\n";
    let new = "a\nfmt\nc\nd\n";
    assert_eq!(diff(old, new, 10), "- b\n- fmt\n+ d");
    assert_eq!(diff(old, new, 1), "- b\n… and 2 more lines");
    assert_eq!(diff(old, old, 10), "");
}
