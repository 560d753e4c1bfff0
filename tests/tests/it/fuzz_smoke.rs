//! Keeps the fuzz targets in `fuzz/` compiling and running: each one is
//! built with cargo-fuzz (nightly) and run briefly from its seeds. Long
//! campaigns run outside CI; `fuzz/README.md` says how.
//!
//! cargo-fuzz is used from `PATH` when present, else installed from
//! crates.io into `target/fuzz-tools`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The targets `fuzz/Cargo.toml` declares.
fn targets(fuzz: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let Some(name) = line.strip_prefix("name = ").filter(|_| in_bin) {
            names.push(name.trim_matches('"').to_owned());
        }
    }
    names
}

/// A `cargo` command that has `cargo fuzz`.
fn cargo_fuzz(target_dir: &Path) -> Command {
    let on_path = Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|out| out.status.success());
    let mut cargo = Command::new("cargo");
    if !on_path {
        let root = target_dir.join("fuzz-tools");
        let installed = root.join("bin/cargo-fuzz");
        if !installed.exists() {
            // A debug build: it only starts cargo, and builds in half the
            // time of a release one.
            let status = Command::new("cargo")
                .args(["install", "cargo-fuzz", "--locked", "--debug", "--root"])
                .arg(&root)
                .status()
                .expect("cargo runs");
            assert!(status.success(), "installing cargo-fuzz failed");
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![root.join("bin")];
        dirs.extend(std::env::split_paths(&path));
        cargo.env("PATH", std::env::join_paths(dirs).expect("a valid PATH"));
    }
    cargo
}

#[test]
fn every_fuzz_target_builds_and_runs_from_its_seeds() {
    let root = support::workspace();
    let fuzz = root.join("fuzz");
    let target_dir = root.join("target");
    let targets = targets(&fuzz);
    assert!(targets.len() >= 6, "fuzz/Cargo.toml lists {targets:?}");
    // Every target in one cargo invocation, so that they compile side by
    // side. A debug build without a sanitizer: this only proves that each
    // target builds and runs, so it should cost CI as little as possible;
    // campaigns use cargo-fuzz's optimized ASan build.
    let output = cargo_fuzz(&target_dir)
        .current_dir(&fuzz)
        .args(["+nightly", "fuzz", "build", "--dev", "--sanitizer", "none"])
        .output()
        .expect("cargo fuzz runs");
    assert!(
        output.status.success(),
        "cargo fuzz build failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let binaries = fuzz.join("target").join(host_triple()).join("debug");
    for target in &targets {
        let seeds = fuzz.join("seeds").join(target);
        assert!(
            std::fs::read_dir(&seeds).is_ok_and(|mut d| d.next().is_some()),
            "{target} has no seeds in {}",
            seeds.display()
        );
        // A scratch corpus, so the committed seeds are never rewritten.
        let corpus = tempfile_dir(&target_dir, target);
        for seed in std::fs::read_dir(&seeds).expect("seeds").flatten() {
            std::fs::copy(seed.path(), corpus.join(seed.file_name())).expect("copy a seed");
        }
        let output = Command::new(binaries.join(target))
            .arg(&corpus)
            .args(["-runs=2000", "-max_total_time=20", "-timeout=10"])
            .output()
            .unwrap_or_else(|e| panic!("{target} does not start: {e}"));
        assert!(
            output.status.success(),
            "fuzz target {target} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The nightly toolchain's host triple: cargo-fuzz builds for it, into
/// `fuzz/target/TRIPLE`.
fn host_triple() -> String {
    let output = Command::new("rustc")
        .args(["+nightly", "-vV"])
        .output()
        .expect("rustc +nightly runs (rustup toolchain install nightly)");
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names its host")
        .to_owned()
}

fn tempfile_dir(target_dir: &Path, name: &str) -> PathBuf {
    let dir = target_dir.join("fuzz-smoke").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch corpus directory");
    dir
}
